//! `own_frequency`: what the report shows of a user's frequency sketch.

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::own::kinds::OwnFrequency;
use crate::experiment::view::View;
use crate::export::markdown::pct;
use crate::report::Section;

const VIEW: &str = include_str!("own_frequency.toml");

/// The view registered for [`OwnFrequency`] (the view [`crate::experiment::own`] runs it with).
pub struct OwnFrequencyView;

impl View for OwnFrequencyView {
    fn kind(&self) -> &'static str {
        OwnFrequency::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    // δ bounds the share from above: the reading tests it as a bound, and
    // no theory-miss list treats it as a prediction

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<OwnFrequency>(&t.results);
        let above: Vec<String> = rows
            .iter()
            .filter(|(p, r)| r.exceed.lo > p.delta)
            .map(|(p, r)| {
                format!(
                    "ε = {}, s = {}: {} [{}, {}] of keys beyond ε·N, claimed δ = {}",
                    p.epsilon,
                    p.s,
                    pct(r.exceed.rate, 3),
                    pct(r.exceed.lo, 3),
                    pct(r.exceed.hi, 3),
                    pct(p.delta, 3)
                )
            })
            .collect();
        let under: u64 = rows.iter().map(|(_, r)| r.underestimates).sum();
        Section {
            table,
            reading: format!(
                "{} of {} trials break the claimed guarantee (the 95% interval of the share of keys beyond ε·N lies above δ){}. Keys estimated below their count: {under}.",
                above.len(),
                rows.len(),
                if above.is_empty() {
                    String::new()
                } else {
                    format!(": {}", above.join("; "))
                }
            ),
        }
    }
}
