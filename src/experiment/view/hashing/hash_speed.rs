//! `hash_speed`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hashing::hash_speed::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::experiment::view::common;
use crate::export::markdown::sig;
use crate::report::Section;
use crate::table::Value;

const VIEW: &str = include_str!("hash_speed.toml");

/// The view registered for [`HashSpeed`] (see [`crate::experiment::view::VIEWS`]).
pub struct HashSpeedView;

impl View for HashSpeedView {
    fn kind(&self) -> &'static str {
        HashSpeed::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let rows = typed_rows::<HashSpeed>(&t.results);
        let sizes = common::sorted_levels(rows.iter().map(|(p, _)| p.key_bytes));
        let hashes = common::first_seen(rows.iter().map(|(p, _)| p.hash));
        let mut table = crate::table::Table {
            columns: vec!["hash".into(), "width".into()],
            rows: vec![],
        };
        table
            .columns
            .extend(sizes.iter().map(|s| format!("ns@{s}B").into()));
        for hash in hashes {
            let mine: Vec<&(P, R)> = rows.iter().filter(|(p, _)| p.hash == hash).collect();
            let mut row: Vec<Value> = vec![
                hash.name().into(),
                mine.first()
                    .map_or(Value::Empty, |(_, r)| Value::Int(r.width.into())),
            ];
            for s in &sizes {
                row.push(
                    mine.iter()
                        .find(|(p, _)| p.key_bytes == *s)
                        .map(|(_, r)| r.ns_per_hash.value)
                        .into(),
                );
            }
            table.rows.push(row);
        }
        let fastest: Vec<String> = [8, 1024]
            .into_iter()
            .filter_map(|s| {
                let (p, r) = rows
                    .iter()
                    .filter(|(p, _)| p.key_bytes == s)
                    .min_by(|a, b| a.1.ns_per_hash.value.total_cmp(&b.1.ns_per_hash.value))?;
                Some(format!(
                    "at {s} B {} ({} ns)",
                    p.hash.name(),
                    sig(r.ns_per_hash.value, 3)
                ))
            })
            .collect();
        Section {
            table,
            reading: format!(
                "Fastest {}. Timings are medians on a shared 2-core machine: compare ratios, not absolute values.",
                fastest.join("; ")
            ),
        }
    }
}
