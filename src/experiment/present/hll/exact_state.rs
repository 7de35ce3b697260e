//! `exact_state`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hll::exact_state::*;
use crate::experiment::present::Present;
use crate::export::markdown::sig;
use crate::report::Section;

impl Present for ExactState {
    const VIEW: &'static str = include_str!("exact_state.toml");

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let t = &t.results;
        let last = t.rows.last();
        let v = |c: &str| {
            last.and_then(|r| t.f64(r, c))
                .map(|x| sig(x, 3))
                .unwrap_or_else(|| "—".into())
        };
        let changed: f64 = t
            .rows
            .iter()
            .filter_map(|r| t.f64(r, "registers_changed_by_duplicates"))
            .sum();
        Section {
            table,
            reading: format!(
                "The exact state grows with the universe: at 2^{} values the bitmap is {} bytes and the hash set of the {} distinct values seen {} bytes, while the HyperLogLog stays {} bytes ({} relative error). This is the Ω(n) theorem's upper side made concrete, not a proof of its lower side (which is the set-disjointness reduction). Feeding every stream a second time changed {changed} registers: duplicates are free.",
                last.map(|r| t.str(r, "universe_bits")).unwrap_or_default(),
                v("bitmap_bytes"),
                v("exact_distinct"),
                v("hashset_bytes"),
                v("hll_bytes"),
                last.and_then(|r| t.f64(r, "hll_rel_err"))
                    .map(|x| format!("{:+.2}%", 100.0 * x))
                    .unwrap_or_else(|| "—".into()),
            ),
        }
    }
}
