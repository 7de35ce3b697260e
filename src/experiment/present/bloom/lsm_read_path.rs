//! `lsm_read_path`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::bloom::lsm_read_path::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for LsmReadPath {
    const VIEW: &'static str = include_str!("lsm_read_path.toml");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("present_reads_with", "present_reads_with_theory"),
        ("absent_reads_with", "absent_reads_with_theory"),
        ("file_hit_rate", "file_hit_rate_theory"),
    ];

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "runs",
                "hit_rate",
                "present_reads_with",
                "present_reads_without",
                "absent_reads_with",
                "absent_reads_without",
                "reads_with",
                "reads_without",
                "reads_saved_factor",
                "file_hit_rate",
                "file_hit_rate_theory",
            ],
            |_| true,
        );
        let pick = |runs: f64, h: f64, c: &str| {
            t.rows
                .iter()
                .find(|r| t.f64(r, "runs") == Some(runs) && t.f64(r, "hit_rate") == Some(h))
                .and_then(|r| t.f64(r, c))
        };
        let fneg: f64 = t
            .rows
            .iter()
            .filter_map(|r| t.f64(r, "false_negatives"))
            .sum();
        let num = |x: Option<f64>| x.map(|v| sig(v, 3)).unwrap_or_else(|| "—".into());
        let worst_file = t
            .rows
            .iter()
            .filter_map(|r| {
                Some((
                    t.f64(r, "file_hit_rate")?,
                    t.f64(r, "runs")?,
                    t.f64(r, "hit_rate")?,
                ))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        Section {
            table,
            reading: format!(
                "Ten runs: a lookup of a key in the tree reads {} runs with a filter per run and {} without (the key sits in a random run); a lookup of an absent key reads {} with filters and {} without. So \"one disk seek and ... ten\" is the absent key's (or the oldest run's) case; a present key averages (R + 1)/2 without filters. The per-file hit rate is a fraction of a percent only when the lookups' own hit rate is low: the highest measured is {} ({} runs, lookups' hit rate {}), because a lookup stops at its key's run. False negatives: {}.",
                num(pick(10.0, 0.5, "present_reads_with")),
                num(pick(10.0, 0.5, "present_reads_without")),
                num(pick(10.0, 0.5, "absent_reads_with")),
                num(pick(10.0, 0.5, "absent_reads_without")),
                worst_file
                    .map(|w| pct(w.0, 3))
                    .unwrap_or_else(|| "—".into()),
                worst_file
                    .map(|w| sig(w.1, 3))
                    .unwrap_or_else(|| "—".into()),
                worst_file
                    .map(|w| pct(w.2, 3))
                    .unwrap_or_else(|| "—".into()),
                fneg
            ),
        }
    }
}
