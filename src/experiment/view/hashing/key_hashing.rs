//! `key_hashing`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hashing::key_hashing::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::report::Section;

const VIEW: &str = include_str!("key_hashing.toml");

/// The view registered for [`KeyHashing`] (see [`crate::experiment::view::VIEWS`]).
pub struct KeyHashingView;

impl View for KeyHashingView {
    fn kind(&self) -> &'static str {
        KeyHashing::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<KeyHashing>(&t.results);
        let broken: Vec<String> = rows
            .iter()
            .filter(|(_, r)| r.verdict != "ok")
            .map(|(p, r)| format!("{} on {}: {}", p.hash.name(), p.keys.name(), r.verdict))
            .collect();
        let reading = if broken.is_empty() {
            format!(
                "Every hash behaves like a random function on every key set here ({} rows): collisions within the birthday expectation, |z| ≤ 4 in every bucket test, probes within 3× the control's.",
                rows.len()
            )
        } else {
            format!(
                "Where the keys and the hash stop looking random ({} of {} rows): {}. \"too even\" is z < −4: the hash maps these keys more evenly than chance (a structured map, e.g. sequential ids through a multiply or a CRC), harmless in a table but predictable by an attacker.",
                broken.len(),
                rows.len(),
                broken.join("; ")
            )
        };
        Section { table, reading }
    }
}
