//! `hash_quality`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hashing::hash_quality::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::experiment::view::common;
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::table::Value;

const VIEW: &str = include_str!("hash_quality.toml");

/// The view registered for [`HashQuality`] (see [`crate::experiment::view::VIEWS`]).
pub struct HashQualityView;

impl View for HashQualityView {
    fn kind(&self) -> &'static str {
        HashQuality::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let all = typed_rows::<HashQuality>(&t.results);
        let mut table = crate::table::Table {
            columns: vec!["hash".into(), "width".into(), "avalanche worst bias".into()],
            rows: vec![],
        };
        table.columns.extend(
            Test::NAMES[1..]
                .iter()
                .map(|c| format!("z low16 {c}").into()),
        );
        table.columns.push("z high16 (worst)".into());
        let hashes = common::first_seen(all.iter().map(|(p, _)| p.hash));
        let mut failing = Vec::new();
        for hash in hashes {
            let name = hash.name();
            let rows: Vec<&(P, R)> = all.iter().filter(|(p, _)| p.hash == hash).collect();
            let of = |test: Test| rows.iter().find(|(p, _)| p.test == test).map(|(_, r)| r);
            let mut row: Vec<Value> = vec![
                name.into(),
                rows.first()
                    .map_or(Value::Empty, |(_, r)| Value::Int(r.width.into())),
            ];
            row.push(
                of(Test::Avalanche)
                    .and_then(|r| r.avalanche_worst_bias)
                    .into(),
            );
            for &c in &Test::ALL[1..] {
                row.push(of(c).and_then(|r| r.chi2_low16_z).into());
            }
            row.push(
                rows.iter()
                    .filter_map(|(_, r)| r.chi2_high16_z)
                    .max_by(|a, b| a.abs().total_cmp(&b.abs()))
                    .into(),
            );
            table.rows.push(row);
            let fails: Vec<&str> = rows
                .iter()
                .filter(|(_, r)| r.verdict == "fail")
                .map(|(p, _)| p.test.as_str())
                .collect();
            if !fails.is_empty() {
                failing.push(format!("{name} ({})", fails.join(", ")));
            }
        }
        let floor = all
            .iter()
            .find_map(|(_, r)| r.avalanche_noise_floor)
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
            ) + &format!(" ({} checks)", sig(all.len() as f64, 3)),
        }
    }
}
