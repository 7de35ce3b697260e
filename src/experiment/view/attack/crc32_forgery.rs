//! `crc32_forgery`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::attack::crc32_forgery::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::report::Section;
use crate::report::SeedRow;

const VIEW: &str = include_str!("crc32_forgery.toml");

/// The view registered for [`Crc32Forgery`] (see [`crate::experiment::view::VIEWS`]).
pub struct Crc32ForgeryView;

impl View for Crc32ForgeryView {
    fn kind(&self) -> &'static str {
        Crc32Forgery::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let rows = typed_rows::<Crc32Forgery>(&t.results);
        let r = rows.last().map(|(_, r)| r);
        vec![SeedRow {
            structure: "CRC32 content address".into(),
            attack: "second input with a file's CRC32".into(),
            designed: super::cell(r.map(|r| r.birthday_median_theory), |x| {
                format!(
                    "chance collision after ~{} inputs",
                    crate::export::markdown::sig(x, 3)
                )
            }),
            constant_seed: super::cell(r.map(|r| r.forge_evaluations as f64), |x| {
                format!("forged in {x} CRC evaluations (CRC has no seed)")
            }),
            random_seed: "—".into(),
            keyed: "—".into(),
        }]
    }

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<Crc32Forgery>(&t.results);
        let reading = match rows.last() {
            Some((_, r)) => format!(
                "The forged input ({} bytes) has the file's CRC32 {}: {}, after {} CRC evaluations and no search. By chance, random inputs first share a CRC32 after a median of {} draws (theory {}).",
                r.forged_bytes,
                r.file_crc32,
                if r.forged_matches {
                    "equal"
                } else {
                    "NOT equal"
                },
                r.forge_evaluations,
                crate::export::markdown::sig(r.birthday_inputs_median.value, 4),
                crate::export::markdown::sig(r.birthday_median_theory, 5),
            ),
            None => String::new(),
        };
        Section { table, reading }
    }
}
