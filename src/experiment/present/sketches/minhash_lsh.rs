//! `minhash_lsh`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::sketches::minhash_lsh::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for MinHashLsh {
    const VIEW: &'static str = include_str!("minhash_lsh.toml");

    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let table = s.project(
            &[
                "bands",
                "rows",
                "threshold",
                "replicates",
                "documents",
                "pairs",
                "near_duplicates",
                "candidates",
                "candidates_theory",
                "precision",
                "recall",
                "recall_theory",
                "s_curve_midpoint",
            ],
            |_| true,
        );
        let parts: Vec<String> = s
            .rows
            .iter()
            .map(|r| {
                format!(
                    "b = {}, r = {}, J ≥ {}: precision {}, recall {} (theory {})",
                    s.str(r, "bands"),
                    s.str(r, "rows"),
                    s.str(r, "threshold"),
                    pct(s.f64(r, "precision").unwrap_or(f64::NAN), 1),
                    pct(s.f64(r, "recall").unwrap_or(f64::NAN), 1),
                    pct(s.f64(r, "recall_theory").unwrap_or(f64::NAN), 1)
                )
            })
            .collect();
        let docs = s
            .rows
            .first()
            .and_then(|r| s.f64(r, "documents"))
            .unwrap_or(0.0);
        Section {
            table,
            reading: format!(
                "{} paragraphs, every pair scored exactly: {}.",
                sig(docs, 4),
                parts.join("; ")
            ),
        }
    }
}
