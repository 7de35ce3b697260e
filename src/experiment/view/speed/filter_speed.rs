//! `filter_speed`: what the report shows of its rows. The reading names the
//! fastest structure for absent queries and for builds at each ε.

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::speed::filter_speed::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::common::{listed, sorted_levels};
use crate::experiment::view::{View, declared_table};
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("filter_speed.toml");

/// The view registered for [`FilterSpeed`] (see [`crate::experiment::view::VIEWS`]).
pub struct FilterSpeedView;

impl View for FilterSpeedView {
    fn kind(&self) -> &'static str {
        FilterSpeed::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let rows = typed_rows::<FilterSpeed>(&t.results);
        let n_max = rows.iter().map(|(p, _)| p.n).max().unwrap_or(0);
        let keys = rows.first().map(|(p, _)| p.keys);
        let at: Vec<_> = rows
            .iter()
            .filter(|(p, r)| p.n == n_max && Some(p.keys) == keys && r.bytes.is_some())
            .collect();
        let fastest = |eps: f64, of: &dyn Fn(&R) -> Option<f64>| {
            at.iter()
                .filter(|(p, _)| p.fpr == eps)
                .filter_map(|(p, r)| Some((of(r)?, p.structure.name())))
                .min_by(|a, b| a.0.total_cmp(&b.0))
        };
        let mut parts = Vec::new();
        for eps in sorted_levels(at.iter().map(|(p, _)| p.fpr))
            .into_iter()
            .rev()
        {
            let q = fastest(eps, &|r| r.query_ns_negative.map(|i| i.value));
            let b = fastest(eps, &|r| r.build_ns_per_key.map(|i| i.value));
            if let (Some((qn, qs)), Some((bn, bs))) = (q, b) {
                parts.push(format!(
                    "ε = {}: absent query {qs} {} ns, build {bs} {} ns/key",
                    pct(eps, 3),
                    sig(qn, 3),
                    sig(bn, 3)
                ));
            }
        }
        let reading = listed(
            &format!(
                "Fastest at n = {n_max} (medians on this machine; every structure through the same `&dyn Membership`): "
            ),
            &parts,
            ".",
        );
        Section {
            table: declared_table(VIEW, t),
            reading,
        }
    }
}
