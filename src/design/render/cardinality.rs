//! The cardinality review: the five questions for HyperLogLog distinct
//! counts, kept per group and merged across nodes.

use super::{SeedAdvice, Sourced, bytes, count, seed_and_charts, sourced_table};
use crate::export::markdown::{pct, sig};
use serde::Serialize;

pub use crate::cli::CardinalityArgs;

/// The sketch the target error needs.
#[derive(Clone, Debug, Serialize)]
pub struct Sizing {
    /// (1.04/e)²: what the formula asks for.
    pub registers_formula: f64,
    /// The smallest p with 1.04/√(2^p) ≤ e (registers come in powers of two).
    pub p: u32,
    pub m: u64,
    /// 1.04/√m: the error of any estimate from the registers alone (merged or not).
    pub standard_error: f64,
    /// 0.833/√m: HIP's error, for a sketch that is never merged.
    pub hip_standard_error: f64,
    /// The smallest p whose HIP error is ≤ e (single-node use only).
    pub p_hip: u32,
    /// 6-bit registers: 6m/8 bytes.
    pub bytes_per_sketch: f64,
    /// groups × bytes_per_sketch.
    pub bytes_all_groups: f64,
}

/// Question 2: the exact state against the sketch.
#[derive(Clone, Debug, Serialize)]
pub struct Exact {
    /// Bytes per distinct u64 item in a `HashSet<u64>`, measured here
    /// (None without the counting allocator).
    pub bytes_per_item: Option<f64>,
    pub measured_items: u64,
    /// Distinct items per group above which the sketch is the smaller.
    pub crossover_distinct: Option<f64>,
    /// distinct × bytes_per_item × groups, when --distinct is given.
    pub bytes_all_groups: Option<f64>,
}

/// Merging the nodes' sketches at a coordinator.
#[derive(Clone, Debug, Serialize)]
pub struct Merge {
    pub nodes: f64,
    /// nodes × groups × bytes_per_sketch: what the coordinator receives.
    pub bytes_to_coordinator: f64,
    /// nodes × groups × m register maxima.
    pub register_maxima: f64,
    /// Node sketches merged in the measurement (≤ 200).
    pub nodes_measured: u64,
    /// Whether the merged registers equal a sketch of the union, register for register.
    pub merge_equals_union: Option<bool>,
    /// Median time to merge one node's sketch, this machine.
    pub ns_per_merge: Option<f64>,
}

/// The error measured on simulated sketches at the review's p.
#[derive(Clone, Debug, Serialize)]
pub struct Accuracy {
    pub distinct: u64,
    pub sketches: u64,
    /// RSE of the Ertl estimate (what a merged sketch reports), with its 95% interval.
    pub rse_registers: f64,
    pub rse_registers_lo: f64,
    pub rse_registers_hi: f64,
    /// RSE of HIP on the same, unmerged sketches.
    pub rse_hip: f64,
    pub rse_hip_lo: f64,
    pub rse_hip_hi: f64,
}

/// One row of question 4: the sketch for another target error.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorRow {
    pub target_error: f64,
    pub registers_formula: f64,
    pub p: u32,
    pub bytes_per_sketch: f64,
    /// bytes ÷ the bytes at the user's target, formula and powers of two.
    pub formula_ratio: f64,
    pub ratio: f64,
}

/// A cardinality design review.
#[derive(Clone, Debug, Serialize)]
pub struct CardinalityReview {
    /// The recommendation in one line: what every format opens with.
    pub answer: String,
    pub inputs: CardinalityArgs,
    pub direction: String,
    pub sizing: Sizing,
    pub exact: Exact,
    /// Question 3, from the reference run.
    pub range: Vec<Sourced>,
    pub merge: Merge,
    /// None when p is beyond sketchlab's sketch (p > 18).
    pub accuracy: Option<Accuracy>,
    pub next_digit: Vec<ErrorRow>,
    /// Which sketch: every menu sketch configured for the error, built at
    /// the distinct count and measured.
    pub recommendation: crate::design::sketch_advice::SketchAdvice,
    pub seed: SeedAdvice,
    pub charts: Vec<String>,
    pub provenance: String,
}

/// The review as Markdown (charts referenced by file name).
pub fn cardinality_markdown(r: &CardinalityReview) -> String {
    let i = &r.inputs;
    let z = &r.sizing;
    let lede = format!(
        "For a relative standard error of {}, {} group(s), merged across {} node(s){}, seed policy `{}`.",
        pct(i.error, 3),
        count(i.groups),
        count(i.merge_nodes),
        i.distinct
            .map(|d| format!(", {} distinct items per group", count(d)))
            .unwrap_or_default(),
        i.common.seed_policy.as_str(),
    );
    let mut s = super::opening(
        &r.answer,
        "Cardinality design review",
        &lede,
        &r.provenance,
        &r.direction,
    );
    s += &advice_markdown(&r.recommendation);
    s += &format!(
        "**The chapter's formula, for comparison** (a HyperLogLog of 6-bit registers, not the recommendation above, which is measured): (1.04/e)² = {} registers; registers come in powers of two, so p = {}, m = {} registers: {} per sketch, {} for {} group(s). Its standard error is {} (1.04/√m); HIP on a sketch that is never merged gives {} (0.833/√m), and would reach your target at p = {}.\n\n",
        count(z.registers_formula),
        z.p,
        count(z.m as f64),
        bytes(z.bytes_per_sketch),
        bytes(z.bytes_all_groups),
        count(i.groups),
        pct(z.standard_error, 3),
        pct(z.hip_standard_error, 3),
        z.p_hip
    );
    if let Some(a) = &r.accuracy {
        s += &format!(
            "Measured here on {} simulated sketches of {} distinct items at p = {}: RSE **{}** [{}, {}] from the registers (what a merged sketch reports, Ertl's estimator), **{}** [{}, {}] from HIP.\n\n",
            a.sketches,
            count(a.distinct as f64),
            z.p,
            pct(a.rse_registers, 3),
            pct(a.rse_registers_lo, 3),
            pct(a.rse_registers_hi, 3),
            pct(a.rse_hip, 3),
            pct(a.rse_hip_lo, 3),
            pct(a.rse_hip_hi, 3)
        );
    } else {
        s += &format!(
            "Not measured: p = {} is beyond sketchlab's sketch (p ≤ 18); the figures above are the formulas'.\n\n",
            z.p
        );
    }
    let e = &r.exact;
    s += "## 2. Does it pay? The exact state against the sketch\n\n";
    match (e.bytes_per_item, e.crossover_distinct) {
        (Some(b), Some(x)) => {
            s += &format!(
                "An exact set of u64 ids (`HashSet<u64>`, measured here at {} items) costs {} bytes per distinct item, so the sketch is the smaller above **{} distinct items per group**{}.",
                count(e.measured_items as f64),
                sig(b, 3),
                count(x),
                e.bytes_all_groups
                    .map(|t| format!(
                        "; at your {} per group the exact state is {} against the sketches' {}",
                        count(i.distinct.unwrap_or(0.0)),
                        bytes(t),
                        bytes(z.bytes_all_groups)
                    ))
                    .unwrap_or_default()
            );
            s += " Exact counting in one pass needs Ω(n) bits whatever the algorithm (the exact_state study); the sketch's size does not grow with n.\n\n";
        }
        _ => s += "Not measured: the counting allocator is not installed.\n\n",
    }
    s += "## 3. What is the maximum n, not the expected one?\n\nThe relative error does not depend on n until the 64-bit hash runs out of distinct words; below 2.5m the estimators switch to linear counting, and a naive raw estimator is wrong there. From the reference run (when its claims.csv is found):\n\n";
    s += &sourced_table("what", &r.range);
    let g = &r.merge;
    if g.nodes > 1.0 {
        s += &format!(
            "**Merging:** each of {} node(s) sends {} per group; the coordinator receives {} and takes {} register maxima per round. Merging is exact: the union's sketch is the register-wise maximum{}{}. A merged sketch loses HIP: across nodes the error is the registers' {}, not HIP's {}.\n\n",
            count(g.nodes),
            bytes(z.bytes_per_sketch),
            bytes(g.bytes_to_coordinator),
            count(g.register_maxima),
            match g.merge_equals_union {
                Some(true) => format!(
                    " (checked here: {} node sketches merged equal the union's sketch)",
                    g.nodes_measured
                ),
                Some(false) => format!(
                    " (checked here: {} node sketches merged do NOT equal the union's sketch)",
                    g.nodes_measured
                ),
                None => String::new(),
            },
            g.ns_per_merge
                .map(|ns| format!(
                    "; one merge takes {} µs on this machine (median)",
                    sig(ns / 1e3, 3)
                ))
                .unwrap_or_default(),
            pct(z.standard_error, 3),
            pct(z.hip_standard_error, 3)
        );
    }
    s += "## 4. What does the next digit of accuracy cost?\n\nFour times the memory per halving of the error; a tenth of the error costs 100× by the formula and more in powers of two:\n\n| target error | (1.04/e)² | p | memory per sketch | × formula | × real |\n|---|---|---|---|---|---|\n";
    for row in &r.next_digit {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            pct(row.target_error, 3),
            count(row.registers_formula),
            row.p,
            bytes(row.bytes_per_sketch),
            sig(row.formula_ratio, 3),
            sig(row.ratio, 3)
        );
    }
    s.push('\n');
    s += &seed_and_charts(&r.seed, &r.charts);
    s
}

/// The measured recommendation: one row per sketch, configured and measured.
fn advice_markdown(a: &crate::design::sketch_advice::SketchAdvice) -> String {
    let mut s = format!(
        "## Which sketch? (measured here at your size)\n\nEach sketch is configured as its implementation sizes it (a power of two of registers, bins or entries: the smallest lg_k whose {} estimator's error reaches {}), built at {}, filled with {} and measured over replicates: its RSE with a 95% chi-square interval, the bytes its stored state takes there (sparse or compressed where the implementation does so) and the median ns per insert. Below 10·2^lg_k distinct items, up to four smaller powers of two are tried first, and one is taken only when its whole measured interval lies under the target. A sketch whose whole interval lies above 1.1 × the target is resized and measured again. Each measurement may take {} s (`--measure-seconds`); past that, a register sketch is replayed at your count and any other is streamed at fewer items, as its row says. This took {:.1} s.\n\n| sketch | lg_k | estimator | bytes (measured) | RSE (theory) | RSE measured [95%] | bias | ns per insert | distinct × replicates | how | notes |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
        if a.merges { "merged" } else { "best unmerged" },
        pct(a.target_rse, 3),
        a.distinct
            .map(|d| format!("{} distinct items", count(d)))
            .unwrap_or_else(|| "10·2^lg_k distinct items (no --distinct given)".into()),
        a.keys,
        sig(a.measure_seconds, 3),
        a.seconds,
    );
    for m in &a.measured {
        let notes: Vec<&str> = [
            m.resized.as_str(),
            m.below_theory.as_str(),
            m.scaled.as_str(),
        ]
        .into_iter()
        .filter(|x| !x.is_empty())
        .collect();
        s += &format!(
            "| {} | {} | {}{} | {} | {} | {} [{}, {}] | {} | {} | {} × {} | {} | {} |\n",
            m.structure,
            m.lg_k,
            m.estimator,
            if m.merged { " (merged)" } else { "" },
            bytes(m.bytes as f64),
            pct(m.rse_theory, 3),
            pct(m.rse, 3),
            pct(m.rse_lo, 3),
            pct(m.rse_hi, 3),
            pct(m.bias, 2),
            sig(m.insert_ns, 3),
            count(m.distinct as f64),
            m.replicates,
            m.method,
            notes.join("; ")
        );
    }
    for l in &a.left_out {
        s += &format!(
            "| {} | — | — | — | — | — | — | — | — | — | left out: {} |\n",
            l.structure, l.why
        );
    }
    if a.measured.iter().any(|m| m.method == "replayed") {
        s += &format!(
            "\n*replayed*: {}.\n",
            crate::design::measure_sketch::REPLAYED
        );
    }
    s += &super::choice_markdown(&a.choice, "fastest insert");
    if !a.target_met {
        s += &format!(
            "No sketch reaches {} at any lg_k its implementation offers (each row's note gives its largest); the choice is the nearest by measured RSE.\n\n",
            pct(a.target_rse, 3)
        );
    }
    s += "Bytes and errors are measured, not scaled from an asymptotic constant.\n\n";
    let w = a.clock.warning();
    if !w.is_empty() {
        s += &format!("**Warning.** {w}\n\n");
    }
    s
}
