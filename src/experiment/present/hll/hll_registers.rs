//! `hll_registers`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hll::hll_registers::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for HllRegisters {
    const VIEW: &'static str = include_str!("hll_registers.toml");

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let s = t.summary();
        // four times the memory (p + 2) against half the error, measured
        let halving: Vec<String> = s
            .rows
            .iter()
            .filter_map(|r| {
                let p = s.f64(r, "p")?;
                let next = s.rows.iter().find(|q| s.f64(q, "p") == Some(p + 2.0))?;
                Some(format!(
                    "p {} → {}: {}",
                    p,
                    p + 2.0,
                    sig(s.f64(next, "err_ertl_sd")? / s.f64(r, "err_ertl_sd")?, 3)
                ))
            })
            .collect();
        let parts: Vec<String> = s
            .rows
            .iter()
            .map(|r| {
                format!(
                    "p = {}: Ertl RSE {} (theory {}), HIP {} (theory {}), bias {}",
                    s.str(r, "p"),
                    pct(s.f64(r, "err_ertl_sd").unwrap_or(f64::NAN), 3),
                    pct(s.f64(r, "se_theory").unwrap_or(f64::NAN), 3),
                    pct(s.f64(r, "err_hip_sd").unwrap_or(f64::NAN), 3),
                    pct(s.f64(r, "hip_se_theory").unwrap_or(f64::NAN), 3),
                    sig(s.f64(r, "err_ertl").unwrap_or(f64::NAN), 2)
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
