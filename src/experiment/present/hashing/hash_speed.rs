//! `hash_speed`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hashing::hash_speed::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::sig;
use crate::report::Section;

impl Present for HashSpeed {
    const VIEW: &'static str = include_str!("hash_speed.toml");

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let sizes = common::levels(t, "key_bytes");
        let mut table = crate::table::Table {
            columns: vec!["hash".into(), "width".into()],
            rows: vec![],
        };
        table
            .columns
            .extend(sizes.iter().map(|s| format!("ns@{s}B").into()));
        let mut fastest = Vec::new();
        for name in common::names(t, "hash") {
            let rows: Vec<_> = t.where_str("hash", &name).collect();
            let mut row = vec![
                name.clone().into(),
                rows.first()
                    .map(|r| t.cell(r, "width").clone())
                    .unwrap_or(crate::experiment::Value::Empty),
            ];
            for s in &sizes {
                row.push(
                    rows.iter()
                        .find(|r| t.f64(r, "key_bytes") == Some(*s))
                        .and_then(|r| t.f64(r, "ns_per_hash"))
                        .into(),
                );
            }
            table.rows.push(row);
        }
        for s in [8.0, 1024.0] {
            if let Some(best) = t
                .rows
                .iter()
                .filter(|r| t.f64(r, "key_bytes") == Some(s))
                .min_by(|a, b| {
                    t.f64(a, "ns_per_hash")
                        .unwrap_or(f64::MAX)
                        .total_cmp(&t.f64(b, "ns_per_hash").unwrap_or(f64::MAX))
                })
            {
                fastest.push(format!(
                    "at {s} B {} ({} ns)",
                    t.str(best, "hash"),
                    sig(t.f64(best, "ns_per_hash").unwrap_or(f64::NAN), 3)
                ));
            }
        }
        Section {
            table,
            reading: format!(
                "Fastest {}. Timings are medians on a shared 2-core machine: compare ratios, not absolute values.",
                fastest.join("; ")
            ),
        }
    }
}
