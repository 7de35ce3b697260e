//! `hll_intersection`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hll::hll_intersection::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::table::Value;

impl Present for HllIntersection {
    const VIEW: &'static str = include_str!("hll_intersection.toml");

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let s = t.summary();
        let mut parts = Vec::new();
        for o in common::levels(s, "overlap") {
            let rows: Vec<&Vec<Value>> = s
                .rows
                .iter()
                .filter(|r| s.f64(r, "overlap") == Some(o))
                .collect();
            let first_garbage = rows
                .iter()
                .filter(|r| s.f64(r, "err_intersection_sd").is_some_and(|sd| sd > 1.0))
                .filter_map(|r| s.f64(r, "ratio"))
                .fold(f64::INFINITY, f64::min);
            let at = |ratio: f64| {
                rows.iter()
                    .find(|r| s.f64(r, "ratio") == Some(ratio))
                    .and_then(|r| s.f64(r, "err_intersection_sd"))
            };
            parts.push(format!(
                "|A∩B| = {o}·|B|: sd {} at equal sizes, {} at |A|/|B| = 100; the spread first exceeds the intersection itself at |A|/|B| = {}",
                at(1.0).map(|v| pct(v, 2)).unwrap_or("-".into()),
                at(100.0).map(|v| pct(v, 2)).unwrap_or("-".into()),
                if first_garbage.is_finite() { sig(first_garbage, 3) } else { "never (in range)".into() }
            ));
        }
        Section {
            table,
            reading: format!(
                "Relative error of the inclusion–exclusion estimate (|B| fixed, A growing): {}. The measured spread is below the independent-errors line in {} of {} settings (A∪B's registers are mostly A's, so the errors of |Â| and |Â∪B̂| cancel in part); when B ⊂ A the union's registers are exactly A's, so the estimate is |B̂|.",
                parts.join("; "),
                s.rows
                    .iter()
                    .filter(|r| {
                        matches!((s.f64(r, "err_intersection_sd"), s.f64(r, "sd_independent_theory")), (Some(a), Some(b)) if a < b)
                    })
                    .count(),
                s.rows.len()
            ),
        }
    }
}
