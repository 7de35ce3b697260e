//! `hit_rate`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::bloom::hit_rate::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for HitRate {
    const VIEW: &'static str = include_str!("hit_rate.toml");

    const RECONSTRUCTS: Option<&'static str> =
        Some("The hit-rate economics: store lookups per 10,000 requests behind a 1% filter");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("store_lookups_per", "store_lookups_per_filter_theory"),
        ("wrong_given_yes", "wrong_given_yes_theory"),
    ];

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "hit_rate",
                "hits_per",
                "false_positives_per",
                "false_positives_per_theory",
                "store_lookups_per",
                "store_lookups_per_theory",
                "fraction_removed",
            ],
            |_| true,
        );
        let reading = t
            .rows
            .iter()
            .max_by(|a, b| t.f64(a, "hit_rate").unwrap_or(0.0).total_cmp(&t.f64(b, "hit_rate").unwrap_or(0.0)))
            .map(|r| {
                format!(
                    "False positives shrink as the hit rate climbs; at h = {} the filter removes only {} of requests (theory {}), so the real hits, not the false positives, set the store load.",
                    sig(t.f64(r, "hit_rate").unwrap_or(f64::NAN), 2),
                    pct(t.f64(r, "fraction_removed").unwrap_or(f64::NAN), 3),
                    pct(t.f64(r, "fraction_removed_theory").unwrap_or(f64::NAN), 3)
                )
            })
            .unwrap_or_default();
        Section { table, reading }
    }
}
