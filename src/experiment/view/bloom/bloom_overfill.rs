//! `bloom_overfill`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::bloom::bloom_overfill::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::{View, common};
use crate::plot::Chart;
use crate::plot::figures::{LoadRatio, load_ratio};

const VIEW: &str = include_str!("bloom_overfill.toml");

/// The view registered for [`BloomOverfill`] (see [`crate::experiment::view::VIEWS`]).
pub struct BloomOverfillView;

impl View for BloomOverfillView {
    fn kind(&self) -> &'static str {
        BloomOverfill::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
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
