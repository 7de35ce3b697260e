//! `hll_range`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hll::hll_range::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::table::{Table, Value};

impl Present for HllRange {
    const VIEW: &'static str = include_str!("hll_range.toml");

    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let decades: Vec<&Vec<Value>> = s
            .rows
            .iter()
            .filter(|r| {
                let n = s.f64(r, "n").unwrap_or(0.0);
                n >= 1000.0 && (n.log10().fract() < 1e-9)
            })
            .collect();
        let mut cols: Vec<String> = vec!["n".into(), "replicates".into(), "se_theory".into()];
        for e in ESTIMATORS {
            cols.push(format!("err_{e}_sd"));
        }
        let names: Vec<&str> = cols.iter().map(String::as_str).collect();
        let table = s.project(&names, |r| decades.iter().any(|d| d.as_slice() == r));
        let mut parts = Vec::new();
        for r in &decades {
            let list: Vec<String> = ESTIMATORS
                .iter()
                .filter_map(|e| {
                    let sd = s.f64(r, &format!("err_{e}_sd"))?;
                    Some(format!("{e} {}", pct(sd, 2)))
                })
                .collect();
            parts.push(format!(
                "n = {}: {}",
                sig(s.f64(r, "n").unwrap_or(0.0), 2),
                list.join(", ")
            ));
        }
        let nonsense = nonsense_until(s, "err_raw", NONSENSE)
            .map(|n| format!("the raw estimator's median error exceeds {} up to n = {} and stays within it above", pct(NONSENSE, 0), sig(n, 3)))
            .unwrap_or_else(|| "the raw estimator's median error never exceeds the nonsense bound".into());
        // the largest |mean error| of each fixed estimator, in standard errors 1.04/√m
        let worst: Vec<String> = crate::vocab::HllEstimator::NAMES[1..]
            .iter()
            .filter_map(|e| {
                let (z, n) = s
                    .rows
                    .iter()
                    .filter_map(|r| {
                        let b = s.f64(r, &format!("err_{e}"))?;
                        Some((b.abs() / s.f64(r, "se_theory")?, s.f64(r, "n")?))
                    })
                    .fold((0.0f64, 0.0f64), |a, b| if b.0 > a.0 { b } else { a });
                (z > 0.0).then(|| format!("{e} {} (n = {})", sig(z, 2), sig(n, 3)))
            })
            .collect();
        Section {
            table,
            reading: format!(
                "RSE (sd of the relative error over sketches) per estimator: {}. At small n {nonsense}. The largest |mean error| at any n, in standard errors 1.04/√m: {}.",
                parts.join("; "),
                worst.join(", ")
            ),
        }
    }
}

/// "Nonsense": a median relative error beyond 10% (more than 12 standard errors at p = 14).
pub const NONSENSE: f64 = 0.1;

/// The largest checkpoint n at which `col`'s median |relative error| exceeds `bound`.
pub fn nonsense_until(s: &Table, col: &str, bound: f64) -> Option<f64> {
    s.rows
        .iter()
        .filter(|r| {
            s.f64(r, &format!("{col}_q50"))
                .is_some_and(|q| q.abs() > bound)
        })
        .filter_map(|r| s.f64(r, "n"))
        .fold(None, |a: Option<f64>, n| Some(a.map_or(n, |a| a.max(n))))
}
