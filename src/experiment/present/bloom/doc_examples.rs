//! `doc_examples`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::bloom::doc_examples::*;
use crate::experiment::present::Present;
use crate::export::markdown::pct;
use crate::report::Section;
use crate::table::Value;

impl Present for DocExamples {
    const VIEW: &'static str = include_str!("doc_examples.toml");
    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory"),
        ("prob_all_set", "prob_all_set_theory"),
        ("prob_all_set", "prob_all_set_theory_double"),
    ];

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let t = &t.results;
        let mut notes = Vec::new();
        for r in &t.rows {
            let ex = t.str(r, "example");
            match ex.as_str() {
                "essay_m16_k10" => notes.push(format!(
                    "with ten hashes three inserts leave {:.2} of 16 bits set on average and all 16 in {} of filters; independent hashes would give {:.2} and {}, double hashing (h1 + i·h2 mod 16, enumerated exactly) gives {:.2} and {}: the simulation follows double hashing, whose probes repeat when the step's order mod 16 is below k",
                    t.f64(r, "bits_set_mean").unwrap_or(f64::NAN),
                    pct(t.f64(r, "prob_all_set").unwrap_or(f64::NAN), 3),
                    t.f64(r, "bits_set_theory").unwrap_or(f64::NAN),
                    pct(t.f64(r, "prob_all_set_theory").unwrap_or(f64::NAN), 3),
                    t.f64(r, "bits_set_theory_double").unwrap_or(f64::NAN),
                    pct(t.f64(r, "prob_all_set_theory_double").unwrap_or(f64::NAN), 3),
                )),
                "reference_fpr" => notes.push(format!(
                    "the chapter's own class measures {} FPR at its design point (theory {})",
                    pct(t.f64(r, "fpr_measured").unwrap_or(f64::NAN), 3),
                    pct(t.f64(r, "fpr_theory").unwrap_or(f64::NAN), 3)
                )),
                _ if t.cell(r, "consistent") == &Value::Bool(false) => notes.push(format!("{ex} is internally inconsistent")),
                _ => {}
            }
        }
        let consistent = t
            .rows
            .iter()
            .filter(|r| t.cell(r, "consistent") == &Value::Bool(true))
            .count();
        let book_fp = t
            .rows
            .iter()
            .filter(|r| t.cell(r, "book_code_false_positive") == &Value::Bool(false))
            .map(|r| t.str(r, "example"))
            .collect::<Vec<_>>();
        Section {
            table,
            reading: format!(
                "{consistent} documented pictures are consistent with the filter's invariants; the chapter's own code does not reproduce the documented false positive in {}; {}.",
                if book_fp.is_empty() {
                    "any example".to_string()
                } else {
                    book_fp.join(", ")
                },
                notes.join("; ")
            ),
        }
    }
}
