//! `bloom_overfill`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::bloom::bloom_overfill::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::present::{Present, common};
use crate::plot::Chart;
use crate::plot::figures::{LoadRatio, load_ratio};

impl Present for BloomOverfill {
    const VIEW: &'static str = include_str!("bloom_overfill.toml");

    const RECONSTRUCTS: Option<&'static str> =
        Some("The overfill: a 1M-key, 1% filter filled to 3M keys");

    const THEORY: &'static [(&'static str, &'static str)] = &[("fpr_measured", "fpr_theory")];

    fn charts(&self, t: &Tables) -> Vec<Chart> {
        // the design point (n = capacity) and the largest overfill, by field
        let rows = typed_rows::<BloomOverfill>(&t.results);
        let Some((first, _)) = rows.first() else {
            return Vec::new();
        };
        let cap = first.capacity;
        let at = |n: u64| {
            rows.iter()
                .find(|(p, _)| p.n == n)
                .map(|(p, r)| (p.n as f64, r.fpr_measured.rate))
        };
        let largest = rows.iter().map(|(p, _)| p.n).max().unwrap_or(0);
        let spec_hit_rates = common::sorted_levels(rows.iter().map(|(p, _)| p.hit_rate));
        let (Some(design), Some(over)) = (at(cap), at(largest)) else {
            return Vec::new();
        };
        load_ratio(&LoadRatio {
            design,
            over,
            spec_hit_rates: &spec_hit_rates,
        })
        .into_iter()
        .collect()
    }
}
