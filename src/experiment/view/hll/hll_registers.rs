//! `hll_registers`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hll::hll_registers::*;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("hll_registers.toml");

/// The view registered for [`HllRegisters`] (see [`crate::experiment::view::VIEWS`]).
pub struct HllRegistersView;

impl View for HllRegistersView {
    fn kind(&self) -> &'static str {
        HllRegisters::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = summary_rows::<HllRegisters, Rs>(t.summary());
        // four times the memory (p + 2) against half the error, measured
        let halving: Vec<String> = rows
            .iter()
            .filter_map(|(p, r)| {
                let (_, next) = rows.iter().find(|(q, _)| q.p == p.p + 2)?;
                Some(format!(
                    "p {} → {}: {}",
                    p.p,
                    p.p + 2,
                    sig(next.err_ertl.sd? / r.err_ertl.sd?, 3)
                ))
            })
            .collect();
        // a setting the summary has no figure for is left out, never shown as NaN
        let parts: Vec<String> = rows
            .iter()
            .filter_map(|(p, r)| {
                Some(format!(
                    "p = {}: Ertl RSE {} (theory {}), HIP {} (theory {}), bias {}",
                    p.p,
                    pct(r.err_ertl.sd?, 3),
                    pct(r.se_theory.value?, 3),
                    pct(r.err_hip.sd?, 3),
                    pct(r.hip_se_theory.value?, 3),
                    sig(r.err_ertl.value?, 2)
                ))
            })
            .collect();
        Section {
            table,
            reading: format!(
                "Over the sketches of each precision: {}. Measured Ertl RSE ratio for 4× the registers (theory 0.5): {}. The peer crates count a seeded share of the same sketches' keys (their sd columns; `replicates` counts sketchlab's sketches).",
                parts.join("; "),
                halving.join(", ")
            ),
        }
    }
}
