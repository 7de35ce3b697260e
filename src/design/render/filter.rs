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
    /// What was assumed for a flag not given ("" when nothing was).
    pub assumed: String,
}

/// Question 3: the filter sized for n-expected, filled to n-max.
#[derive(Clone, Debug, Serialize)]
pub struct MaxN {
    pub m_bits: u64,
    pub k: u32,
    pub bytes: f64,
    pub fpr_at_expected: f64,
    pub fpr_at_max: f64,
    /// Store lookups per second at n-expected and n-max (None without
    /// `--hit-rate`).
    pub traffic_at_expected_per_s: Option<f64>,
    pub traffic_at_max_per_s: Option<f64>,
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
    /// The recommendation in one line: what every format opens with.
    pub answer: String,
    pub inputs: FilterArgs,
    /// Bytes per key of the exact set: --key-bytes, else the --keys file's
    /// mean key length, else 100.
    pub key_bytes: u64,
    pub direction: String,
    /// Question 2 (None without `--hit-rate`).
    pub traffic: Option<Traffic>,
    pub max_n: MaxN,
    pub bits_per_key_per_decade: f64,
    pub next_digit: Vec<MemoryRow>,
    /// Which structure: every candidate configured, built and measured at
    /// n-max on this machine.
    pub recommendation: crate::design::advice::Advice,
    pub seed: SeedAdvice,
    /// Chart files written beside the review (SVG names).
    pub charts: Vec<String>,
    /// Which figures were measured on this machine and which are formulas.
    pub provenance: String,
}

/// The review as Markdown (charts referenced by file name).
pub fn filter_markdown(r: &FilterReview) -> String {
    let i = &r.inputs;
    let x = &r.max_n;
    let lede = format!(
        "For n-expected = {}, n-max = {}, target FPR {}, {}, {} lookups per second{}, {}-byte keys, seed policy `{}`.",
        count(i.n_expected),
        count(i.n_max),
        pct(i.fpr, 3),
        i.hit_rate.map_or("no hit rate given".into(), |h| format!(
            "hit rate {}",
            pct(h, 3)
        )),
        count(i.qps.unwrap_or(10_000.0)),
        if i.qps.is_none() { " (assumed)" } else { "" },
        r.key_bytes,
        i.common.seed_policy.as_str(),
    );
    let mut s = super::opening(
        &r.answer,
        "Filter design review",
        &lede,
        &r.provenance,
        &r.direction,
    );
    s += &super::filter::advice_markdown(&r.recommendation);
    match &r.traffic {
        Some(t) => {
            s += &format!(
                "## 2. Is no the common answer?\n\nStore lookups per second: **{}** with the filter (h + (1 − h)p: {} real hits + {} false positives) against **{}** without{}. The filter removes {} of them. Verdict: **{}** ({}).\n\n",
                sig(t.with_filter_per_s, 4),
                sig(t.hits_per_s, 4),
                sig(t.false_positives_per_s, 4),
                sig(t.without_filter_per_s, 4),
                if t.assumed.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", t.assumed)
                },
                pct(t.fraction_removed, 3),
                t.verdict,
                t.rule
            )
        }
        None => {
            s += "## 2. Is no the common answer?\n\nLeft out: no `--hit-rate` was given. The store still sees h + (1 − h)p of the lookups; close to h, build the filter, close to 1, do not. Give `--hit-rate` (and `--qps`) for the figures.\n\n"
        }
    }
    let traffic = |t: Option<f64>| {
        t.map_or(String::new(), |t| {
            format!(" and the store sees **{}** lookups/s", sig(t, 4))
        })
    };
    s += &format!(
        "## 3. What is the maximum n, not the expected one?\n\nSized for n-expected: m = {} bits ({}), k = {}. At n-expected its FPR is {}{}; at n-max the FPR is **{}**{}, silently. Sized for n-max instead: m = {} bits ({}), k = {}.\n\n",
        x.m_bits,
        bytes(x.bytes),
        x.k,
        pct(x.fpr_at_expected, 3),
        traffic(x.traffic_at_expected_per_s).replace("**", ""),
        pct(x.fpr_at_max, 3),
        traffic(x.traffic_at_max_per_s),
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
    s += &seed_and_charts(&r.seed, &r.charts);
    s
}

/// The measured recommendation: one row per candidate, configured and
/// measured side by side, then the choice and what was left out.
pub(super) fn advice_markdown(a: &crate::design::advice::Advice) -> String {
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
    s += &super::choice_markdown(&a.choice, "fastest absent query");
    s += "The bytes are the configured table's (what the implementation allocates at your n); the FPR and times are measured.\n\n";
    if !a.cliffs.is_empty() {
        s += "### Capacity: where the powers of two fall\n\nEach of these tables comes in powers of two. Its capacity is the keys it holds before its implementation must double it; the alternatives are measured at your ε (fewer fingerprint bits qualify only when their whole interval lies under ε).\n\n| structure | slots | capacity (how known) | your load | fewer fingerprint bits, measured | half the memory, measured |\n|---|---|---|---|---|---|\n";
        let alt = |x: &Option<crate::design::capacity::Alternative>| {
            x.as_ref().map_or("—".into(), |a| {
                format!(
                    "{} ({}, {} keys): {}, FPR {} [{}, {}]: {}{}",
                    a.what,
                    a.configuration,
                    count(a.n as f64),
                    bytes(a.bytes as f64),
                    pct(a.fpr, 3),
                    pct(a.fpr_lo, 3),
                    pct(a.fpr_hi, 3),
                    if a.meets_target {
                        "meets ε"
                    } else {
                        "does not meet ε"
                    },
                    if a.scaled.is_empty() {
                        ""
                    } else {
                        " (scaled instance)"
                    }
                )
            })
        };
        for c in &a.cliffs {
            s += &format!(
                "| {} | {} | {} ({}) | {} | {} | {} |\n",
                c.structure,
                count(c.slots as f64),
                count(c.capacity as f64),
                c.capacity_rule,
                pct(c.load, 3),
                alt(&c.fewer_bits),
                alt(&c.half_memory)
            );
        }
        s.push('\n');
        for c in &a.cliffs {
            s += &format!("- {}\n", c.summary);
        }
        s.push('\n');
    }
    for w in a.warnings() {
        s += &format!("**Warning.** {w}\n\n");
    }
    s
}
