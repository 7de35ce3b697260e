//! `bloom_fpr`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::bloom::bloom_fpr::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::params::KSetting;
use crate::experiment::view::View;
use crate::experiment::view::common::{self};
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("bloom_fpr.toml");

/// The view registered for [`BloomFpr`] (see [`crate::experiment::view::VIEWS`]).
pub struct BloomFprView;

impl View for BloomFprView {
    fn kind(&self) -> &'static str {
        BloomFpr::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
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
        let by_keys = by_key_source(&rows);
        Section {
            table,
            reading: format!(
                "{excess}Theory (1-e^(-kn/m))^k falls inside the measured 95% Wilson interval in {inside} of {total} trials ({}). The interval covers query sampling only, while each filter's own fill varies around its expectation; given each filter's measured fill ρ, ρ^k is inside in {inside_fill} of {total} ({}). False negatives across all trials: {fneg}.{at10}{by_keys}",
                pct(inside as f64 / total.max(1) as f64, 3),
                pct(inside_fill as f64 / total.max(1) as f64, 3)
            ),
        }
    }
}

/// Each key source against u64 keys at the same (n, bits per key, k, hash,
/// replicate): the settings where a two-proportion z test says the FPRs
/// differ (|z| > 3.29, 99.9% two-sided), with the largest differences.
fn by_key_source(rows: &[(P, R)]) -> String {
    use crate::workload::KeyType;
    let sources = common::first_seen(rows.iter().map(|(p, _)| p.keys));
    if sources.len() < 2 || !sources.contains(&KeyType::U64) {
        return String::new();
    }
    let same = |a: &P, b: &P| {
        (a.n, a.bits_per_key, a.k, a.hash, a.queries)
            == (b.n, b.bits_per_key, b.k, b.hash, b.queries)
    };
    let mut parts = Vec::new();
    for src in sources.iter().filter(|s| **s != KeyType::U64) {
        let mut pairs = Vec::new();
        for (p, r) in rows.iter().filter(|(p, _)| p.keys == *src) {
            let Some((_, base)) = rows
                .iter()
                .find(|(q, _)| q.keys == KeyType::U64 && same(p, q))
            else {
                continue;
            };
            let (a, b) = (r.fpr_measured, base.fpr_measured);
            let z = crate::stats::two_proportion_z(
                a.successes as f64,
                a.trials as f64,
                b.successes as f64,
                b.trials as f64,
            );
            pairs.push((z, p, a.rate, b.rate));
        }
        if pairs.is_empty() {
            continue;
        }
        let mut differ: Vec<_> = pairs.iter().filter(|(z, ..)| z.abs() > 3.29).collect();
        differ.sort_by(|x, y| y.0.abs().total_cmp(&x.0.abs()));
        let shown: Vec<String> = differ
            .iter()
            .take(4)
            .map(|(z, p, a, b)| {
                format!(
                    "{} at {} bits/key: {} vs {} (z = {})",
                    p.hash.name(),
                    p.bits_per_key,
                    pct(*a, 3),
                    pct(*b, 3),
                    crate::export::markdown::sig(*z, 3)
                )
            })
            .collect();
        parts.push(format!(
            "{} differs from u64 keys in {} of {} trial pairs{}",
            src.name(),
            differ.len(),
            pairs.len(),
            if shown.is_empty() {
                String::new()
            } else {
                format!(" ({})", shown.join("; "))
            }
        ));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        " By key source, each trial against a u64 trial at the same n, bits per key, k and hash (two-proportion z test, |z| > 3.29 at 99.9%; about 1 in 1,000 pairs differs by chance): {}.",
        parts.join("; ")
    )
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
