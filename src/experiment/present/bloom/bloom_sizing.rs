//! `bloom_sizing`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::bloom::bloom_sizing::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::sig;
use crate::report::Section;
use crate::structures::bloom::theory;

impl Present for BloomSizing {
    const VIEW: &'static str = include_str!("bloom_sizing.toml");

    const RECONSTRUCTS: Option<&'static str> =
        Some("Sizing for a million keys: bits, bytes, k and the FPR measured, p = 10% … 0.001%");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory"),
        ("fill_measured", "fill_theory"),
        ("lookups_per_negative_query", "lookups_per_negative_theory"),
    ];

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
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
