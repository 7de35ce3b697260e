//! `birthday`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hashing::birthday::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
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
        let t = &t.results;
        let meds: Vec<String> = t
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    t.str(r, "hash"),
                    sig(t.f64(r, "first_collision_median").unwrap_or(f64::NAN), 5)
                )
            })
            .collect();
        Section {
            table,
            reading: format!(
                "Median keys at the first collision: {} (theory √(2N ln 2): {}): the truncation width sets the bound, whatever the function.",
                meds.join(", "),
                common::levels(t, "bits")
                    .iter()
                    .map(|&b| format!(
                        "{} for {b} bits",
                        sig(bd::median_first_collision(2f64.powf(b)), 5)
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}
