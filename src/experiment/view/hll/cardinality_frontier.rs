//! `cardinality_frontier`: what the report shows of its rows. The reading
//! gives each sketch's memory-variance product at the largest streamed n
//! (single and merged), what it means in bytes for a 1% standard error,
//! and how far it is from the lower bound.

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hll::cardinality_frontier::*;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::view::common::{first_seen, listed};
use crate::experiment::view::{View, declared_table};
use crate::export::markdown::sig;
use crate::report::Section;

const VIEW: &str = include_str!("cardinality_frontier.toml");

/// The view registered for [`CardinalityFrontier`] (see [`crate::experiment::view::VIEWS`]).
pub struct CardinalityFrontierView;

impl View for CardinalityFrontierView {
    fn kind(&self) -> &'static str {
        CardinalityFrontier::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = declared_table(VIEW, t);
        let Some(summary) = t.summary.as_ref() else {
            return Section {
                table,
                reading: String::new(),
            };
        };
        let rows = summary_rows::<CardinalityFrontier, Rs>(summary);
        let mut parts = Vec::new();
        for sketch in first_seen(rows.iter().map(|(p, _)| p.sketch)) {
            let mine: Vec<_> = rows.iter().filter(|(p, _)| p.sketch == sketch).collect();
            let streamed = mine
                .iter()
                .filter(|(_, r)| r.simulated.text != "true")
                .filter_map(|(_, r)| r.n.value)
                .fold(0.0, f64::max);
            let at: Vec<String> = mine
                .iter()
                .filter(|(_, r)| r.n.value == Some(streamed))
                .filter_map(|(_, r)| {
                    let (mvp, bound) = (r.mvp.value?, r.mvp_bound.value?);
                    let merged = if r.merged.text == "true" {
                        ", merged"
                    } else {
                        ""
                    };
                    Some(format!(
                        "{}{merged} {} ({}× the bound; {} bytes for a 1% RSE)",
                        r.estimator.text,
                        sig(mvp, 3),
                        sig(mvp / bound, 3),
                        sig(mvp / 8.0 / 1e-4, 3)
                    ))
                })
                .collect();
            if !at.is_empty() {
                parts.push(format!(
                    "{sketch} at n = {}: {}",
                    sig(streamed, 3),
                    at.join(", ")
                ));
            }
        }
        let reading = listed(
            "Memory-variance product (serialized bits × mean squared relative error; lower is better, 1.98 is the least a mergeable sketch can have, 1.63 a history estimator): ",
            &parts,
            ".",
        );
        Section { table, reading }
    }
}
