//! `own_filter`: what the report shows of a user's filter.

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::own::kinds::OwnFilter;
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("own_filter.toml");

/// The view registered for [`OwnFilter`] (the view [`crate::experiment::own`] runs it with).
pub struct OwnFilterView;

impl View for OwnFilterView {
    fn kind(&self) -> &'static str {
        OwnFilter::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<OwnFilter>(&t.results);
        let over: Vec<String> = rows
            .iter()
            .filter(|(p, r)| r.fpr_measured.lo > p.fpr)
            .map(|(p, r)| {
                format!(
                    "n = {} {} keys at ε = {}: {} [{}, {}]",
                    p.n,
                    p.keys.name(),
                    sig(p.fpr, 3),
                    pct(r.fpr_measured.rate, 3),
                    pct(r.fpr_measured.lo, 3),
                    pct(r.fpr_measured.hi, 3)
                )
            })
            .collect();
        let fneg: u64 = rows.iter().map(|(_, r)| r.false_negatives).sum();
        Section {
            table,
            reading: format!(
                "{} of {} trials give more false positives than the rate they were built for (the 95% interval above ε){}. False negatives across all trials: {fneg}.",
                over.len(),
                rows.len(),
                if over.is_empty() {
                    String::new()
                } else {
                    format!(": {}", over.join("; "))
                }
            ),
        }
    }
}
