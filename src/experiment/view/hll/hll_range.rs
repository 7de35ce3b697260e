//! `hll_range`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hll::hll_range::*;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("hll_range.toml");

/// The view registered for [`HllRange`] (see [`crate::experiment::view::VIEWS`]).
pub struct HllRangeView;

impl View for HllRangeView {
    fn kind(&self) -> &'static str {
        HllRange::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let rows = summary_rows::<HllRange, Rs>(s);
        let is_decade = |r: &Rs| {
            let n = r.n.value.unwrap_or(0.0);
            n >= 1000.0 && (n.log10().fract() < 1e-9)
        };
        let mut cols: Vec<String> = vec!["n".into(), "replicates".into(), "se_theory".into()];
        for e in ESTIMATORS {
            cols.push(format!("err_{e}_sd"));
        }
        let names: Vec<&str> = cols.iter().map(String::as_str).collect();
        let table = s.project(&names, |r| {
            is_decade(&<Rs as crate::experiment::row::SummaryRow>::read(s, r))
        });
        let mut parts = Vec::new();
        for (_, r) in rows.iter().filter(|(_, r)| is_decade(r)) {
            let list: Vec<String> = ESTIMATORS
                .iter()
                .zip(errors(r))
                .filter_map(|(e, err)| Some(format!("{e} {}", pct(err.sd?, 2))))
                .collect();
            parts.push(format!(
                "n = {}: {}",
                sig(r.n.value.unwrap_or(0.0), 2),
                list.join(", ")
            ));
        }
        let nonsense = rows
            .iter()
            .filter(|(_, r)| r.err_raw.quantiles.is_some_and(|q| q[2].abs() > NONSENSE))
            .filter_map(|(_, r)| r.n.value)
            .fold(None, |a: Option<f64>, n| Some(a.map_or(n, |a| a.max(n))))
            .map(|n| format!("the raw estimator's median error exceeds {} up to n = {} and stays within it above", pct(NONSENSE, 0), sig(n, 3)))
            .unwrap_or_else(|| "the raw estimator's median error never exceeds the nonsense bound".into());
        // the largest |mean error| of each fixed estimator, in standard errors 1.04/√m
        let fixed = crate::vocab::HllEstimator::NAMES.len();
        let worst: Vec<String> = ESTIMATORS[1..fixed]
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let (z, n) = rows
                    .iter()
                    .filter_map(|(_, r)| {
                        let b = errors(r)[i + 1].value?;
                        Some((b.abs() / r.se_theory.value?, r.n.value?))
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

/// Each estimator's error, in [`ESTIMATORS`]' order.
fn errors(r: &Rs) -> [&crate::experiment::row::Summarized; 9] {
    [
        &r.err_raw,
        &r.err_linear_counting,
        &r.err_hllpp,
        &r.err_ertl,
        &r.err_hip,
        &r.err_datasketches,
        &r.err_datasketches_composite,
        &r.err_hyperloglogplus,
        &r.err_cardinality_estimator,
    ]
}

/// "Nonsense": a median relative error beyond 10% (more than 12 standard errors at p = 14).
pub const NONSENSE: f64 = 0.1;
