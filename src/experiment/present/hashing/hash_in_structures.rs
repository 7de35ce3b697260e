//! `hash_in_structures`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hashing::hash_in_structures::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::pct;
use crate::report::Section;
use crate::table::Value;
use crate::workload::keysets::Keyset;

impl Present for HashInStructures {
    const VIEW: &'static str = include_str!("hash_in_structures.toml");

    const THEORY: &'static [(&'static str, &'static str)] =
        &[("fpr_measured", "fpr_theory_with_width")];

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let mut table = crate::table::Table {
            columns: vec!["hash".into(), "width".into()],
            rows: vec![],
        };
        for s in Keyset::NAMES {
            table.columns.push(format!("FPR {s}").into());
        }
        for s in Keyset::NAMES {
            table.columns.push(format!("HLL err {s}").into());
        }
        let mut broken = Vec::new();
        for name in common::names(t, "hash") {
            let rows: Vec<_> = t.where_str("hash", &name).collect();
            let mut row: Vec<Value> = vec![
                name.clone().into(),
                rows.first()
                    .map(|r| t.cell(r, "width").clone())
                    .unwrap_or(Value::Empty),
            ];
            for col in ["fpr_measured", "hll_rel_error"] {
                for s in Keyset::NAMES {
                    row.push(
                        rows.iter()
                            .find(|r| t.str(r, "keyset") == *s)
                            .and_then(|r| t.f64(r, col))
                            .into(),
                    );
                }
            }
            table.rows.push(row);
            for r in &rows {
                let fz = t.f64(r, "fpr_z_with_width").unwrap_or(0.0);
                let hz = t.f64(r, "hll_z").unwrap_or(0.0);
                if fz.abs() > 4.5 || hz.abs() > 4.5 {
                    broken.push(format!(
                        "{name} on {} (FPR {}, HLL error {})",
                        t.str(r, "keyset"),
                        pct(t.f64(r, "fpr_measured").unwrap_or(f64::NAN), 3),
                        pct(t.f64(r, "hll_rel_error").unwrap_or(f64::NAN), 3)
                    ));
                }
            }
        }
        Section {
            table,
            reading: format!(
                "Outside 4.5 standard errors of theory (FPR against its binomial error, with the n/2^w floor a w-bit hash adds; HLL against 1.04/√m): {}.",
                if broken.is_empty() {
                    "none".to_string()
                } else {
                    broken.join("; ")
                }
            ),
        }
    }
}
