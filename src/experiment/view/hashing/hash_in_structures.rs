//! `hash_in_structures`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hashing::hash_in_structures::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::experiment::view::common::{self};
use crate::export::markdown::pct;
use crate::report::Section;
use crate::table::Value;
use crate::workload::keysets::Keyset;

const VIEW: &str = include_str!("hash_in_structures.toml");

/// The view registered for [`HashInStructures`] (see [`crate::experiment::view::VIEWS`]).
pub struct HashInStructuresView;

impl View for HashInStructuresView {
    fn kind(&self) -> &'static str {
        HashInStructures::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let rows = typed_rows::<HashInStructures>(&t.results);
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
        for hash in common::first_seen(rows.iter().map(|(p, _)| p.hash)) {
            let name = hash.name();
            let mine: Vec<&(P, R)> = rows.iter().filter(|(p, _)| p.hash == hash).collect();
            let mut row: Vec<Value> = vec![
                name.into(),
                mine.first()
                    .map_or(Value::Empty, |(_, r)| Value::Int(r.width.into())),
            ];
            let metrics: [fn(&R) -> f64; 2] = [|r| r.fpr_measured.rate, |r| r.hll_rel_error];
            for metric in metrics {
                for &s in Keyset::ALL {
                    row.push(
                        mine.iter()
                            .find(|(p, _)| p.keyset == s)
                            .map(|(_, r)| metric(r))
                            .into(),
                    );
                }
            }
            table.rows.push(row);
            for (p, r) in &mine {
                if r.fpr_z_with_width.abs() > 4.5 || r.hll_z.abs() > 4.5 {
                    broken.push(format!(
                        "{name} on {} (FPR {}, HLL error {})",
                        p.keyset,
                        pct(r.fpr_measured.rate, 3),
                        pct(r.hll_rel_error, 3)
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
