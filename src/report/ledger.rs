//! The claims ledger: each documented number next to theory and measurement,
//! with a verdict computed by one fixed rule (see [`verdict`]).

use crate::experiment::Value;
use crate::experiment::spec::{Check, Claim};
use crate::experiment::table::{Cell, Table};
use crate::export::markdown::sig;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    Approximately,
    DoesNotHold,
    NotMeasured,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Approximately => "approximately",
            Verdict::DoesNotHold => "does-not-hold",
            Verdict::NotMeasured => "not-measured",
        }
    }
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
    pub study: String,
    pub interval: Option<(f64, f64)>,
    pub note: String,
}

/// The smallest relative band that still counts as `approximately`.
pub const APPROX_FLOOR: f64 = 0.10;

/// The verdict rule. `documented` is a point or a range `[lo, hi]`;
/// `measured` a point with an optional 95% interval. The gap is the distance
/// between the two intervals (0 if they overlap), scaled by the documented
/// magnitude (absolute when the documented value is 0).
/// * holds: gap ≤ tolerance
/// * approximately: gap ≤ max(2·tolerance, 10%)
/// * does-not-hold: otherwise.
pub fn verdict(
    documented: (f64, f64),
    measured: f64,
    interval: Option<(f64, f64)>,
    tolerance: f64,
) -> Verdict {
    if !measured.is_finite() {
        return Verdict::NotMeasured;
    }
    let (m_lo, m_hi) = interval.unwrap_or((measured, measured));
    let (m_lo, m_hi) = (m_lo.min(measured), m_hi.max(measured));
    let gap = if m_hi < documented.0 {
        documented.0 - m_hi
    } else if m_lo > documented.1 {
        m_lo - documented.1
    } else {
        0.0
    };
    let scale = documented.0.abs().max(documented.1.abs());
    let rel = if scale == 0.0 { gap } else { gap / scale };
    if rel <= tolerance {
        Verdict::Holds
    } else if rel <= (2.0 * tolerance).max(APPROX_FLOOR) {
        Verdict::Approximately
    } else {
        Verdict::DoesNotHold
    }
}

fn rows<'a>(t: &'a Table, by: &'a [(String, Value)]) -> Vec<&'a Vec<Cell>> {
    t.select(by).collect()
}

/// Evaluates one claim against its study's table.
pub fn evaluate(claim: &Claim, study: &str, t: &Table) -> LedgerRow {
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
        study: study.to_string(),
        interval: None,
        note: claim.note.clone().unwrap_or_default(),
    };
    let documented = (
        claim.documented,
        claim.documented_high.unwrap_or(claim.documented),
    );
    let selected = rows(t, &claim.select);
    let metric = |r: &Vec<Cell>| t.f64(r, &claim.metric);
    let theory = |r: &Vec<Cell>| claim.theory_metric.as_ref().and_then(|m| t.f64(r, m));
    let ci = |r: &Vec<Cell>| {
        Some((
            t.f64(r, &format!("{}_lo", claim.metric))?,
            t.f64(r, &format!("{}_hi", claim.metric))?,
        ))
    };
    let missing = |row: &mut LedgerRow, why: String| {
        row.note = if row.note.is_empty() {
            why
        } else {
            format!("{} ({why})", row.note)
        };
    };

    match claim.check {
        Check::Value => {
            if selected.len() != 1 {
                missing(
                    &mut row,
                    format!("selector matched {} rows, expected 1", selected.len()),
                );
                return row;
            }
            let r = selected[0];
            if let Some(base) = &claim.baseline {
                let b = rows(t, base);
                if b.len() != 1 {
                    missing(
                        &mut row,
                        format!("baseline matched {} rows, expected 1", b.len()),
                    );
                    return row;
                }
                row.measured = metric(r).zip(metric(b[0])).map(|(x, y)| x / y);
                row.theory = theory(r).zip(theory(b[0])).map(|(x, y)| x / y);
            } else {
                row.measured = metric(r);
                row.theory = theory(r);
                row.interval = ci(r);
            }
            row.verdict = row.measured.map_or(Verdict::NotMeasured, |m| {
                verdict(documented, m, row.interval, claim.tolerance)
            });
        }
        Check::EqualAcross => {
            if selected.len() < 2 {
                missing(
                    &mut row,
                    format!(
                        "selector matched {} rows, expected 2 or more",
                        selected.len()
                    ),
                );
                return row;
            }
            let vals: Vec<f64> = selected.iter().filter_map(|r| metric(r)).collect();
            let ratio = |v: &[f64]| {
                let (lo, hi) = v
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                        (a.min(x), b.max(x))
                    });
                hi / lo
            };
            row.measured = Some(ratio(&vals));
            let th: Vec<f64> = selected.iter().filter_map(|r| theory(r)).collect();
            row.theory = (!th.is_empty()).then(|| ratio(&th));
            let cis: Vec<(f64, f64)> = selected.iter().filter_map(|r| ci(r)).collect();
            let overlap = cis.len() == selected.len() && {
                let lo = cis.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
                let hi = cis.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
                lo <= hi
            };
            row.verdict = if overlap {
                Verdict::Holds
            } else {
                verdict(documented, ratio(&vals), None, claim.tolerance)
            };
        }
        Check::Max => {
            let vals: Vec<f64> = selected.iter().filter_map(|r| metric(r)).collect();
            if vals.is_empty() {
                missing(&mut row, "selector matched no rows with a value".into());
                return row;
            }
            let max = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            row.measured = Some(max);
            let th: Vec<f64> = selected.iter().filter_map(|r| theory(r)).collect();
            row.theory = th.into_iter().reduce(f64::max);
            row.verdict = verdict(documented, max, None, claim.tolerance);
        }
    }
    row
}

/// claims.csv, with exactly the columns
/// `claim_id,document,quote,documented,theory,measured,unit,verdict`.
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
        ])?;
    }
    Ok(w.into_inner()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_rule() {
        // inside the tolerance
        assert_eq!(verdict((1.2, 1.2), 1.198, None, 0.042), Verdict::Holds);
        // documented inside the measured interval
        assert_eq!(
            verdict((298.0, 298.0), 301.0, Some((295.0, 305.0)), 0.0),
            Verdict::Holds
        );
        // a few percent off with a tight tolerance
        assert_eq!(
            verdict((0.5, 0.5), 0.518, None, 0.01),
            Verdict::Approximately
        );
        // a factor of 100 off
        assert_eq!(
            verdict((1.2, 1.2), 119.8, None, 0.042),
            Verdict::DoesNotHold
        );
        // ranges
        assert_eq!(verdict((40.0, 100.0), 70.0, None, 0.0), Verdict::Holds);
        assert_eq!(
            verdict((40.0, 100.0), 150.0, None, 0.0),
            Verdict::DoesNotHold
        );
        // zero documented: absolute
        assert_eq!(verdict((0.0, 0.0), 0.0, None, 0.0), Verdict::Holds);
        assert_eq!(verdict((0.0, 0.0), 3.0, None, 0.0), Verdict::DoesNotHold);
        assert_eq!(
            verdict((1.0, 1.0), f64::NAN, None, 0.1),
            Verdict::NotMeasured
        );
    }
}
