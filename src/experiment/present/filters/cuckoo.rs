//! `cuckoo`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::filters::cuckoo::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for CuckooStudy {
    const VIEW: &'static str = include_str!("cuckoo.toml");

    const THEORY: &'static [(&'static str, &'static str)] = &[("fpr_measured", "fpr_theory")];

    fn section(&self, t: &Tables) -> Section {
        let summary_load = t
            .summary
            .as_ref()
            .filter(|s| s.where_str("test", "load").next().is_some());
        let mut parts = Vec::new();
        if let Some(s) = summary_load {
            let loads: Vec<String> = s
                .rows
                .iter()
                .map(|r| {
                    format!(
                        "b = {}, f = {}: {}",
                        s.str(r, "bucket_size"),
                        s.str(r, "fingerprint_bits"),
                        pct(s.f64(r, "first_failure_load").unwrap_or(f64::NAN), 3)
                    )
                })
                .collect();
            parts.push(format!(
                "load at the first failed insert: {}",
                loads.join(", ")
            ));
        }
        let r = &t.results;
        for row in r.where_str("test", "fpr") {
            if let (Some(e), Some(ratio)) = (r.f64(row, "fpr_measured"), r.f64(row, "space_ratio"))
            {
                parts.push(format!(
                    "f = {}: FPR {}, {} bits/item = {}× a Bloom filter at that FPR",
                    r.str(row, "fingerprint_bits"),
                    pct(e, 3),
                    sig(r.f64(row, "bits_per_item").unwrap_or(f64::NAN), 3),
                    sig(ratio, 3)
                ));
            }
        }
        for row in r.where_str("test", "deletes") {
            let g = |c: &str| r.f64(row, c).unwrap_or(f64::NAN);
            parts.push(format!(
                "f = {}: of {} members deleted, {} deletes found no fingerprint, {} of the kept members vanished, and {} of the deleted are still reported present (the FPR at the load left: {})",
                r.str(row, "fingerprint_bits"),
                sig(g("deleted"), 3),
                sig(g("delete_failures"), 3),
                r.str(row, "lost_members_k"),
                pct(g("deleted_still_present"), 3),
                pct(g("deleted_still_present_theory"), 3)
            ));
        }
        if let Some(row) = r.rows.first() {
            parts.push(format!(
                "by the formulas cuckoo (b = {}) is smaller than Bloom below ε = {} (semi-sorted buckets: {}); a query reads 2 buckets spanning {} cache lines on average",
                r.str(row, "bucket_size"),
                pct(r.f64(row, "crossover_fpr").unwrap_or(f64::NAN), 3),
                pct(r.f64(row, "crossover_fpr_semisorted").unwrap_or(f64::NAN), 3),
                sig(r.f64(row, "cache_lines_per_query").unwrap_or(f64::NAN), 3)
            ));
        }
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
