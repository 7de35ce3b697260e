//! `counting_bloom`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::filters::counting_bloom::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::{View, common};
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::stats::Proportion;

const VIEW: &str = include_str!("counting_bloom.toml");

/// The view registered for [`CountingBloomStudy`] (see [`crate::experiment::view::VIEWS`]).
pub struct CountingBloomView;

impl View for CountingBloomView {
    fn kind(&self) -> &'static str {
        CountingBloomStudy::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        Section {
            table: crate::experiment::view::declared_table(VIEW, t),
            reading: reading(&typed_rows::<CountingBloomStudy>(&t.results)),
        }
    }
}

fn reading(rows: &[(P, R)]) -> String {
    let of = |test: Test| rows.iter().filter(move |(p, _)| p.test == test);
    let rate = |x: Option<Proportion>| x.map_or(f64::NAN, |q| q.rate);
    let mut out = Vec::new();
    for (p, r) in of(Test::Space) {
        out.push(format!(
            "{}-bit counters take {}× the bytes of the plain filter (FPR {} vs {})",
            p.counter_bits,
            sig(r.bytes_over_plain, 3),
            pct(rate(r.fpr_measured), 3),
            pct(rate(r.plain_fpr_measured), 3)
        ));
    }
    let sat: Vec<&(P, R)> = of(Test::Saturation).collect();
    if !sat.is_empty() {
        let levels = common::sorted_levels(sat.iter().map(|(p, _)| p.load));
        let mut loads = Vec::new();
        for load in levels {
            for bits in [4, 8] {
                let at: Vec<_> = sat
                    .iter()
                    .filter(|(p, _)| p.load == load && p.counter_bits == bits)
                    .collect();
                let Some((_, first)) = at.first() else {
                    continue;
                };
                let hit = at
                    .iter()
                    .filter(|(_, r)| r.any_overflow.rate == 1.0)
                    .count();
                loads.push(format!(
                    "{bits}-bit at {}× capacity: {hit} of {} filters overflowed (theory {})",
                    sig(load, 3),
                    at.len(),
                    sig(first.any_overflow_theory, 3)
                ));
            }
        }
        out.push(loads.join("; "));
    }
    for test in [Test::ForcedOverflow, Test::BogusDeletes, Test::PlainDelete] {
        for (p, r) in of(test) {
            out.push(format!(
                "{test} ({}-bit, {}, load {}, {} deletes, {} overflow events): {} of the remaining members vanished",
                p.counter_bits,
                p.overflow,
                p.load,
                r.deleted,
                r.overflow_events,
                pct(rate(r.lost_members), 3)
            ));
        }
    }
    let text = |x: &Option<String>| x.clone().unwrap_or_default();
    if let Some((_, r)) = of(Test::EssayLogout).next() {
        out.push(format!(
            "the essay's layout (m = 16, k = 3, bit 9 shared; positions chosen, the picture is lost) {}: {}",
            text(&r.documented_before),
            text(&r.documented_after)
        ));
    }
    if let Some((_, r)) = of(Test::ChapterExample).next() {
        let (before, after): (u32, u32) = (
            BEFORE.iter().map(|&c| c as u32).sum(),
            AFTER.iter().map(|&c| c as u32).sum(),
        );
        out.push(format!(
            "the chapter's picture {} → {} is {}: deleting one key removes its k probes from the counters' sum ({before} → {after}, so k = {}), and every insert adds k, so the sum before must be a multiple of k",
            text(&r.documented_before),
            text(&r.documented_after),
            if r.consistent == Some(true) { "consistent" } else { "inconsistent" },
            before.saturating_sub(after)
        ));
    }
    format!("{}.", out.join(". "))
}
