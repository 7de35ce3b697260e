//! `minhash`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::sketches::minhash::*;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("minhash.toml");

/// The view registered for [`MinHashStudy`] (see [`crate::experiment::view::VIEWS`]).
pub struct MinHashView;

impl View for MinHashView {
    fn kind(&self) -> &'static str {
        MinHashStudy::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = summary_rows::<MinHashStudy, Rs>(s);
        let worst = rows
            .iter()
            .filter_map(|(p, r)| Some((r.err_in_rule.sd?, p)))
            .fold(
                (0.0, None),
                |a, (sd, p)| if sd > a.0 { (sd, Some(p)) } else { a },
            );
        let worst_at = worst
            .1
            .map_or((String::new(), String::new(), String::new()), |p| {
                (
                    p.variant.to_string(),
                    p.k.to_string(),
                    p.jaccard.to_string(),
                )
            });
        // bottom-k against k-hash at each (k, J)
        let (mut bottom_k_le, mut pairs) = (0, 0);
        for (p, r) in rows.iter().filter(|(p, _)| p.variant == Variant::BottomK) {
            let twin = rows.iter().find(|(q, _)| {
                q.variant == Variant::KHashes && q.k == p.k && q.jaccard == p.jaccard
            });
            if let (Some(a), Some(b)) = (r.err.sd, twin.and_then(|(_, q)| q.err.sd)) {
                pairs += 1;
                bottom_k_le += (a <= b) as usize;
            }
        }
        let min_within = rows
            .iter()
            .filter_map(|(_, r)| r.within_rule.value)
            .fold(1.0, f64::min);
        Section {
            table,
            reading: format!(
                "The error's sd is at most {} of 1/√k (worst: {} k = {} at J = {}), i.e. √(J(1−J)/k) ≤ 0.5/√k; the share of estimates within 1/√k of J is at least {} in every setting. Bottom-k's sd is at or below k-hash MinHash's in {} of {} (k, J) settings.",
                sig(worst.0, 3),
                worst_at.0,
                worst_at.1,
                worst_at.2,
                pct(min_within, 1),
                bottom_k_le,
                pairs
            ),
        }
    }
}
