//! The claims ledger: each documented number next to theory and measurement,
//! with a verdict computed by one fixed rule, an equivalence test
//! ([`verdict`](super::verdict::verdict)), at [`VERDICT_CONFIDENCE`].

pub use super::verdict::{APPROX_SLACK, VERDICT_CONFIDENCE, Verdict, verdict};
use crate::export::markdown::sig;
use crate::stats;
use crate::table::{Interval, Table, Tables, Value};

/// How a claim's value is obtained from the selected rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The metric of the single selected row (or its ratio to `baseline`).
    Value,
    /// The metric must agree across the selected rows: measured is the largest
    /// ratio between two of them, with its interval, tested against 1 ± tolerance.
    EqualAcross,
    /// The largest value over the selected rows (e.g. false negatives).
    Max,
    /// One proportion pooled over the selected rows (successes and trials
    /// summed): for a claim about a population of settings.
    Pooled,
    /// A universal claim ("every", "any", "always"): each selected row is
    /// judged on its own and the claim gets the worst verdict (the row with
    /// the largest gap is shown).
    Every,
    /// The value is shown but no verdict is given (e.g. what a lost table row
    /// must be for a sentence to hold): `not-measured`, with the value.
    Report,
}

/// Which table a claim reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Results,
    Summary,
}

/// Whether a claim's value comes from a measurement or from a formula or an
/// exact enumeration (which has no sampling interval).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// A sampled value: decided on its interval.
    Measured,
    /// An exact measurement of this run (a count, bytes from the allocator): no sampling interval.
    Counted,
    /// A formula's value or an exact enumeration.
    Computed,
    /// A fact no harness measures (a date, a venue, a theorem, a deployment):
    /// `not-measured`, with the reference a reader checks it against.
    Reference,
}

impl Basis {
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Measured => "measured",
            Basis::Counted => "counted",
            Basis::Computed => "computed",
            Basis::Reference => "reference",
        }
    }
}

/// A document's claim, checked against a study's tables.
#[derive(Clone, Debug)]
pub struct Claim {
    pub id: String,
    pub document: String,
    pub quote: String,
    pub documented: f64,
    pub documented_high: Option<f64>,
    pub unit: String,
    /// `(parameter, accepted values)`: a row matches when each cell equals one of its values.
    pub select: Vec<(String, Vec<Value>)>,
    pub metric: String,
    pub theory_metric: Option<String>,
    pub tolerance: f64,
    pub check: Check,
    pub baseline: Option<Vec<(String, Vec<Value>)>>,
    pub note: Option<String>,
    pub source: Source,
    pub basis: Basis,
}

/// One line of claims.csv (plus what REPORT.md shows beside it).
#[derive(Clone, Debug)]
pub struct LedgerRow {
    pub claim_id: String,
    pub document: String,
    pub quote: String,
    pub documented: String,
    pub theory: Option<f64>,
    pub measured: Option<f64>,
    pub unit: String,
    pub verdict: Verdict,
    pub basis: Basis,
    pub study: String,
    /// The interval the verdict was decided on (at [`VERDICT_CONFIDENCE`]).
    pub interval: Option<(f64, f64)>,
    pub note: String,
    /// The heading of the document section the quote sits in ("" when the
    /// quote is not found: tests/quotes.rs fails then).
    pub section: String,
    /// (section index, offset in the section): the documents' order.
    pub place: (usize, usize),
}

impl LedgerRow {
    /// Sets `section` and `place` from the quote's position in its document.
    pub fn placed(mut self) -> Self {
        let at = super::documents::document(&self.document)
            .ok_or_else(String::new)
            .and_then(|d| d.locate(&self.quote));
        (self.section, self.place) = match at {
            Ok((i, heading, offset)) => (heading.to_string(), (i, offset)),
            Err(_) => (String::new(), (usize::MAX, 0)),
        };
        self
    }
}

/// The ledger in the documents' order: by document, section, then position
/// of the quote (claims on one sentence keep their spec order).
pub fn sort(rows: &mut [LedgerRow]) {
    rows.sort_by(|a, b| (&a.document, a.place).cmp(&(&b.document, b.place)));
}

/// The interval of `metric` in `row` at the verdict confidence, from the
/// sufficient statistics the table carries: Wilson from `_k`/`_n` (a
/// proportion), Student-t from `_sd` and `replicates` (a summary mean), else
/// the table's 95% bounds widened by z(0.999)/z(0.95) on each side (normal
/// approximation; said in the row's note). `None` when the table has no interval.
fn verdict_interval(t: &Table, row: &[Value], metric: &str) -> Option<(Interval, bool)> {
    let value = t.f64(row, metric)?;
    let (k, n) = (format!("{metric}_k"), format!("{metric}_n"));
    if t.has(&k) && t.has(&n) {
        let p = stats::Proportion::at(
            t.f64(row, &k)? as u64,
            t.f64(row, &n)? as u64,
            VERDICT_CONFIDENCE,
        );
        return Some((Interval::new(value, p.lo, p.hi), false));
    }
    // a standard deviation over replicates: its chi-square interval
    if metric.ends_with("_sd") && t.has("replicates") {
        let r = t.f64(row, "replicates")? as usize;
        let i = stats::sd_interval(value, r, VERDICT_CONFIDENCE);
        return Some((i, false));
    }
    let sd = format!("{metric}_sd");
    if t.has(&sd) && t.has("replicates") {
        let (sd, r) = (t.f64(row, &sd)?, t.f64(row, "replicates")?);
        let half = stats::t(VERDICT_CONFIDENCE, r - 1.0) * sd / r.sqrt();
        return Some((Interval::new(value, value - half, value + half), false));
    }
    let i = t.interval(row, metric)?;
    let s = stats::z(VERDICT_CONFIDENCE) / stats::z(stats::PLOT_CONFIDENCE);
    Some((
        Interval::new(
            value,
            value - s * (value - i.lo),
            value + s * (i.hi - value),
        ),
        true,
    ))
}

/// Evaluates one claim against its study's tables.
pub fn evaluate(claim: &Claim, study: &str, tables: &Tables) -> LedgerRow {
    let mut row = LedgerRow {
        claim_id: claim.id.clone(),
        document: claim.document.clone(),
        quote: claim.quote.clone(),
        documented: match claim.documented_high {
            Some(h) => format!("{}-{}", sig(claim.documented, 6), sig(h, 6)),
            None => sig(claim.documented, 6),
        },
        theory: None,
        measured: None,
        unit: claim.unit.clone(),
        verdict: Verdict::NotMeasured,
        basis: claim.basis,
        study: study.to_string(),
        interval: None,
        note: claim.note.clone().unwrap_or_default(),
        section: String::new(),
        place: (0, 0),
    }
    .placed();
    let documented = (
        claim.documented,
        claim.documented_high.unwrap_or(claim.documented),
    );
    match measure(claim, tables) {
        Ok(m) if claim.check == Check::Report => {
            row.measured = Some(m.interval.value);
            row.theory = m.theory;
            if claim.basis == Basis::Measured {
                row.interval = Some((m.interval.lo, m.interval.hi));
            }
        }
        Ok(m) => {
            row.measured = Some(m.interval.value);
            row.theory = m.theory;
            if m.interval.lo != m.interval.hi || claim.basis == Basis::Measured {
                row.interval = Some((m.interval.lo, m.interval.hi));
            }
            row.verdict = m
                .verdict
                .unwrap_or_else(|| verdict(documented, m.interval, claim.tolerance));
            if m.rescaled {
                append(
                    &mut row.note,
                    "verdict interval: the 95% bounds widened to 99.9% by the normal ratio",
                );
            }
        }
        Err(why) => append(&mut row.note, &why),
    }
    row
}

fn append(note: &mut String, s: &str) {
    if note.is_empty() {
        *note = s.to_string();
    } else {
        *note = format!("{note} ({s})");
    }
}

struct Measured {
    interval: Interval,
    theory: Option<f64>,
    rescaled: bool,
    /// Set when the check decides the verdict itself (`every`).
    verdict: Option<Verdict>,
}

fn measure(claim: &Claim, tables: &Tables) -> Result<Measured, String> {
    let t = match claim.source {
        Source::Results => &tables.results,
        Source::Summary => tables
            .summary
            .as_ref()
            .ok_or("the study wrote no summary table")?,
    };
    let selected: Vec<&Vec<Value>> = t.select(&claim.select).collect();
    let value = |r: &[Value]| {
        t.f64(r, &claim.metric)
            .ok_or_else(|| format!("{} is empty in a selected row", claim.metric))
    };
    let theory = |r: &[Value]| claim.theory_metric.as_ref().and_then(|m| t.f64(r, m));
    // a computed value is exact; a measured one needs its interval
    let interval = |r: &[Value]| -> Result<(Interval, bool), String> {
        match claim.basis {
            Basis::Computed | Basis::Counted | Basis::Reference => {
                Ok((Interval::exact(value(r)?), false))
            }
            Basis::Measured => verdict_interval(t, r, &claim.metric).ok_or_else(|| {
                format!(
                    "{} has no interval: mark the claim computed, or measure it with one",
                    claim.metric
                )
            }),
        }
    };
    let exact_measured = |x: f64| Interval::exact(x);
    match claim.check {
        Check::Value => {
            let [r] = selected[..] else {
                return Err(format!(
                    "selector matched {} rows, expected 1",
                    selected.len()
                ));
            };
            let Some(base) = &claim.baseline else {
                let (i, rescaled) = interval(r)?;
                return Ok(Measured {
                    interval: i,
                    theory: theory(r),
                    rescaled,
                    verdict: None,
                });
            };
            let b: Vec<&Vec<Value>> = t.select(base).collect();
            let [b] = b[..] else {
                return Err(format!("baseline matched {} rows, expected 1", b.len()));
            };
            let ((x, rx), (y, ry)) = (interval(r)?, interval(b)?);
            let ratio = if claim.basis != Basis::Measured {
                Interval::exact(x.value / y.value)
            } else {
                // both intervals are at the verdict level already
                stats::ratio_interval(x, y, VERDICT_CONFIDENCE)
            };
            Ok(Measured {
                interval: ratio,
                theory: theory(r).zip(theory(b)).map(|(x, y)| x / y),
                rescaled: rx || ry,
                verdict: None,
            })
        }
        Check::EqualAcross => {
            if selected.len() < 2 {
                return Err(format!(
                    "selector matched {} rows, expected 2 or more",
                    selected.len()
                ));
            }
            let mut vals = Vec::new();
            for r in &selected {
                let (i, rescaled) = interval(r)?;
                if i.value.is_nan() || i.value <= 0.0 {
                    return Err(format!(
                        "{} = {} in a selected row: a ratio needs positive values",
                        claim.metric, i.value
                    ));
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
                stats::ratio_interval(hi.0, lo.0, VERDICT_CONFIDENCE)
            };
            Ok(Measured {
                interval: ratio,
                theory: hi.2.zip(lo.2).map(|(a, b)| a / b),
                rescaled: hi.1 || lo.1,
                verdict: None,
            })
        }
        Check::Max => {
            if selected.is_empty() {
                return Err("selector matched no rows".into());
            }
            let mut max = f64::NEG_INFINITY;
            for r in &selected {
                max = max.max(value(r)?);
            }
            Ok(Measured {
                interval: exact_measured(max),
                theory: selected.iter().filter_map(|r| theory(r)).reduce(f64::max),
                rescaled: false,
                verdict: None,
            })
        }
        Check::Pooled => {
            if selected.is_empty() {
                return Err("selector matched no rows".into());
            }
            let (kc, nc) = (format!("{}_k", claim.metric), format!("{}_n", claim.metric));
            if !(t.has(&kc) && t.has(&nc)) {
                return Err(format!(
                    "{} is not a proportion (no {kc}, {nc})",
                    claim.metric
                ));
            }
            let (mut k, mut n) = (0u64, 0u64);
            for r in &selected {
                k += t.f64(r, &kc).ok_or("empty count")? as u64;
                n += t.f64(r, &nc).ok_or("empty count")? as u64;
            }
            let p = stats::Proportion::at(k, n, VERDICT_CONFIDENCE);
            let th: Vec<f64> = selected.iter().filter_map(|r| theory(r)).collect();
            Ok(Measured {
                interval: Interval::new(p.rate, p.lo, p.hi),
                theory: (!th.is_empty()).then(|| th.iter().sum::<f64>() / th.len() as f64),
                rescaled: false,
                verdict: None,
            })
        }
        Check::Every => {
            if selected.is_empty() {
                return Err("selector matched no rows".into());
            }
            let documented = (
                claim.documented,
                claim.documented_high.unwrap_or(claim.documented),
            );
            let severity = |v: Verdict| match v {
                Verdict::Holds => 0,
                Verdict::Approximately => 1,
                Verdict::Inconclusive => 2,
                Verdict::DoesNotHold => 3,
                Verdict::NotMeasured => 4,
            };
            // the worst row: the most severe verdict, then the smallest margin
            // between its interval and the documented bounds (negative outside)
            let mut worst: Option<(Measured, f64, Verdict)> = None;
            // rows where the metric does not apply (empty) are not part of "every"
            for r in selected
                .iter()
                .filter(|r| t.f64(r, &claim.metric).is_some())
            {
                let (i, rescaled) = interval(r)?;
                let v = verdict(documented, i, claim.tolerance);
                let upper = documented.1 - i.hi.max(i.value);
                // an "at most" claim ([0, x]) can only fail upward
                let margin = if documented.0 == 0.0 && documented.1 > 0.0 {
                    upper
                } else {
                    (i.lo.min(i.value) - documented.0).min(upper)
                };
                let replace = match &worst {
                    None => true,
                    Some((_, g, w)) => {
                        severity(v) > severity(*w) || (severity(v) == severity(*w) && margin < *g)
                    }
                };
                if replace {
                    worst = Some((
                        Measured {
                            interval: i,
                            theory: theory(r),
                            rescaled,
                            verdict: Some(v),
                        },
                        margin,
                        v,
                    ));
                }
            }
            worst
                .map(|w| w.0)
                .ok_or_else(|| format!("{} is empty in every selected row", claim.metric))
        }
        Check::Report => {
            let [r] = selected[..] else {
                return Err(format!(
                    "selector matched {} rows, expected 1",
                    selected.len()
                ));
            };
            // a measured value keeps its interval (shown, never judged)
            let (interval, rescaled) = if claim.basis == Basis::Measured {
                interval(r)?
            } else {
                (Interval::exact(value(r)?), false)
            };
            Ok(Measured {
                interval,
                theory: theory(r),
                rescaled,
                verdict: None,
            })
        }
    }
}

/// claims.csv: `claim_id,document,quote,documented,theory,measured,unit,verdict,basis,interval_lo,interval_hi`.
pub fn to_csv(rows: &[LedgerRow]) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "claim_id",
        "document",
        "quote",
        "documented",
        "theory",
        "measured",
        "unit",
        "verdict",
        "basis",
        "interval_lo",
        "interval_hi",
    ])?;
    let f = |x: Option<f64>| x.map(|v| sig(v, 6)).unwrap_or_default();
    for r in rows {
        w.write_record([
            &r.claim_id,
            &r.document,
            &r.quote,
            &r.documented,
            &f(r.theory),
            &f(r.measured),
            &r.unit,
            r.verdict.as_str(),
            r.basis.as_str(),
            &f(r.interval.map(|i| i.0)),
            &f(r.interval.map(|i| i.1)),
        ])?;
    }
    Ok(w.into_inner()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{ColType, Column};

    /// A results table of proportions: `setting`, `fpr`, `fpr_lo`, `fpr_hi`, `fpr_k`, `fpr_n`.
    fn table(rows: &[(&str, u64, u64)]) -> Tables {
        let mut t = Table::new(vec![
            Column::new("setting", ColType::Str),
            Column::new("fpr", ColType::Float),
            Column::new("fpr_lo", ColType::Float),
            Column::new("fpr_hi", ColType::Float),
            Column::new("fpr_k", ColType::Int),
            Column::new("fpr_n", ColType::Int),
        ]);
        for &(name, k, n) in rows {
            let p = stats::Proportion::new(k, n);
            t.rows.push(vec![
                Value::from(name),
                p.rate.into(),
                p.lo.into(),
                p.hi.into(),
                k.into(),
                n.into(),
            ]);
        }
        Tables {
            results: t,
            summary: None,
        }
    }

    fn claim(setting: &str, check: Check, tolerance: f64) -> Claim {
        Claim {
            id: "c".into(),
            document: "002".into(),
            quote: "q".into(),
            documented: 0.01,
            documented_high: None,
            unit: "fraction".into(),
            select: vec![("setting".into(), vec![Value::from(setting)])],
            metric: "fpr".into(),
            theory_metric: None,
            tolerance,
            check,
            baseline: None,
            note: None,
            source: Source::Results,
            basis: Basis::Measured,
        }
    }

    #[test]
    fn each_verdict_is_reached_from_rows() {
        let t = table(&[
            ("precise", 1_000_000, 100_000_000), // 1.000% ± 0.0033 points (99.9%)
            ("near", 1_020_000, 100_000_000),    // 1.020%: outside ±1%, inside ±3%
            ("far", 200_000, 10_000_000),        // 2%
            ("noisy", 10, 1_000),                // 1% ± 80%
        ]);
        let v = |s: &str| evaluate(&claim(s, Check::Value, 0.01), "x", &t).verdict;
        assert_eq!(v("precise"), Verdict::Holds);
        assert_eq!(v("near"), Verdict::Approximately);
        assert_eq!(v("far"), Verdict::DoesNotHold);
        assert_eq!(v("noisy"), Verdict::Inconclusive);
        // the verdict interval is Wilson at 99.9% from the counts
        let r = evaluate(&claim("noisy", Check::Value, 0.01), "x", &t);
        let p = stats::Proportion::at(10, 1_000, VERDICT_CONFIDENCE);
        assert_eq!(r.interval, Some((p.lo, p.hi)));
        // a selector that matches nothing is not measured, and says why
        let none = evaluate(&claim("absent", Check::Value, 0.01), "x", &t);
        assert_eq!(none.verdict, Verdict::NotMeasured);
        assert!(none.note.contains("matched 0 rows"), "{}", none.note);
    }

    #[test]
    fn pooled_every_and_equal_across_on_rows() {
        let t = table(&[
            ("a", 50_000, 5_000_000),
            ("b", 50_300, 5_000_000),
            ("c", 10, 1_000),
        ]);
        // pooling a and b: 1.003% ± 0.05% at 99.9%: holds at ±5%
        let mut c = claim("a", Check::Pooled, 0.05);
        c.select = vec![("setting".into(), vec![Value::from("a"), Value::from("b")])];
        assert_eq!(evaluate(&c, "x", &t).verdict, Verdict::Holds);
        // every row: the noisy one makes the universal claim inconclusive
        c.check = Check::Every;
        c.select[0].1.push(Value::from("c"));
        let r = evaluate(&c, "x", &t);
        assert_eq!(r.verdict, Verdict::Inconclusive);
        assert_eq!(r.measured, Some(0.01));
        // equal across a and b: the ratio 1.006 with its interval, within 1 ± 5%
        let mut e = claim("a", Check::EqualAcross, 0.05);
        e.documented = 1.0;
        e.select = vec![("setting".into(), vec![Value::from("a"), Value::from("b")])];
        let r = evaluate(&e, "x", &t);
        assert_eq!(r.verdict, Verdict::Holds);
        let (lo, hi) = r.interval.unwrap();
        assert!(
            lo < 1.006 && 1.006 < hi && lo > 0.98 && hi < 1.04,
            "{lo} {hi}"
        );
    }
}
