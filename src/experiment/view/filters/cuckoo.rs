//! `cuckoo`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::filters::cuckoo::*;
use crate::experiment::kinds::{Tables, summary_rows, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("cuckoo.toml");

/// The view registered for [`CuckooStudy`] (see [`crate::experiment::view::VIEWS`]).
pub struct CuckooView;

impl View for CuckooView {
    fn kind(&self) -> &'static str {
        CuckooStudy::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let load = t
            .summary
            .as_ref()
            .map(|s| (s, summary_rows::<CuckooStudy, Rs>(s)));
        let load = load.filter(|(_, rows)| rows.iter().any(|(p, _)| p.test == Test::Load));
        let summary_load = load.as_ref().map(|(s, _)| *s);
        let mut parts = Vec::new();
        if let Some((_, rows)) = &load {
            // a setting with no failed insert has no load to show
            let loads: Vec<String> = rows
                .iter()
                .filter_map(|(p, r)| {
                    Some(format!(
                        "b = {}, f = {}: {}",
                        p.bucket_size,
                        p.fingerprint_bits,
                        pct(r.first_failure_load.value?, 3)
                    ))
                })
                .collect();
            parts.push(format!(
                "load at the first failed insert: {}",
                loads.join(", ")
            ));
        }
        let rows = typed_rows::<CuckooStudy>(&t.results);
        for (p, r) in rows.iter().filter(|(p, _)| p.test == Test::Fpr) {
            if let (Some(e), Some(ratio)) = (r.fpr_measured, r.space_ratio) {
                parts.push(format!(
                    "f = {}: FPR {}, {} bits/item = {}× a Bloom filter at that FPR",
                    p.fingerprint_bits,
                    pct(e.rate, 3),
                    sig(r.bits_per_item, 3),
                    sig(ratio, 3)
                ));
            }
        }
        for (p, r) in rows.iter().filter(|(p, _)| p.test == Test::Deletes) {
            let (Some(d), Some(fails), Some(lost), Some(still), Some(at)) = (
                r.deleted,
                r.delete_failures,
                r.lost_members,
                r.deleted_still_present,
                r.deleted_still_present_theory,
            ) else {
                continue;
            };
            parts.push(format!(
                "f = {}: of {} members deleted, {} deletes found no fingerprint, {} of the kept members vanished, and {} of the deleted are still reported present (the FPR at the load left: {})",
                p.fingerprint_bits,
                sig(d as f64, 3),
                sig(fails as f64, 3),
                lost.successes,
                pct(still.rate, 3),
                pct(at, 3)
            ));
        }
        if let Some((p, r)) = rows.first() {
            parts.push(format!(
                "by the formulas cuckoo (b = {}) is smaller than Bloom below ε = {} (semi-sorted buckets: {}); a query reads 2 buckets spanning {} cache lines on average",
                p.bucket_size,
                pct(r.crossover_fpr, 3),
                pct(r.crossover_fpr_semisorted, 3),
                sig(r.cache_lines_per_query.value, 3)
            ));
        }
        let r = &t.results;
        let table = match summary_load {
            Some(s) => s.project(
                &[
                    "bucket_size",
                    "fingerprint_bits",
                    "replicates",
                    "first_failure_load",
                    "first_failure_load_lo",
                    "first_failure_load_hi",
                    "kicks_per_insert",
                ],
                |_| true,
            ),
            None => r.project(
                &[
                    "test",
                    "fingerprint_bits",
                    "bogus_deletes",
                    "load_factor",
                    "fpr_bound",
                    "fpr_theory",
                    "fpr_measured",
                    "bits_per_item",
                    "bloom_bits_same_fpr",
                    "space_ratio",
                    "lost_members",
                    "delete_failures",
                    "deleted_still_present",
                    "deleted_still_present_theory",
                ],
                |_| true,
            ),
        };
        Section {
            table,
            reading: format!("{}.", parts.join("; ")),
        }
    }
}
