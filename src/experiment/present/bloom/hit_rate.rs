//! `hit_rate`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::bloom::hit_rate::*;
use crate::experiment::present::Present;

impl Present for HitRate {
    const VIEW: &'static str = include_str!("hit_rate.toml");

    const RECONSTRUCTS: Option<&'static str> =
        Some("The hit-rate economics: store lookups per 10,000 requests behind a 1% filter");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("store_lookups_per", "store_lookups_per_filter_theory"),
        ("wrong_given_yes", "wrong_given_yes_theory"),
    ];
}
