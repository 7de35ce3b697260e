//! `counting_bloom`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::filters::counting_bloom::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::table::{Table, Value};

impl Present for CountingBloomStudy {
    const VIEW: &'static str = include_str!("counting_bloom.toml");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory"),
        ("any_overflow", "any_overflow_theory"),
    ];

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "test",
                "counter_bits",
                "overflow",
                "load",
                "m",
                "k",
                "bytes_over_plain",
                "fpr_measured",
                "plain_fpr_measured",
                "any_overflow",
                "any_overflow_theory",
                "overflow_events",
                "deleted",
                "lost_members",
                "deletes_refused",
                "consistent",
            ],
            |r| t.str(r, "test") != "saturation",
        );
        Section {
            table,
            reading: reading(t),
        }
    }
}

fn reading(t: &Table) -> String {
    let mut out = Vec::new();
    for r in t.where_str("test", "space") {
        out.push(format!(
            "{}-bit counters take {}× the bytes of the plain filter (FPR {} vs {})",
            t.str(r, "counter_bits"),
            sig(t.f64(r, "bytes_over_plain").unwrap_or(f64::NAN), 3),
            pct(t.f64(r, "fpr_measured").unwrap_or(f64::NAN), 3),
            pct(t.f64(r, "plain_fpr_measured").unwrap_or(f64::NAN), 3)
        ));
    }
    let sat: Vec<_> = t.where_str("test", "saturation").collect();
    if !sat.is_empty() {
        let mut loads = Vec::new();
        for load in common::levels(t, "load") {
            for bits in ["4", "8"] {
                let at: Vec<_> = sat
                    .iter()
                    .filter(|r| t.f64(r, "load") == Some(load) && t.str(r, "counter_bits") == bits)
                    .collect();
                if at.is_empty() {
                    continue;
                }
                let hit = at
                    .iter()
                    .filter(|r| t.f64(r, "any_overflow") == Some(1.0))
                    .count();
                loads.push(format!(
                    "{bits}-bit at {}× capacity: {hit} of {} filters overflowed (theory {})",
                    sig(load, 3),
                    at.len(),
                    sig(t.f64(at[0], "any_overflow_theory").unwrap_or(f64::NAN), 3)
                ));
            }
        }
        out.push(loads.join("; "));
    }
    for test in ["forced_overflow", "bogus_deletes", "plain_delete"] {
        for r in t.where_str("test", test) {
            out.push(format!(
                "{test} ({}-bit, {}, load {}, {} deletes, {} overflow events): {} of the remaining members vanished",
                t.str(r, "counter_bits"),
                t.str(r, "overflow"),
                t.str(r, "load"),
                t.str(r, "deleted"),
                t.str(r, "overflow_events"),
                pct(t.f64(r, "lost_members").unwrap_or(f64::NAN), 3)
            ));
        }
    }
    if let Some(r) = t.where_str("test", "essay_logout").next() {
        out.push(format!(
            "the essay's layout (m = 16, k = 3, bit 9 shared; positions chosen, the picture is lost) {}: {}",
            t.str(r, "documented_before"),
            t.str(r, "documented_after")
        ));
    }
    if let Some(r) = t.where_str("test", "chapter_example").next() {
        let (before, after): (u32, u32) = (
            BEFORE.iter().map(|&c| c as u32).sum(),
            AFTER.iter().map(|&c| c as u32).sum(),
        );
        out.push(format!(
            "the chapter's picture {} → {} is {}: deleting one key removes its k probes from the counters' sum ({before} → {after}, so k = {}), and every insert adds k, so the sum before must be a multiple of k",
            t.str(r, "documented_before"),
            t.str(r, "documented_after"),
            if t.cell(r, "consistent") == &Value::Bool(true) { "consistent" } else { "inconsistent" },
            before.saturating_sub(after)
        ));
    }
    format!("{}.", out.join(". "))
}
