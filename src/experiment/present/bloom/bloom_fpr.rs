//! `bloom_fpr`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::bloom::bloom_fpr::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::params::KSetting;
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
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let rows = typed_rows::<BloomFpr>(&t.results);
        let t = &t.results;
        let Some(n) = rows.iter().map(|(p, _)| p.n).max() else {
            return Section::default();
        };
        let (inside, total) = common::coverage(t, "fpr_measured", "fpr_theory");
        let (inside_fill, _) = common::coverage(t, "fpr_measured", "fpr_given_fill");
        let fneg: u64 = rows.iter().map(|(_, r)| r.false_negatives).sum();
        let at10 = rows
            .iter()
            .find(|(p, _)| p.n == n && p.k == KSetting::Optimal && p.bits_per_key == 10.0)
            .map(|(_, r)| {
                format!(
                    " At 10 bits/key and k = {} the measured FPR is {} against {} in theory.",
                    r.k_used,
                    pct(r.fpr_measured.rate, 3),
                    pct(r.fpr_theory, 3)
                )
            })
            .unwrap_or_default();
        let excess = small_filter_excess(&rows);
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
fn small_filter_excess(rows: &[(P, R)]) -> String {
    let Some(n) = rows.iter().map(|(p, _)| p.n).min() else {
        return String::new();
    };
    let rows: Vec<&R> = rows
        .iter()
        .filter(|(p, _)| p.n == n && p.k == KSetting::Optimal && p.bits_per_key >= 20.0)
        .map(|(_, r)| r)
        .collect();
    let (mut fp, mut expect, mut expect_double, mut var) = (0u64, 0.0, 0.0, 0.0f64);
    for r in &rows {
        let (q, th) = (r.fpr_measured.trials as f64, r.fpr_theory);
        fp += r.fpr_measured.successes;
        expect += q * th;
        var += q * th * (1.0 - th);
        expect_double += q * r.fpr_theory_double;
    }
    if rows.is_empty() || expect <= 0.0 {
        return String::new();
    }
    format!(
        "At n = {} and 20–24 bits per key ({} trials pooled), {} false positives against {} expected from independent probes ({}σ) and {} from plain double hashing's repeated probes (when the step's order mod m is below k, fewer distinct bits are tested). ",
        sig(n as f64, 3),
        rows.len(),
        fp,
        sig(expect, 4),
        sig((fp as f64 - expect) / var.sqrt(), 3),
        sig(expect_double, 4)
    )
}
