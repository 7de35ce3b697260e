//! `birthday`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hashing::birthday::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::{View, common};
use crate::export::markdown::sig;
use crate::report::Section;
use crate::structures::birthday as bd;

const VIEW: &str = include_str!("birthday.toml");

/// The view registered for [`Birthday`] (see [`crate::experiment::view::VIEWS`]).
pub struct BirthdayView;

impl View for BirthdayView {
    fn kind(&self) -> &'static str {
        Birthday::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<Birthday>(&t.results);
        let meds: Vec<String> = rows
            .iter()
            .map(|(p, r)| {
                format!(
                    "{} {}",
                    p.hash.name(),
                    sig(r.first_collision_median.value, 5)
                )
            })
            .collect();
        let widths = common::sorted_levels(rows.iter().map(|(p, _)| p.bits));
        Section {
            table,
            reading: format!(
                "Median keys at the first collision: {} (theory √(2N ln 2): {}): the truncation width sets the bound, whatever the function.",
                meds.join(", "),
                widths
                    .iter()
                    .map(|&b| format!(
                        "{} for {b} bits",
                        sig(bd::median_first_collision(2f64.powf(b.into())), 5)
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}
