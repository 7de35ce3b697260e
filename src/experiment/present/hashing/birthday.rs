//! `birthday`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::hashing::birthday::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::present::{Present, common};
use crate::export::markdown::sig;
use crate::report::Section;
use crate::structures::birthday as bd;

impl Present for Birthday {
    const VIEW: &'static str = include_str!("birthday.toml");
    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("first_collision_median", "median_theory"),
        ("first_collision_mean", "mean_theory"),
        ("p_at_0_25", "p_at_0_25_theory"),
        ("p_at_1", "p_at_1_theory"),
        ("p_at_1_177", "p_at_1_177_theory"),
        ("p_at_2", "p_at_2_theory"),
    ];

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
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
