//! `bloom_sizing`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::bloom::bloom_sizing::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::experiment::view::common::{self};
use crate::export::markdown::sig;
use crate::report::Section;
use crate::structures::bloom::theory;

const VIEW: &str = include_str!("bloom_sizing.toml");

/// The view registered for [`BloomSizing`] (see [`crate::experiment::view::VIEWS`]).
pub struct BloomSizingView;

impl View for BloomSizingView {
    fn kind(&self) -> &'static str {
        BloomSizing::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let decades: Vec<f64> = typed_rows::<BloomSizing>(&t.results)
            .iter()
            .filter_map(|(_, r)| r.extra_bits_per_decade)
            .collect();
        let t = &t.results;
        let (lo, hi) = decades
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let (inside, total) = common::coverage(t, "fpr_measured", "fpr_theory");
        Section {
            table,
            reading: format!(
                "Each factor of ten in p costs {}–{} extra bits per key in the built filters (theory ln 10/(ln 2)² = {}); the theory FPR at the integer k lies inside the measured interval in {inside} of {total} rows.",
                sig(lo, 4),
                sig(hi, 4),
                sig(theory::bits_per_decade(), 4)
            ),
        }
    }
}
