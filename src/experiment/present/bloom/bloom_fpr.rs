//! `bloom_fpr`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::bloom::bloom_fpr::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for BloomFpr {
    const VIEW: &'static str = include_str!("bloom_fpr.toml");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory"),
        ("fill_measured", "fill_theory"),
    ];

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let Some(&n) = common::levels(t, "n").last() else {
            return Section::default();
        };
        let shown = [2.0, 4.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0];
        let table = t.project(
            &[
                "n",
                "bits_per_key",
                "hash",
                "k_used",
                "fpr_theory",
                "fpr_measured",
                "fpr_measured_lo",
                "fpr_measured_hi",
                "fill_measured",
                "false_negatives",
            ],
            |r| {
                t.f64(r, "n") == Some(n)
                    && t.str(r, "k") == "optimal"
                    && t.f64(r, "bits_per_key").is_some_and(|b| shown.contains(&b))
            },
        );
        let (inside, total) = common::coverage(t, "fpr_measured", "fpr_theory");
        let (inside_fill, _) = common::coverage(t, "fpr_measured", "fpr_given_fill");
        let fneg: f64 = t
            .rows
            .iter()
            .filter_map(|r| t.f64(r, "false_negatives"))
            .sum();
        let at10 = t.rows.iter().find(|r| {
            t.f64(r, "n") == Some(n)
                && t.str(r, "k") == "optimal"
                && t.f64(r, "bits_per_key") == Some(10.0)
        });
        let at10 = at10
            .map(|r| {
                format!(
                    " At 10 bits/key and k = {} the measured FPR is {} against {} in theory.",
                    t.str(r, "k_used"),
                    pct(t.f64(r, "fpr_measured").unwrap_or(f64::NAN), 3),
                    pct(t.f64(r, "fpr_theory").unwrap_or(f64::NAN), 3)
                )
            })
            .unwrap_or_default();
        let excess = small_filter_excess(t);
        Section {
            table,
            reading: format!(
                "{excess}Theory (1-e^(-kn/m))^k falls inside the measured 95% Wilson interval in {inside} of {total} trials ({}). The interval covers query sampling only, while each filter's own fill varies around its expectation; given each filter's measured fill ρ, ρ^k is inside in {inside_fill} of {total} ({}). False negatives across all trials: {fneg}.{at10}",
                pct(inside as f64 / total.max(1) as f64, 3),
                pct(inside_fill as f64 / total.max(1) as f64, 3)
            ),
        }
    }
}

/// The double-hashing loss at small filters: false positives pooled over the
/// smallest n's optimal-k rows at ≥ 20 bits per key, against the
/// independent-probe theory and the repeated-probe theory.
fn small_filter_excess(t: &crate::table::Table) -> String {
    let Some(&n) = common::levels(t, "n").first() else {
        return String::new();
    };
    let rows: Vec<_> = t
        .rows
        .iter()
        .filter(|r| {
            t.f64(r, "n") == Some(n)
                && t.str(r, "k") == "optimal"
                && t.f64(r, "bits_per_key").is_some_and(|b| b >= 20.0)
        })
        .collect();
    let (mut fp, mut expect, mut expect_double, mut var) = (0.0, 0.0, 0.0, 0.0);
    for r in &rows {
        let q = t.f64(r, "fpr_measured_n").unwrap_or(0.0);
        let th = t.f64(r, "fpr_theory").unwrap_or(f64::NAN);
        fp += t.f64(r, "fpr_measured_k").unwrap_or(0.0);
        expect += q * th;
        var += q * th * (1.0 - th);
        expect_double += q * t.f64(r, "fpr_theory_double").unwrap_or(f64::NAN);
    }
    if rows.is_empty() || expect <= 0.0 {
        return String::new();
    }
    format!(
        "At n = {} and 20–24 bits per key ({} trials pooled), {} false positives against {} expected from independent probes ({}σ) and {} from plain double hashing's repeated probes (when the step's order mod m is below k, fewer distinct bits are tested). ",
        sig(n, 3),
        rows.len(),
        fp,
        sig(expect, 4),
        sig((fp - expect) / var.sqrt(), 3),
        sig(expect_double, 4)
    )
}
