//! `hll_registers`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::hll::hll_registers::*;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for HllRegisters {
    const VIEW: &'static str = include_str!("hll_registers.toml");

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let rows = summary_rows::<HllRegisters, Rs>(t.summary());
        let opt = |x: Option<f64>| x.unwrap_or(f64::NAN);
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
        let parts: Vec<String> = rows
            .iter()
            .map(|(p, r)| {
                format!(
                    "p = {}: Ertl RSE {} (theory {}), HIP {} (theory {}), bias {}",
                    p.p,
                    pct(opt(r.err_ertl.sd), 3),
                    pct(r.se_theory.mean(), 3),
                    pct(opt(r.err_hip.sd), 3),
                    pct(r.hip_se_theory.mean(), 3),
                    sig(r.err_ertl.mean(), 2)
                )
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
