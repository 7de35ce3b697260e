//! The filter review: the five questions for a filter in front of an
//! authoritative store.

use super::{SeedAdvice, bytes, count, seed_and_charts};
use crate::export::markdown::{pct, sig};
use serde::Serialize;

pub use crate::cli::FilterArgs;

/// Question 2: store lookups per second with and without the filter.
#[derive(Clone, Debug, Serialize)]
pub struct Traffic {
    pub without_filter_per_s: f64,
    pub hits_per_s: f64,
    pub false_positives_per_s: f64,
    /// qps·(h + (1 − h)p) at the filter's own FPR at n-expected.
    pub with_filter_per_s: f64,
    pub fraction_removed: f64,
    /// "build", "marginal" or "don't".
    pub verdict: String,
    pub rule: String,
}

/// Question 3: the filter sized for n-expected, filled to n-max.
#[derive(Clone, Debug, Serialize)]
pub struct MaxN {
    pub m_bits: u64,
    pub k: u32,
    pub bytes: f64,
    pub fpr_at_expected: f64,
    pub fpr_at_max: f64,
    pub traffic_at_expected_per_s: f64,
    pub traffic_at_max_per_s: f64,
    pub m_bits_for_max: u64,
    pub k_for_max: u32,
    pub bytes_for_max: f64,
}

/// Question 4: one structure's memory at one target FPR, for n-max keys.
#[derive(Clone, Debug, Serialize)]
pub struct MemoryRow {
    pub structure: String,
    pub target_fpr: Option<f64>,
    /// The FPR it gives (the target's for sized structures, the
    /// fingerprint's for a cuckoo filter, 0 for the exact set).
    pub fpr: f64,
    pub bytes: f64,
    pub bits_per_key: f64,
    /// "formula" or "measured".
    pub source: String,
}

/// A filter design review.
#[derive(Clone, Debug, Serialize)]
pub struct FilterReview {
    pub inputs: FilterArgs,
    pub direction: String,
    pub traffic: Traffic,
    pub max_n: MaxN,
    pub bits_per_key_per_decade: f64,
    pub next_digit: Vec<MemoryRow>,
    /// Which structure: every candidate configured, built and measured at
    /// n-max on this machine.
    pub recommendation: crate::design::measure::Advice,
    pub seed: SeedAdvice,
    /// Chart files written beside the review (SVG names).
    pub charts: Vec<String>,
    /// Which figures were measured on this machine and which are formulas.
    pub provenance: String,
}

/// The review as Markdown (charts referenced by file name).
pub fn filter_markdown(r: &FilterReview) -> String {
    let i = &r.inputs;
    let t = &r.traffic;
    let x = &r.max_n;
    let lede = format!(
        "For n-expected = {}, n-max = {}, target FPR {}, hit rate {}, {} lookups per second, {}-byte keys, seed policy `{}`.",
        count(i.n_expected),
        count(i.n_max),
        pct(i.fpr, 3),
        pct(i.hit_rate, 3),
        count(i.qps),
        i.key_bytes,
        i.common.seed_policy.as_str(),
    );
    let mut s = super::opening("Filter design review", &lede, &r.provenance, &r.direction);
    s += &format!(
        "## 2. Is no the common answer?\n\nStore lookups per second: **{}** with the filter (h + (1 − h)p: {} real hits + {} false positives) against **{}** without. The filter removes {} of them. Verdict: **{}** ({}).\n\n",
        sig(t.with_filter_per_s, 4),
        sig(t.hits_per_s, 4),
        sig(t.false_positives_per_s, 4),
        sig(t.without_filter_per_s, 4),
        pct(t.fraction_removed, 3),
        t.verdict,
        t.rule
    );
    s += &format!(
        "## 3. What is the maximum n, not the expected one?\n\nSized for n-expected: m = {} bits ({}), k = {}. At n-expected its FPR is {} and the store sees {} lookups/s; at n-max the FPR is **{}** and the store sees **{}** lookups/s, silently. Sized for n-max instead: m = {} bits ({}), k = {}.\n\n",
        x.m_bits,
        bytes(x.bytes),
        x.k,
        pct(x.fpr_at_expected, 3),
        sig(x.traffic_at_expected_per_s, 4),
        pct(x.fpr_at_max, 3),
        sig(x.traffic_at_max_per_s, 4),
        x.m_bits_for_max,
        bytes(x.bytes_for_max),
        x.k_for_max
    );
    s += &format!(
        "## 4. What does the next digit of accuracy cost?\n\nA Bloom filter pays {} bits per key per decade of FPR. For n-max = {} keys:\n\n| structure | target FPR | FPR | memory | bits per key | source |\n|---|---|---|---|---|---|\n",
        sig(r.bits_per_key_per_decade, 3),
        count(i.n_max)
    );
    for m in &r.next_digit {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            m.structure,
            m.target_fpr
                .map(|p| pct(p, 3))
                .unwrap_or_else(|| "—".into()),
            pct(m.fpr, 3),
            bytes(m.bytes),
            sig(m.bits_per_key, 4),
            m.source
        );
    }
    s.push('\n');
    s += &advice_markdown(&r.recommendation);
    s += &seed_and_charts(&r.seed, &r.charts);
    s
}

/// The measured recommendation: one row per candidate, configured and
/// measured side by side, then the choice and what was left out.
fn advice_markdown(a: &crate::design::measure::Advice) -> String {
    let mut s = format!(
        "## Which structure? (measured here at your size)\n\nNeeds: {}. Each candidate is configured for n = {} at FPR {} exactly as its implementation sizes it, built, filled with {}, and measured: its FPR from {} absent queries with a {}% Clopper–Pearson interval, and the median time of an absent and a present query. A candidate whose interval lies above the target beyond the 10% materiality margin of a rate is resized and measured again. This took {:.1} s.\n\n| structure | configuration | bytes | bits per key | FPR (theory) | FPR measured [{}% interval] | ns absent | ns present | notes |\n|---|---|---|---|---|---|---|---|---|\n",
        a.needs,
        count(a.n as f64),
        pct(a.target_fpr, 3),
        a.keys,
        a.measured
            .first()
            .map(|m| count(m.absent_queries as f64))
            .unwrap_or_else(|| "—".into()),
        crate::design::measure::CONFIDENCE * 100.0,
        a.seconds,
        crate::design::measure::CONFIDENCE * 100.0,
    );
    for m in &a.measured {
        let c = &m.configured;
        let mut notes = m
            .resized
            .iter()
            .map(|r| format!("resized from {r}"))
            .collect::<Vec<_>>();
        if !m.scaled.is_empty() {
            notes.push(format!("{} ({})", m.scaled, m.measured_config));
        }
        s += &format!(
            "| {} | {} | {} | {} | {} | {} [{}, {}] | {} | {} | {} |\n",
            m.structure,
            c.words(),
            bytes(c.bytes as f64),
            sig(c.bits_per_key(), 4),
            pct(c.fpr_theory, 3),
            pct(m.fpr, 3),
            pct(m.fpr_lo, 3),
            pct(m.fpr_hi, 3),
            sig(m.absent_ns, 3),
            sig(m.present_ns, 3),
            notes.join("; ")
        );
    }
    for l in &a.left_out {
        s += &format!(
            "| {} | — | — | — | — | — | — | — | left out: {} |\n",
            l.structure, l.why
        );
    }
    let name = |x: &Option<String>| x.clone().unwrap_or_else(|| "none".into());
    s + &format!(
        "\n**Choice**: smallest **{}**, runner-up {}; fastest absent query {}. The bytes are the configured table's (what the implementation allocates at your n); the FPR and times are measured.\n\n",
        name(&a.smallest),
        name(&a.runner_up),
        name(&a.fastest)
    )
}
