//! `blocked_bloom`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::filters::blocked_bloom::*;
use crate::experiment::present::Present;
use crate::export::markdown::sig;
use crate::report::Section;

impl Present for BlockedBloomStudy {
    const CHARTS: &'static str = include_str!("blocked_bloom.charts.toml");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory_blocked"),
        ("standard_fpr_measured", "fpr_theory_standard"),
    ];

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "n",
                "bits_per_key",
                "k_used",
                "fpr_theory_standard",
                "standard_fpr_measured",
                "fpr_theory_blocked",
                "fpr_measured",
                "penalty_theory",
                "penalty_measured",
                "standard_cache_lines_per_query",
            ],
            |_| true,
        );
        let parts: Vec<String> = t
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} bits/key: {}× (theory {}×), standard query {} lines vs 1",
                    t.str(r, "bits_per_key"),
                    sig(t.f64(r, "penalty_measured").unwrap_or(f64::NAN), 3),
                    sig(t.f64(r, "penalty_theory").unwrap_or(f64::NAN), 3),
                    sig(
                        t.f64(r, "standard_cache_lines_per_query")
                            .unwrap_or(f64::NAN),
                        3
                    )
                )
            })
            .collect();
        Section {
            table,
            reading: format!(
                "Blocked / standard FPR at equal bits per key: {}.",
                parts.join("; ")
            ),
        }
    }
}
