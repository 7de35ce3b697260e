//! The frequency review: the five questions for a Count-Min sketch over a
//! stream of a given length.

use super::{SeedAdvice, Sourced, bytes, count, seed_and_charts, sourced_table};
use crate::export::markdown::{pct, sig};
use serde::Serialize;

pub use crate::cli::FrequencyArgs;

/// The sketch the targets need.
#[derive(Clone, Debug, Serialize)]
pub struct Shape {
    /// ⌈e/ε⌉ counters per row.
    pub w: u64,
    /// ⌈ln(1/δ)⌉ rows.
    pub d: u64,
    /// e/w and e^−d: what the shape guarantees.
    pub eps_guaranteed: f64,
    pub delta_guaranteed: f64,
    /// ε·N: the additive bound in counts.
    pub eps_n: f64,
    /// ⌈log2(N + 1)⌉: bits a cell needs to hold the whole stream.
    pub counter_bits_needed: u32,
    /// "u32" or "u64": the narrowest counter that cannot saturate.
    pub counter: String,
    pub bytes_u32: f64,
    pub bytes_u64: f64,
    /// With the counter chosen.
    pub bytes: f64,
    /// (2^32 − 1)/N: how many such streams a u32 cell could hold.
    pub u32_headroom: f64,
}

/// Question 2: an item's count is within ±ε/φ of itself when it is a
/// share φ of the stream (with probability 1 − δ).
#[derive(Clone, Debug, Serialize)]
pub struct TrustRow {
    pub share: f64,
    pub count: f64,
    pub relative_bound: f64,
}

/// The overshoot measured on a simulated Zipf stream through the review's shape.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    pub updates: u64,
    pub universe: u64,
    pub keys_seen: u64,
    /// Share of the keys seen whose overshoot exceeds ε·updates, with its 95% Wilson interval.
    pub share_over_eps_n: f64,
    pub share_over_eps_n_lo: f64,
    pub share_over_eps_n_hi: f64,
    /// The same with conservative update.
    pub conservative_share_over_eps_n: f64,
    /// Mean cell − true count over keys and rows ÷ (updates / w).
    pub mean_row_overshoot_over_n_over_w: f64,
    /// Largest overshoot ÷ ε·updates.
    pub max_overshoot_over_eps_n: f64,
    /// Keys whose estimate is below their count (0 unless a counter saturates).
    pub underestimates: u64,
    /// (x, plain, conservative): the share of keys seen whose overshoot
    /// exceeds x·ε·updates.
    pub exceedance: Vec<(f64, f64, f64)>,
}

/// One row of question 4.
#[derive(Clone, Debug, Serialize)]
pub struct ShapeRow {
    pub epsilon: f64,
    pub delta: f64,
    pub w: u64,
    pub d: u64,
    pub bytes: f64,
    pub ratio: f64,
}

/// A frequency design review.
#[derive(Clone, Debug, Serialize)]
pub struct FrequencyReview {
    /// The recommendation in one line: what every format opens with.
    pub answer: String,
    pub inputs: FrequencyArgs,
    pub direction: String,
    pub shape: Shape,
    pub trust: Vec<TrustRow>,
    /// None when w·d is too large to simulate here.
    pub measured: Option<Measured>,
    /// Question 3 and the row analysis, from the reference run.
    pub reference: Vec<Sourced>,
    /// nodes × bytes: what a coordinator receives per round.
    pub bytes_to_coordinator: f64,
    pub next_digit: Vec<ShapeRow>,
    pub seed: SeedAdvice,
    pub charts: Vec<String>,
    pub provenance: String,
}

/// The review as Markdown (charts referenced by file name).
pub fn frequency_markdown(r: &FrequencyReview) -> String {
    let i = &r.inputs;
    let x = &r.shape;
    let lede = format!(
        "For ε = {}, δ = {}, a stream of N = {} updates, {} node(s), seed policy `{}`.",
        sig(i.epsilon, 3),
        sig(i.delta, 3),
        count(i.stream_length),
        count(i.merge_nodes),
        i.common.seed_policy.as_str(),
    );
    let mut s = super::opening(
        &r.answer,
        "Frequency design review",
        &lede,
        &r.provenance,
        &r.direction,
    );
    s += &format!(
        "**The sketch:** w = ⌈e/ε⌉ = {} counters per row, d = ⌈ln(1/δ)⌉ = {} rows (guaranteeing ε = {}, δ = {}). A query reads {} cells. Its overshoot exceeds εN = **{}** counts with probability at most δ. Memory: **{}** with {} counters ({} with u32, {} with u64).\n\n",
        count(x.w as f64),
        x.d,
        sig(x.eps_guaranteed, 4),
        sig(x.delta_guaranteed, 4),
        x.d,
        count(x.eps_n),
        bytes(x.bytes),
        x.counter,
        bytes(x.bytes_u32),
        bytes(x.bytes_u64)
    );
    s += "## 2. Which counts can you trust?\n\nThe bound is additive in the stream's total: an item that is a share φ of N is estimated within ±ε/φ of its own count (with probability 1 − δ). Heavy hitters are accurate; rare items are swamped.\n\n| share of N | count | bound on overshoot ÷ count |\n|---|---|---|\n";
    for t in &r.trust {
        s += &format!(
            "| {} | {} | {} |\n",
            pct(t.share, 3),
            count(t.count),
            pct(t.relative_bound, 3)
        );
    }
    s.push('\n');
    if let Some(m) = &r.measured {
        s += &format!(
            "Measured here on a Zipf(s = {}) stream of {} updates over {} keys ({} seen) through this shape: the overshoot exceeded ε·updates for **{}** [{}, {}] of the keys (δ = {}), {} with conservative update; a row's mean overshoot is {} × updates/w; the largest overshoot is {} × ε·updates; {} key(s) underestimated. Another stream shape gives other shares: the bound holds for any, the measurement is for this one.\n\n",
            sig(i.zipf_s, 3),
            count(m.updates as f64),
            count(m.universe as f64),
            count(m.keys_seen as f64),
            pct(m.share_over_eps_n, 3),
            pct(m.share_over_eps_n_lo, 3),
            pct(m.share_over_eps_n_hi, 3),
            sig(i.delta, 3),
            pct(m.conservative_share_over_eps_n, 3),
            sig(m.mean_row_overshoot_over_n_over_w, 4),
            sig(m.max_overshoot_over_eps_n, 3),
            m.underestimates
        );
    } else {
        s += "Not measured: w·d is too large to simulate here.\n\n";
    }
    s += &format!(
        "## 3. What is the maximum N, not the expected one?\n\nεN grows with the stream: the absolute error at N = {} is {} counts, and doubles when the stream does. A cell must hold up to N: that needs {} bits, so **{}** counters ({}). A u32 cell holds 4.29·10^9: {} stream(s) of this length. A saturated counter stops counting and the estimate can then fall below the truth, the one direction Count-Min promised never to err in.\n\n",
        count(i.stream_length),
        count(x.eps_n),
        x.counter_bits_needed,
        x.counter,
        bytes(x.bytes),
        sig(x.u32_headroom, 3)
    );
    s += &sourced_table("from the reference run", &r.reference);
    s += &format!(
        "**Merging:** sketches of the same shape and hash add cell by cell into exactly the sketch of the combined stream; {} node(s) send {} each, {} per round to the coordinator. Conservative update is not mergeable by sums.\n\n",
        count(i.merge_nodes),
        bytes(x.bytes),
        bytes(r.bytes_to_coordinator)
    );
    s += "## 4. What does the next digit of accuracy cost?\n\nMemory is linear in 1/ε (ten times the counters for a tenth of the error) and logarithmic in 1/δ (ln 10 ≈ 2.3 more rows per digit):\n\n| ε | δ | w | d | memory | × yours |\n|---|---|---|---|---|---|\n";
    for row in &r.next_digit {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            sig(row.epsilon, 3),
            sig(row.delta, 3),
            count(row.w as f64),
            row.d,
            bytes(row.bytes),
            sig(row.ratio, 3)
        );
    }
    s.push('\n');
    s += &seed_and_charts(&r.seed, &r.charts);
    s
}
