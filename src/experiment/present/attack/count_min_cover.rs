//! `count_min_cover`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::attack::count_min_cover::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::SeedRow;

impl Present for CountMinCover {
    const VIEW: &'static str = include_str!("count_min_cover.toml");

    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let t = &t.results;
        let v = |tg: &str, m: &str| super::value(t, &[("target", tg)], m);
        vec![SeedRow {
            structure: "Count-Min sketch".into(),
            attack: "cover keys inflating never-inserted targets".into(),
            designed: super::cell(v("public", "delta"), |d| {
                format!("beyond εN with probability ≤ δ = {}", pct(d, 2))
            }),
            constant_seed: super::cell(v("public", "targets_over_eps_n"), |x| {
                format!(
                    "{} of targets beyond εN, at ≥ {}× εN (xxh3, seed 0)",
                    pct(x, 3),
                    sig(
                        v("public", "target_error_over_eps_n_min").unwrap_or(f64::NAN),
                        3
                    )
                )
            }),
            random_seed: "—".into(),
            keyed: super::cell(v("sip13", "targets_over_eps_n"), |x| {
                format!(
                    "{} beyond εN (largest {}× εN)",
                    pct(x, 3),
                    sig(
                        v("sip13", "target_error_over_eps_n_max").unwrap_or(f64::NAN),
                        2
                    )
                )
            }),
        }]
    }
}
