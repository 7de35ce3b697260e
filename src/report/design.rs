//! Design reviews: the essay's five questions answered for a user's own
//! numbers. The figures are computed in `experiment::design` (the theory
//! functions the studies test, a hash set measured on this machine, the
//! attack studies' results from a reference run); this module only renders
//! them, as Markdown, HTML or JSON.

use super::html::escape;
use crate::export::markdown::{pct, sig};
use serde::Serialize;

/// What the user gave `sketchlab design filter`.
#[derive(Clone, Debug, Serialize)]
pub struct FilterInputs {
    pub n_expected: f64,
    pub n_max: f64,
    pub fpr: f64,
    pub hit_rate: f64,
    pub qps: f64,
    pub key_bytes: u64,
    pub seed_policy: String,
}

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

/// Question 5: what the seed policy means, with the attack studies' numbers.
#[derive(Clone, Debug, Serialize)]
pub struct SeedAdvice {
    pub policy: String,
    pub meaning: String,
    pub verdict: String,
    /// (what, measured value, where from) from the reference run's ledger.
    pub attacks: Vec<(String, String, String)>,
}

/// A filter design review.
#[derive(Clone, Debug, Serialize)]
pub struct FilterReview {
    pub inputs: FilterInputs,
    pub direction: String,
    pub traffic: Traffic,
    pub max_n: MaxN,
    pub bits_per_key_per_decade: f64,
    pub next_digit: Vec<MemoryRow>,
    pub seed: SeedAdvice,
    /// Chart files written beside the review (SVG names).
    pub charts: Vec<String>,
    /// Which figures were measured on this machine and which are formulas.
    pub provenance: String,
}

fn count(x: f64) -> String {
    sig(x, 4)
}

fn bytes(b: f64) -> String {
    if b >= 1e9 {
        format!("{} GB", sig(b / 1e9, 3))
    } else if b >= 1e6 {
        format!("{} MB", sig(b / 1e6, 3))
    } else if b >= 1e3 {
        format!("{} KB", sig(b / 1e3, 3))
    } else {
        format!("{} B", sig(b, 3))
    }
}

/// The review as Markdown (charts referenced by file name).
pub fn filter_markdown(r: &FilterReview) -> String {
    let i = &r.inputs;
    let t = &r.traffic;
    let x = &r.max_n;
    let mut s = format!(
        "# Filter design review\n\nFor n-expected = {}, n-max = {}, target FPR {}, hit rate {}, {} lookups per second, {}-byte keys, seed policy `{}`.\n\n{}\n\n",
        count(i.n_expected),
        count(i.n_max),
        pct(i.fpr, 3),
        pct(i.hit_rate, 3),
        count(i.qps),
        i.key_bytes,
        i.seed_policy,
        r.provenance
    );
    s += &format!(
        "## 1. Which direction can it be wrong in, and who catches it?\n\n{}\n\n",
        r.direction
    );
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
    s += &format!(
        "\n## 5. Where does the seed come from, and is it per-process?\n\nPolicy `{}`: {} **{}**\n\n",
        r.seed.policy, r.seed.meaning, r.seed.verdict
    );
    if !r.seed.attacks.is_empty() {
        s += "| attack result | value | from |\n|---|---|---|\n";
        for (what, v, from) in &r.seed.attacks {
            s += &format!("| {what} | {v} | {from} |\n");
        }
        s += "\n";
    }
    for c in &r.charts {
        s += &format!("![{c}]({c})\n\n");
    }
    s
}

/// The review as one self-contained HTML page (the charts' SVG inlined).
pub fn filter_html(r: &FilterReview, svgs: &[String]) -> String {
    let md = filter_markdown(r);
    let mut body = String::new();
    let mut in_table = false;
    for line in md.lines() {
        if line.starts_with('|') {
            if line.starts_with("|---") {
                continue;
            }
            if !in_table {
                body += "<table>";
                in_table = true;
            }
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            body += "<tr>";
            for c in cells {
                body += &format!("<td>{}</td>", escape(c));
            }
            body += "</tr>\n";
            continue;
        }
        if in_table {
            body += "</table>\n";
            in_table = false;
        }
        if let Some(h) = line.strip_prefix("## ") {
            body += &format!("<h2>{}</h2>\n", escape(h));
        } else if let Some(h) = line.strip_prefix("# ") {
            body += &format!("<h1>{}</h1>\n", escape(h));
        } else if line.starts_with("![") {
            continue;
        } else if !line.is_empty() {
            body += &format!("<p>{}</p>\n", escape(&line.replace("**", "")));
        }
    }
    if in_table {
        body += "</table>\n";
    }
    for svg in svgs {
        body += &format!("<figure>{svg}</figure>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Filter design review</title><style>body{{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}table{{border-collapse:collapse}}td{{border:1px solid #ccc;padding:0.2em 0.5em}}figure svg{{max-width:100%;height:auto}}</style></head><body>\n{body}</body></html>\n"
    )
}
