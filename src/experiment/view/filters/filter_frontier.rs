//! `filter_frontier`: what the report shows of its rows. The reading ranks
//! the structures by bits per key at each ε, with their waste over the
//! limit, so "better space efficiency" is read against every filter.

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::filters::filter_frontier::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::common::{listed, sorted_levels};
use crate::experiment::view::{View, declared_table};
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("filter_frontier.toml");

/// The view registered for [`FilterFrontier`] (see [`crate::experiment::view::VIEWS`]).
pub struct FilterFrontierView;

impl View for FilterFrontierView {
    fn kind(&self) -> &'static str {
        FilterFrontier::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let rows = typed_rows::<FilterFrontier>(&t.results);
        let mut parts = Vec::new();
        let n_max = rows.iter().map(|(p, _)| p.n).max().unwrap_or(0);
        // one key type (the first seen) at the largest n: bits do not depend on it
        let keys = rows.first().map(|(p, _)| p.keys);
        let at: Vec<_> = rows
            .iter()
            .filter(|(p, _)| p.n == n_max && Some(p.keys) == keys)
            .collect();
        for eps in sorted_levels(at.iter().map(|(p, _)| p.fpr))
            .into_iter()
            .rev()
        {
            let mut here: Vec<_> = at
                .iter()
                .filter(|(p, r)| p.fpr == eps && r.bits_per_key.is_some())
                .collect();
            here.sort_by(|a, b| a.1.bits_per_key.partial_cmp(&b.1.bits_per_key).unwrap());
            let ranked: Vec<String> = here
                .iter()
                .map(|(p, r)| {
                    let waste = match r.waste_pct {
                        Some(w) => format!("{:+.0}%", w.value),
                        None => "no false positive seen".into(),
                    };
                    format!(
                        "{} {} ({waste})",
                        p.structure,
                        sig(r.bits_per_key.unwrap_or(f64::NAN), 3)
                    )
                })
                .collect();
            parts.push(format!("ε = {}: {}", pct(eps, 3), ranked.join(", ")));
        }
        // the static filters of the menu, in its order
        let statics: Vec<&str> = crate::structures::menu::Filter::ALL
            .iter()
            .filter(|f| f.is_static())
            .map(|f| f.name())
            .collect();
        let reading = listed(
            &format!(
                "Bits per key at each target ε (n = {n_max}), smallest first, with the waste over log2(1/ε) at the measured rate: "
            ),
            &parts,
            &format!(
                ". Only the dynamic structures take keys after build; the static ones ({}) must be rebuilt.",
                statics.join(", ")
            ),
        );
        Section {
            table: declared_table(VIEW, t),
            reading,
        }
    }
}
