//! `doc_examples`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::bloom::doc_examples::*;
use crate::experiment::present::Present;
use crate::export::markdown::pct;
use crate::plot::{Chart, Point, Series, Style};
use crate::report::Section;
use crate::table::Value;

impl Present for DocExamples {
    const VIEW: &'static str = include_str!("doc_examples.toml");
    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory"),
        ("prob_all_set", "prob_all_set_theory"),
        ("prob_all_set", "prob_all_set_theory_double"),
    ];

    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let t = &t.results;
        let rows: Vec<_> = t
            .rows
            .iter()
            .filter(|r| t.f64(r, "documented_bits_set").is_some())
            .collect();
        let x_label = rows
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{} = {}", i + 1, t.str(r, "example")))
            .collect::<Vec<_>>()
            .join(", ");
        let at = |col: &str| -> Vec<Point> {
            rows.iter()
                .enumerate()
                .filter_map(|(i, r)| {
                    let y = t.f64(r, col)?;
                    Some(match t.interval(r, col) {
                        Some(iv) => Point::with_interval(i as f64 + 1.0, y, iv.lo, iv.hi),
                        None => Point::new(i as f64 + 1.0, y),
                    })
                })
                .collect()
        };
        vec![
            Chart::new(
                "small_examples_bits_set",
                "Worked examples: bits set after the documented inserts",
                &x_label,
                "bits set",
            )
            .series(Series::new(
                "documented",
                Style::Points,
                at("documented_bits_set"),
            ))
            .series(Series::new(
                "simulated mean, random keys",
                Style::Points,
                at("bits_set_mean"),
            ))
            .series(Series::new(
                "theory m(1-(1-1/m)^(kn))",
                Style::Points,
                at("bits_set_theory"),
            )),
            Chart::new(
                "small_examples_fpr",
                "Worked examples: chance a fresh key is a false positive",
                &x_label,
                "probability",
            )
            .series(Series::new(
                "simulated random keys (95% Wilson)",
                Style::Points,
                at("fpr_measured"),
            ))
            .series(Series::new(
                "(bits set / m)^k for the documented picture",
                Style::Points,
                at("fp_prob_given_documented_fill"),
            )),
        ]
    }

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
