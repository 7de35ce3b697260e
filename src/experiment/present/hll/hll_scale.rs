//! `hll_scale`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hll::hll_scale::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for HllScale {
    const VIEW: &'static str = include_str!("hll_scale.toml");

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let s = t.summary();
        let beyond: Option<f64> = s
            .rows
            .iter()
            .filter(|r| {
                let (b, se) = (s.f64(r, "err_ertl"), s.f64(r, "se_theory"));
                matches!((b, se), (Some(b), Some(se)) if b.abs() > se)
            })
            .filter_map(|r| s.f64(r, "n"))
            .reduce(f64::min);
        let at = |n: f64, col: &str| {
            s.rows
                .iter()
                .find(|r| s.f64(r, "n") == Some(n))
                .and_then(|r| s.f64(r, col))
                .map(|v| pct(v, 2))
                .unwrap_or_else(|| "-".into())
        };
        let two64 = 2f64.powi(64);
        Section {
            table,
            reading: format!(
                "Ertl's estimate tracks the distinct hash words at every n (error vs words {} at 2^64, RSE {}), but n distinct keys give only 2^64(1 − e^(−n/2^64)) distinct 64-bit words, so the count falls short of n by {} at 10^18 and {} at 2^64 (mean error). The mean error first exceeds one standard error (1.04/√m) at n = {}.",
                at(two64, "err_ertl_vs_words"),
                at(two64, "err_ertl_sd"),
                at(1e18, "err_ertl"),
                at(two64, "err_ertl"),
                beyond
                    .map(|n| sig(n, 3))
                    .unwrap_or_else(|| "none in range".into())
            ),
        }
    }
}
