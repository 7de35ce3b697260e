//! `hash_quality`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hashing::hash_quality::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::table::Value;

impl Present for HashQuality {
    const VIEW: &'static str = include_str!("hash_quality.toml");

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let mut table = crate::table::Table {
            columns: vec!["hash".into(), "width".into(), "avalanche worst bias".into()],
            rows: vec![],
        };
        table
            .columns
            .extend(TESTS[1..].iter().map(|c| format!("z low16 {c}").into()));
        table.columns.push("z high16 (worst)".into());
        let mut failing = Vec::new();
        for name in common::names(t, "hash") {
            let rows: Vec<_> = t.where_str("hash", &name).collect();
            let av = rows.iter().find(|r| t.str(r, "test") == "avalanche");
            let mut row: Vec<Value> = vec![
                name.clone().into(),
                rows.first()
                    .map(|r| t.cell(r, "width").clone())
                    .unwrap_or(Value::Empty),
            ];
            row.push(av.and_then(|r| t.f64(r, "avalanche_worst_bias")).into());
            for c in &TESTS[1..] {
                row.push(
                    rows.iter()
                        .find(|r| t.str(r, "test") == *c)
                        .and_then(|r| t.f64(r, "chi2_low16_z"))
                        .into(),
                );
            }
            row.push(
                rows.iter()
                    .filter_map(|r| t.f64(r, "chi2_high16_z"))
                    .max_by(|a, b| a.abs().total_cmp(&b.abs()))
                    .into(),
            );
            table.rows.push(row);
            let fails: Vec<String> = rows
                .iter()
                .filter(|r| t.str(r, "verdict") == "fail")
                .map(|r| t.str(r, "test"))
                .collect();
            if !fails.is_empty() {
                failing.push(format!("{name} ({})", fails.join(", ")));
            }
        }
        let floor = t
            .rows
            .iter()
            .find_map(|r| t.f64(r, "avalanche_noise_floor"))
            .map(|f| pct(f, 2))
            .unwrap_or_default();
        Section {
            table,
            reading: format!(
                "Checks beyond what a perfect random function shows (avalanche worst bias above the {floor} that 99.9% of perfect functions stay under, |z| > 4, or excess full-width collisions): {}. A negative z means buckets more even than chance: structure, not randomness.",
                if failing.is_empty() {
                    "none".to_string()
                } else {
                    failing.join("; ")
                }
            ) + &format!(" ({} checks)", sig(t.rows.len() as f64, 3)),
        }
    }
}
