//! `doc_examples`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::bloom::doc_examples::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::pct;
use crate::report::Section;

const VIEW: &str = include_str!("doc_examples.toml");

/// The view registered for [`DocExamples`] (see [`crate::experiment::view::VIEWS`]).
pub struct DocExamplesView;

impl View for DocExamplesView {
    fn kind(&self) -> &'static str {
        DocExamples::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<DocExamples>(&t.results);
        let opt = |x: Option<f64>| x.unwrap_or(f64::NAN);
        let mut notes = Vec::new();
        for (p, r) in &rows {
            match p.example.as_str() {
                "essay_m16_k10" => notes.push(format!(
                    "with ten hashes three inserts leave {:.2} of 16 bits set on average and all 16 in {} of filters; independent hashes would give {:.2} and {}, double hashing (h1 + i·h2 mod 16, enumerated exactly) gives {:.2} and {}: the simulation follows double hashing, whose probes repeat when the step's order mod 16 is below k",
                    r.bits_set_mean,
                    pct(opt(r.prob_all_set.map(|q| q.rate)), 3),
                    r.bits_set_theory,
                    pct(opt(r.prob_all_set_theory), 3),
                    opt(r.bits_set_theory_double),
                    pct(opt(r.prob_all_set_theory_double), 3),
                )),
                "reference_fpr" => notes.push(format!(
                    "the chapter's own class measures {} FPR at its design point (theory {})",
                    pct(r.fpr_measured.rate, 3),
                    pct(r.fpr_theory, 3)
                )),
                ex if r.consistent == Some(false) => {
                    notes.push(format!("{ex} is internally inconsistent"))
                }
                _ => {}
            }
        }
        let consistent = rows
            .iter()
            .filter(|(_, r)| r.consistent == Some(true))
            .count();
        let book_fp = rows
            .iter()
            .filter(|(_, r)| r.book_code_false_positive == Some(false))
            .map(|(p, _)| p.example.as_str())
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
