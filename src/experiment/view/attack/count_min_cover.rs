//! `count_min_cover`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::attack::count_min_cover::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::SeedRow;

const VIEW: &str = include_str!("count_min_cover.toml");

/// The view registered for [`CountMinCover`] (see [`crate::experiment::view::VIEWS`]).
pub struct CountMinCoverView;

impl View for CountMinCoverView {
    fn kind(&self) -> &'static str {
        CountMinCover::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let rows = typed_rows::<CountMinCover>(&t.results);
        let v = |tg: Target| super::last_where(&rows, |p| p.target == tg).map(|(_, r)| r);
        let (public, keyed) = (v(Target::Public), v(Target::Sip13));
        vec![SeedRow {
            structure: "Count-Min sketch".into(),
            attack: "cover keys inflating never-inserted targets".into(),
            designed: super::cell(public.map(|r| r.delta), |d| {
                format!("beyond εN with probability ≤ δ = {}", pct(d, 2))
            }),
            constant_seed: super::cell(public.map(|r| r.targets_over_eps_n.rate), |x| {
                format!(
                    "{} of targets beyond εN, at ≥ {}× εN (xxh3, seed 0)",
                    pct(x, 3),
                    sig(
                        public.map_or(f64::NAN, |r| r.target_error_over_eps_n_min),
                        3
                    )
                )
            }),
            random_seed: "—".into(),
            keyed: super::cell(keyed.map(|r| r.targets_over_eps_n.rate), |x| {
                format!(
                    "{} beyond εN (largest {}× εN)",
                    pct(x, 3),
                    sig(keyed.map_or(f64::NAN, |r| r.target_error_over_eps_n_max), 2)
                )
            }),
        }]
    }
}
