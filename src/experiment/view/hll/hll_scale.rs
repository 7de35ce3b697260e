//! `hll_scale`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hll::hll_scale::*;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("hll_scale.toml");

/// The view registered for [`HllScale`] (see [`crate::experiment::view::VIEWS`]).
pub struct HllScaleView;

impl View for HllScaleView {
    fn kind(&self) -> &'static str {
        HllScale::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = summary_rows::<HllScale, Rs>(t.summary());
        let beyond: Option<f64> = rows
            .iter()
            .filter(|(_, r)| {
                matches!((r.err_ertl.value, r.se_theory.value), (Some(b), Some(se)) if b.abs() > se)
            })
            .filter_map(|(_, r)| r.n.value)
            .reduce(f64::min);
        let at = |n: f64, f: fn(&Rs) -> Option<f64>| {
            rows.iter()
                .find(|(_, r)| r.n.value == Some(n))
                .and_then(|(_, r)| f(r))
                .map(|v| pct(v, 2))
                .unwrap_or_else(|| "-".into())
        };
        let two64 = 2f64.powi(64);
        Section {
            table,
            reading: format!(
                "Ertl's estimate tracks the distinct hash words at every n (error vs words {} at 2^64, RSE {}), but n distinct keys give only 2^64(1 − e^(−n/2^64)) distinct 64-bit words, so the count falls short of n by {} at 10^18 and {} at 2^64 (mean error). The mean error first exceeds one standard error (1.04/√m) at n = {}.",
                at(two64, |r| r.err_ertl_vs_words.value),
                at(two64, |r| r.err_ertl.sd),
                at(1e18, |r| r.err_ertl.value),
                at(two64, |r| r.err_ertl.value),
                beyond
                    .map(|n| sig(n, 3))
                    .unwrap_or_else(|| "none in range".into())
            ),
        }
    }
}
