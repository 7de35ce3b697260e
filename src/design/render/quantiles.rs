//! The quantiles review: which sketch answers the quantiles asked to the
//! target, at what size, measured.

use super::{SeedAdvice, bytes, count, seed_and_charts};
use crate::design::choice::{Choice, Clock};
use crate::design::quantile_measure::QuantMeasured;
use crate::export::markdown::{pct, sig};
use serde::Serialize;

pub use crate::cli::QuantilesArgs;

/// One sketch: the size chosen and every size measured on the way.
pub type QuantCandidate = crate::design::ladder::Candidate<QuantMeasured>;

/// A quantiles design review.
#[derive(Clone, Debug, Serialize)]
pub struct QuantilesReview {
    /// The recommendation in one line: what every format opens with.
    pub answer: String,
    pub inputs: QuantilesArgs,
    pub stream_words: String,
    pub values_measured: u64,
    /// Distinct streams measured (the worst of them qualifies).
    pub streams: u64,
    /// Sketches each stream was split across and merged from.
    pub nodes_measured: u64,
    /// The ranks REQ was built to be accurate at.
    pub req_accuracy: String,
    pub scaled: Option<String>,
    pub candidates: Vec<QuantCandidate>,
    #[serde(flatten)]
    pub choice: Choice,
    pub target_met: bool,
    pub clock: Clock,
    pub seconds: f64,
    pub seed: SeedAdvice,
    pub provenance: String,
    pub charts: Vec<String>,
}

const DIRECTION: &str = "A quantile sketch errs both ways: its answer is a value whose true rank is off from q (KLL and REQ bound that rank error, REQ relative to the tail 1 − q), or off from the true quantile's value by a share (DDSketch bounds that relative error by α while its bins last). The t-digests bound neither: their error is small at the tails by construction and measured here. Nothing behind the sketch catches a wrong p99: the measurement below, at your quantiles and on your stream's shape, is the check.";

fn row(i: &QuantilesArgs, m: &QuantMeasured) -> String {
    let at = |v: &[f64]| v.iter().map(|e| pct(*e, 3)).collect::<Vec<_>>().join(" / ");
    format!(
        "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
        m.structure,
        m.config,
        bytes(m.bytes as f64),
        at(&m.rank_error_at),
        at(&m.relative_error_at),
        sig(m.ns_per_update, 3),
        m.node_bytes
            .map_or("—".into(), |b| bytes(b as f64 * i.merge_nodes)),
        if m.meets { "yes" } else { "no" }
    )
}

/// The review as Markdown (charts referenced by file name).
pub fn markdown(r: &QuantilesReview) -> String {
    let i = &r.inputs;
    let qs: Vec<String> = i.quantiles.iter().map(|q| sig(*q, 6)).collect();
    let target = match (i.rank_error, i.relative_error) {
        (Some(e), _) => format!("a rank error of at most {}", pct(e, 3)),
        (_, Some(a)) => format!("a relative value error of at most {}", pct(a, 3)),
        _ => String::new(),
    };
    let lede = format!(
        "Quantiles q = {} of N = {} values, to {target}{}; seed policy `{}`.",
        qs.join(", "),
        count(i.stream_length.unwrap_or(r.values_measured as f64)),
        if i.merge_nodes > 1.0 {
            format!(", merged from {} nodes", count(i.merge_nodes))
        } else {
            String::new()
        },
        i.common.seed_policy.as_str()
    );
    let mut s = super::opening(
        &r.answer,
        "Quantiles design review",
        &lede,
        &r.provenance,
        DIRECTION,
    );
    let header = format!(
        "| sketch | configuration | bytes | rank error at {q} | relative error at {q} | ns per value | {} | meets |\n|---|---|---|---|---|---|---|---|\n",
        if i.merge_nodes > 1.0 {
            "nodes send"
        } else {
            "nodes send (no merging)"
        },
        q = qs.join(" / ")
    );
    s += &format!(
        "## 2. Which sketch?\n\nEach sketch at the smallest size that meets the target on every stream measured (or the nearest measured), its error the worst over {} stream(s). REQ is built accurate at {}.\n\n{header}",
        r.streams, r.req_accuracy
    );
    for c in &r.candidates {
        if let Some(m) = &c.chosen {
            s += &row(i, m);
        }
    }
    s.push('\n');
    for c in &r.candidates {
        if let Some(n) = &c.note {
            s += &format!("- {}: {n}\n", c.structure);
        }
    }
    s += &super::choice_markdown(&r.choice, "fastest");
    let w = r.clock.warning();
    if !w.is_empty() {
        s += &format!("{w}\n\n");
    }
    s += "## 3. What does the next digit of accuracy cost?\n\nEvery size measured: each sketch starts where its own rule puts the target (KLL: the smallest k whose published normalized rank error meets a rank target; DDSketch: α = a relative target) or at its default, halves while the measurement meets the target and doubles while it does not, then bisects the gap.\n\n";
    s += &header;
    for c in &r.candidates {
        for m in &c.ladder {
            s += &row(i, m);
        }
    }
    s.push('\n');
    s += &format!(
        "## 4. Which stream was this measured on?\n\n{}: {} values a stream{}. A sketch's error depends on the stream's shape: sorted input, heavy tails and values crowding at one scale (`--stream adversarial`) are where the t-digests and DDSketch's bins differ most from KLL's rank guarantee; `--values FILE` measures your own.\n\n",
        r.stream_words,
        count(r.values_measured as f64),
        if r.nodes_measured > 1 {
            format!(
                ", each split into {} contiguous parts whose sketches were merged (the nodes' streams in time order){}",
                r.nodes_measured,
                if (r.nodes_measured as f64) < i.merge_nodes {
                    format!(
                        "; {} nodes were asked for, {} measured",
                        count(i.merge_nodes),
                        r.nodes_measured
                    )
                } else {
                    String::new()
                }
            )
        } else {
            String::new()
        }
    );
    if let Some(sc) = &r.scaled {
        s += &format!("Scaled: {sc}.\n\n");
    }
    s += &seed_and_charts(&r.seed, &r.charts);
    s
}
