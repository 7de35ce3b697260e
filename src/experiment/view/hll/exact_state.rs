//! `exact_state`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hll::exact_state::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::sig;
use crate::report::Section;

const VIEW: &str = include_str!("exact_state.toml");

/// The view registered for [`ExactState`] (see [`crate::experiment::view::VIEWS`]).
pub struct ExactStateView;

impl View for ExactStateView {
    fn kind(&self) -> &'static str {
        ExactState::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<ExactState>(&t.results);
        let last = rows.last();
        let v = |f: fn(&R) -> Option<f64>| {
            last.and_then(|(_, r)| f(r))
                .map(|x| sig(x, 3))
                .unwrap_or_else(|| "—".into())
        };
        let changed: u64 = rows
            .iter()
            .map(|(_, r)| r.registers_changed_by_duplicates)
            .sum();
        Section {
            table,
            reading: format!(
                "The exact state grows with the universe: at 2^{} values the bitmap is {} bytes and the hash set of the {} distinct values seen {} bytes, while the HyperLogLog stays {} bytes ({} relative error). This is the Ω(n) theorem's upper side made concrete, not a proof of its lower side (which is the set-disjointness reduction). Feeding every stream a second time changed {changed} registers: duplicates are free.",
                last.map(|(p, _)| p.universe_bits.to_string())
                    .unwrap_or_default(),
                v(|r| Some(r.bitmap_bytes as f64)),
                v(|r| Some(r.exact_distinct as f64)),
                v(|r| r.hashset_bytes.map(|b| b as f64)),
                v(|r| Some(r.hll_bytes as f64)),
                last.map(|(_, r)| format!("{:+.2}%", 100.0 * r.hll_rel_err))
                    .unwrap_or_else(|| "—".into()),
            ),
        }
    }
}
