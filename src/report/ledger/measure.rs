//! How a claim's value and its verdict interval are obtained from the
//! selected rows: the interval from the table's sufficient statistics at any
//! confidence, and each check (value, ratio, equal across, max, pooled,
//! every with Holm's correction, report).

use super::{Basis, Check, Claim, Source, Test, VERDICT_CONFIDENCE, Verdict, verdict};
use crate::error::Error;
use crate::export::markdown::sig;
use crate::stats;
use crate::table::{Interval, Is, Table, Tables, Value};

/// The interval of `metric` in `row` at `confidence`, from the sufficient
/// statistics the table carries, found through the columns' declared parts
/// (never a suffix): Clopper–Pearson from a proportion's successes and
/// trials (exact, and inside [0, 1] however rare), Student-t from a summary
/// mean's standard deviation and `replicates` (a mean over independent
/// structures), else the table's 95% bounds widened by z(c)/z(0.95) on each
/// side (normal approximation of a mean; said in the row's note). A proportion's interval
/// is cut to [0, 1] (the true rate lies there, so the coverage is kept).
/// `None` when the table has no interval.
fn verdict_interval(
    t: &Table,
    row: &[Value],
    metric: &str,
    confidence: f64,
    proportion: bool,
) -> Option<(Interval, bool)> {
    let value = t.f64(row, metric)?;
    let clamp = |i: Interval| {
        if proportion {
            Interval::new(i.value, i.lo.max(0.0), i.hi.min(1.0))
        } else {
            i
        }
    };
    let at = |i: usize| row.get(i)?.as_f64();
    if let (Some(k), Some(n)) = (t.sibling(metric, Is::K), t.sibling(metric, Is::N)) {
        let (lo, hi) = stats::clopper_pearson(at(k)? as u64, at(n)? as u64, confidence);
        return Some((Interval::new(value, lo, hi), false));
    }
    // a standard deviation over replicates: its chi-square interval
    if t.part(metric).is_some_and(|p| p.is == Is::Sd) && t.has("replicates") {
        let r = t.f64(row, "replicates")? as usize;
        let i = stats::sd_interval(value, r, confidence);
        return Some((i, false));
    }
    if let Some(sd) = t.sibling(metric, Is::Sd)
        && t.has("replicates")
    {
        let (sd, r) = (at(sd)?, t.f64(row, "replicates")?);
        let half = stats::t(confidence, r - 1.0) * sd / r.sqrt();
        return Some((
            clamp(Interval::new(value, value - half, value + half)),
            false,
        ));
    }
    // an estimate that carries its own 99.9% interval (a median's order
    // statistics, a mean's t, a rate's exact interval through a formula)
    if let (Some(lo999), Some(hi999)) = (t.sibling(metric, Is::Lo999), t.sibling(metric, Is::Hi999))
    {
        let (lo, hi) = (at(lo999)?, at(hi999)?);
        if (confidence - stats::VERDICT_CONFIDENCE).abs() < 1e-12 {
            return Some((clamp(Interval::new(value, lo, hi)), false));
        }
        // another level (Holm's): from the 99.9% ends by the normal ratio
        let s = stats::z(confidence) / stats::z(stats::VERDICT_CONFIDENCE);
        return Some((
            clamp(Interval::new(
                value,
                value - s * (value - lo),
                value + s * (hi - value),
            )),
            true,
        ));
    }
    let i = t.interval(row, metric)?;
    let s = stats::z(confidence) / stats::z(stats::PLOT_CONFIDENCE);
    Some((
        clamp(Interval::new(
            value,
            value - s * (value - i.lo),
            value + s * (i.hi - value),
        )),
        true,
    ))
}

/// One row of an `every` check: its interval at the verdict confidence and
/// at the level corrected for the rows.
#[derive(Clone, Copy)]
struct Judged {
    at_c: Interval,
    at_k: Interval,
    rescaled: bool,
    theory: Option<f64>,
}

pub(super) struct Measured {
    pub(super) interval: Interval,
    pub(super) theory: Option<f64>,
    pub(super) rescaled: bool,
    /// Set when the check decides the verdict itself (`every`).
    pub(super) verdict: Option<Verdict>,
    /// How an `every` check corrected for its rows.
    pub(super) holm: Option<String>,
}

impl Measured {
    fn of(interval: Interval, theory: Option<f64>, rescaled: bool) -> Measured {
        Measured {
            interval,
            theory,
            rescaled,
            verdict: None,
            holm: None,
        }
    }
}

pub(super) fn measure(
    claim: &Claim,
    tables: &Tables,
    test: &Test,
) -> crate::error::Result<Measured> {
    let t = match claim.source {
        Source::Results => &tables.results,
        Source::Summary => tables
            .summary
            .as_ref()
            .ok_or_else(|| Error::input("the study wrote no summary table"))?,
    };
    // a proportion (the results carry its counts): intervals stay in [0, 1]
    let proportion = is_proportion(&tables.results, &claim.metric);
    let selected: Vec<&Vec<Value>> = t.select(&claim.select).collect();
    let value = |r: &[Value]| {
        t.f64(r, &claim.metric)
            .ok_or_else(|| Error::input(format!("{} is empty in a selected row", claim.metric)))
    };
    let theory = |r: &[Value]| claim.theory_metric.as_ref().and_then(|m| t.f64(r, m));
    // a computed value is exact; a measured one needs its interval
    let interval = |r: &[Value], confidence: f64| -> crate::error::Result<(Interval, bool)> {
        match claim.basis {
            Basis::Computed | Basis::Counted | Basis::Reference => {
                Ok((Interval::exact(value(r)?), false))
            }
            Basis::Measured => {
                let (i, rescaled) = verdict_interval(t, r, &claim.metric, confidence, proportion)
                    .ok_or_else(|| {
                    Error::input(format!(
                        "{} has no interval: mark the claim computed, or measure it with one",
                        claim.metric
                    ))
                })?;
                // a rare rate averaged over replicates: pool their counts
                if claim.source == Source::Summary && proportion {
                    let raw = verdict_interval(t, r, &claim.metric, confidence, false);
                    if let Some(p) =
                        pooled_replicates(t, r, &tables.results, &claim.metric, confidence, &i)
                            .filter(|p| {
                                p.1 < RARE_EVENTS
                                    || raw.is_some_and(|(raw, _)| raw.lo < 0.0 || raw.hi > 1.0)
                            })
                    {
                        return Ok((p.0, false));
                    }
                }
                Ok((i, rescaled))
            }
        }
    };
    let c = VERDICT_CONFIDENCE;
    match claim.check {
        Check::Value => {
            let [r] = selected[..] else {
                return Err(Error::input(format!(
                    "selector matched {} rows, expected 1",
                    selected.len()
                )));
            };
            let Some(base) = &claim.baseline else {
                let (i, rescaled) = interval(r, c)?;
                if claim.per_theory {
                    // a ratio to the row's own formula value
                    let th = theory(r).filter(|t| *t > 0.0).ok_or_else(|| {
                        Error::input(format!(
                            "per_theory: {:?} is not positive",
                            claim.theory_metric
                        ))
                    })?;
                    let ratio = Interval::new(i.value / th, i.lo / th, i.hi / th);
                    return Ok(Measured::of(ratio, Some(1.0), rescaled));
                }
                return Ok(Measured::of(i, theory(r), rescaled));
            };
            let b: Vec<&Vec<Value>> = t.select(base).collect();
            let [b] = b[..] else {
                return Err(Error::input(format!(
                    "baseline matched {} rows, expected 1",
                    b.len()
                )));
            };
            let ((x, rx), (y, ry)) = (interval(r, c)?, interval(b, c)?);
            let ratio = if claim.basis != Basis::Measured {
                Interval::exact(x.value / y.value)
            } else {
                // both intervals are at the verdict level already
                stats::ratio_interval(x, y, c)
            };
            Ok(Measured::of(
                ratio,
                theory(r).zip(theory(b)).map(|(x, y)| x / y),
                rx || ry,
            ))
        }
        Check::EqualAcross => {
            if selected.len() < 2 {
                return Err(Error::input(format!(
                    "selector matched {} rows, expected 2 or more",
                    selected.len()
                )));
            }
            let mut vals = Vec::new();
            for r in &selected {
                let (i, rescaled) = interval(r, c)?;
                if i.value.is_nan() || i.value <= 0.0 {
                    return Err(Error::input(format!(
                        "{} = {} in a selected row: a ratio needs positive values",
                        claim.metric, i.value
                    )));
                }
                vals.push((i, rescaled, theory(r)));
            }
            let hi = vals
                .iter()
                .max_by(|a, b| a.0.value.total_cmp(&b.0.value))
                .unwrap();
            let lo = vals
                .iter()
                .min_by(|a, b| a.0.value.total_cmp(&b.0.value))
                .unwrap();
            let ratio = if claim.basis != Basis::Measured {
                Interval::exact(hi.0.value / lo.0.value)
            } else {
                // the largest over the smallest is at least 1 whatever the
                // noise: the interval is cut there (its coverage is kept)
                let r = stats::ratio_interval(hi.0, lo.0, c);
                Interval::new(r.value, r.lo.max(1.0), r.hi.max(1.0))
            };
            Ok(Measured::of(
                ratio,
                hi.2.zip(lo.2).map(|(a, b)| a / b),
                hi.1 || lo.1,
            ))
        }
        Check::Max => {
            if selected.is_empty() {
                return Err(Error::input("selector matched no rows"));
            }
            let mut max = f64::NEG_INFINITY;
            for r in &selected {
                max = max.max(value(r)?);
            }
            Ok(Measured::of(
                Interval::exact(max),
                selected.iter().filter_map(|r| theory(r)).reduce(f64::max),
                false,
            ))
        }
        Check::Pooled => {
            if selected.is_empty() {
                return Err(Error::input("selector matched no rows"));
            }
            if !is_proportion(t, &claim.metric) {
                return Err(Error::input(format!(
                    "{} is not a proportion (it carries no successes and trials)",
                    claim.metric
                )));
            }
            let (k, n) = pooled_counts(t, selected.iter().copied(), &claim.metric)
                .ok_or_else(|| Error::input("empty count"))?;
            let (lo, hi) = stats::clopper_pearson(k, n, c);
            let rate = if n == 0 {
                f64::NAN
            } else {
                k as f64 / n as f64
            };
            let th: Vec<f64> = selected.iter().filter_map(|r| theory(r)).collect();
            let th = (!th.is_empty()).then(|| th.iter().sum::<f64>() / th.len() as f64);
            if claim.per_theory {
                // the pooled rate as a ratio to the rows' mean formula value
                let th = th.filter(|t| *t > 0.0).ok_or_else(|| {
                    Error::input(format!(
                        "per_theory: {:?} is not positive",
                        claim.theory_metric
                    ))
                })?;
                return Ok(Measured::of(
                    Interval::new(rate / th, lo / th, hi / th),
                    Some(1.0),
                    false,
                ));
            }
            Ok(Measured::of(Interval::new(rate, lo, hi), th, false))
        }
        Check::Every => {
            // rows where the metric does not apply (empty) are not part of "every"
            let rows: Vec<&&Vec<Value>> = selected
                .iter()
                .filter(|r| t.f64(r, &claim.metric).is_some())
                .collect();
            if rows.is_empty() {
                return Err(Error::input(if selected.is_empty() {
                    "selector matched no rows".into()
                } else {
                    format!("{} is empty in every selected row", claim.metric)
                }));
            }
            // Holm's first step: a row refutes the universal claim at the
            // familywise level c when its interval at 1 − (1 − c)/k lies
            // outside the band; the claim holds when every row holds at c
            // (an intersection-union test needs no correction)
            let k = rows.len();
            let corrected = 1.0 - (1.0 - c) / k as f64;
            let mut judged = Vec::new();
            for r in &rows {
                let (at_c, rescaled) = interval(r, c)?;
                let (at_k, _) = interval(r, corrected)?;
                judged.push(Judged {
                    at_c,
                    at_k,
                    rescaled,
                    theory: theory(r),
                });
            }
            // the interval's edge nearest the band's edge
            let room = |i: Interval| {
                test.room(i.lo.min(i.value))
                    .min(test.room(i.hi.max(i.value)))
            };
            // the row nearest (or farthest past) the edge among those kept, by
            // its interval at c or at the corrected level
            let nearest = |keep: &dyn Fn(&Judged) -> bool, at_k: bool| {
                judged
                    .iter()
                    .filter(|j| keep(j))
                    .map(|j| (*j, if at_k { j.at_k } else { j.at_c }))
                    .min_by(|a, b| room(a.1).total_cmp(&room(b.1)))
            };
            let fails = |j: &Judged| verdict(test, j.at_k) == Verdict::DoesNotHold;
            let holds = |j: &Judged| verdict(test, j.at_c) == Verdict::Holds;
            let (v, corrected_interval, (chosen, shown)) = if let Some(row) = nearest(&fails, true)
            {
                (Verdict::DoesNotHold, true, row)
            } else if judged.iter().all(holds) {
                (
                    Verdict::Holds,
                    false,
                    nearest(&|_| true, false).expect("rows"),
                )
            } else {
                let row = nearest(&|j| !holds(j), false).expect("a row that does not hold");
                (Verdict::Inconclusive, false, row)
            };
            let holm = (k > 1 && claim.basis == Basis::Measured).then(|| {
                format!(
                    "every: {k} rows; a failure is decided at {}% (Holm, {}/{k}), holding at {}%{}",
                    sig(100.0 * corrected, 6),
                    sig(100.0 * (1.0 - c), 3),
                    sig(100.0 * c, 4),
                    if corrected_interval {
                        "; the interval shown is the corrected one"
                    } else {
                        ""
                    }
                )
            });
            Ok(Measured {
                interval: shown,
                theory: chosen.theory,
                rescaled: chosen.rescaled,
                verdict: Some(v),
                holm,
            })
        }
        Check::ArgMin => {
            let by = claim
                .by
                .as_deref()
                .ok_or_else(|| Error::input("argmin without `by`"))?;
            // one value per `by`: a proportion's counts pooled over its rows
            // (settings that measure the same rate), else its single row
            let counts = is_proportion(t, &claim.metric);
            let mut groups: Vec<(f64, Vec<&Vec<Value>>)> = Vec::new();
            for r in &selected {
                let at = t
                    .f64(r, by)
                    .ok_or_else(|| Error::input(format!("{by} is empty in a selected row")))?;
                match groups.iter_mut().find(|g| g.0 == at) {
                    Some(g) => g.1.push(r),
                    None => groups.push((at, vec![r])),
                }
            }
            let mut rows = Vec::new();
            for (at, rs) in &groups {
                let i = if counts {
                    let (k, n) = pooled_counts(t, rs.iter().copied(), &claim.metric)
                        .ok_or_else(|| Error::input("empty count"))?;
                    let (lo, hi) = stats::clopper_pearson(k, n, c);
                    Interval::new(k as f64 / n.max(1) as f64, lo, hi)
                } else {
                    let [r] = rs[..] else {
                        return Err(Error::input(format!(
                            "{} rows at {by} = {at}: without counts to pool, argmin takes one row per value",
                            rs.len()
                        )));
                    };
                    interval(r, c)?.0
                };
                rows.push((i, *at));
            }
            let (best, at) = *rows
                .iter()
                .min_by(|a, b| a.0.value.total_cmp(&b.0.value))
                .ok_or_else(|| Error::input("selector matched no rows"))?;
            // every value the data cannot tell from the minimum
            let tied = rows.iter().filter(|(i, _)| i.lo <= best.hi).map(|r| r.1);
            let (lo, hi) = tied.fold((at, at), |(lo, hi), x| (lo.min(x), hi.max(x)));
            Ok(Measured::of(Interval::new(at, lo, hi), None, false))
        }
        Check::Report if claim.baseline.is_some() => {
            // a ratio to the baseline row, shown as `value` would judge it
            let value_check = Claim {
                check: Check::Value,
                ..claim.clone()
            };
            let m = measure(&value_check, tables, test)?;
            Ok(Measured::of(m.interval, m.theory, m.rescaled))
        }
        Check::Report => {
            let [r] = selected[..] else {
                return Err(Error::input(format!(
                    "selector matched {} rows, expected 1",
                    selected.len()
                )));
            };
            // a measured value keeps its interval (shown, never judged)
            let (interval, rescaled) = if claim.basis == Basis::Measured {
                interval(r, c)?
            } else {
                (Interval::exact(value(r)?), false)
            };
            Ok(Measured::of(interval, theory(r), rescaled))
        }
    }
}

/// Whether `metric` is a proportion's value in `t` (its field carries its
/// successes and trials).
fn is_proportion(t: &Table, metric: &str) -> bool {
    t.sibling(metric, Is::K).is_some() && t.sibling(metric, Is::N).is_some()
}

/// A proportion's counts summed over rows: (successes, trials) from the
/// metric's declared parts; `None` when a row leaves one empty.
fn pooled_counts<'a>(
    t: &Table,
    rows: impl IntoIterator<Item = &'a Vec<Value>>,
    metric: &str,
) -> Option<(u64, u64)> {
    let (kc, nc) = (t.sibling(metric, Is::K)?, t.sibling(metric, Is::N)?);
    let (mut k, mut n) = (0u64, 0u64);
    for r in rows {
        k += r.get(kc)?.as_f64()? as u64;
        n += r.get(nc)?.as_f64()? as u64;
    }
    Some((k, n))
}

/// Below this many events pooled over a setting's replicates a rate is rare:
/// a Student-t interval over a few replicate means (t = 12.9 at 99.9% with
/// four) says little there, and is cut at 0; the exact interval of the
/// pooled counts is used instead.
const RARE_EVENTS: u64 = 100;

/// For a summary row's mean of a proportion, the counts of its setting's
/// replicates pooled from the results (the rows whose parameters, the
/// summary's columns before `replicates`, equal the summary row's), with the
/// exact interval at `c` around the mean `i`, and the pooled event count;
/// `None` when the counts are missing.
fn pooled_replicates(
    summary: &Table,
    row: &[Value],
    results: &Table,
    metric: &str,
    c: f64,
    i: &Interval,
) -> Option<(Interval, u64)> {
    let params: Vec<(usize, usize)> = summary
        .columns
        .iter()
        .enumerate()
        .take_while(|(_, col)| col.name != "replicates")
        .map(|(s, col)| Some((s, results.try_col(&col.name)?)))
        .collect::<Option<_>>()?;
    let same = results
        .rows
        .iter()
        .filter(|r| params.iter().all(|&(s, x)| row[s] == r[x]));
    let (k, n) = pooled_counts(results, same, metric)?;
    let (lo, hi) = stats::clopper_pearson(k, n, c);
    (n > 0).then(|| (Interval::new(i.value, lo.min(i.value), hi.max(i.value)), k))
}
