//! `scalable_bloom`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::filters::scalable_bloom::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for ScalableBloomStudy {
    const VIEW: &'static str = include_str!("scalable_bloom.toml");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory"),
        ("fixed_fpr_measured", "fixed_fpr_theory"),
    ];

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "n",
                "growth",
                "ratio",
                "filters",
                "bits_per_key",
                "fpr_bound",
                "fpr_theory",
                "fpr_measured",
                "fixed_fpr_theory",
                "fixed_fpr_measured",
            ],
            |_| true,
        );
        let last = t.rows.iter().max_by(|a, b| {
            t.f64(a, "n")
                .unwrap_or(0.0)
                .total_cmp(&t.f64(b, "n").unwrap_or(0.0))
        });
        let reading = match last {
            Some(r) => format!(
                "At {} keys the chain (growth {}, {} filters, {} bits per key) measures {} against its bound {}, while the filter sized for {} keys answers yes to {} of absent keys.",
                sig(t.f64(r, "n").unwrap_or(f64::NAN), 3),
                t.str(r, "growth"),
                t.str(r, "filters"),
                sig(t.f64(r, "bits_per_key").unwrap_or(f64::NAN), 3),
                pct(t.f64(r, "fpr_measured").unwrap_or(f64::NAN), 3),
                pct(t.f64(r, "fpr_bound").unwrap_or(f64::NAN), 3),
                sig(t.f64(r, "fixed_capacity").unwrap_or(f64::NAN), 3),
                pct(t.f64(r, "fixed_fpr_measured").unwrap_or(f64::NAN), 3)
            ),
            None => String::new(),
        };
        Section { table, reading }
    }
}
