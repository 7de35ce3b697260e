//! `hll_intersection`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hll::hll_intersection::*;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::view::View;
use crate::experiment::view::common::{self};
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("hll_intersection.toml");

/// The view registered for [`HllIntersection`] (see [`crate::experiment::view::VIEWS`]).
pub struct HllIntersectionView;

impl View for HllIntersectionView {
    fn kind(&self) -> &'static str {
        HllIntersection::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let all = summary_rows::<HllIntersection, Rs>(t.summary());
        let overlaps = common::sorted_levels(all.iter().map(|(p, _)| p.overlap));
        let mut parts = Vec::new();
        for o in overlaps {
            let rows: Vec<&Rs> = all
                .iter()
                .filter(|(p, _)| p.overlap == o)
                .map(|(_, r)| r)
                .collect();
            let first_garbage = rows
                .iter()
                .filter(|r| r.err_intersection.sd.is_some_and(|sd| sd > 1.0))
                .filter_map(|r| r.ratio.value)
                .fold(f64::INFINITY, f64::min);
            let at = |ratio: f64| {
                rows.iter()
                    .find(|r| r.ratio.value == Some(ratio))
                    .and_then(|r| r.err_intersection.sd)
            };
            parts.push(format!(
                "|A∩B| = {o}·|B|: sd {} at equal sizes, {} at |A|/|B| = 100; the spread first exceeds the intersection itself at |A|/|B| = {}",
                at(1.0).map(|v| pct(v, 2)).unwrap_or("-".into()),
                at(100.0).map(|v| pct(v, 2)).unwrap_or("-".into()),
                if first_garbage.is_finite() { sig(first_garbage, 3) } else { "never (in range)".into() }
            ));
        }
        let below = all
            .iter()
            .filter(|(_, r)| {
                matches!((r.err_intersection.sd, r.sd_independent_theory.value), (Some(a), Some(b)) if a < b)
            })
            .count();
        Section {
            table,
            reading: format!(
                "Relative error of the inclusion–exclusion estimate (|B| fixed, A growing): {}. The measured spread is below the independent-errors line in {} of {} settings (A∪B's registers are mostly A's, so the errors of |Â| and |Â∪B̂| cancel in part); when B ⊂ A the union's registers are exactly A's, so the estimate is |B̂|.",
                parts.join("; "),
                below,
                all.len()
            ),
        }
    }
}
