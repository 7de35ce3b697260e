//! The heavy-hitters review: which structure finds the wanted keys of the
//! user's stream, at what size, measured.

use super::{SeedAdvice, bytes, count, seed_and_charts};
use crate::design::choice::{Choice, Clock};
use crate::design::heavy_measure::HitterMeasured;
use crate::export::markdown::{pct, sig};
use serde::Serialize;

pub use crate::cli::HeavyHittersArgs;

/// The stream the structures were measured on.
#[derive(Clone, Debug, Serialize)]
pub struct StreamInfo {
    pub kind: String,
    /// N as asked (or the file's records).
    pub stream_length: f64,
    pub updates_measured: u64,
    /// The distinct keys a drawn stream draws from (None: a file, or the
    /// adversarial stream).
    pub universe: Option<u64>,
    pub distinct_seen: u64,
    /// The wanted keys in the measured stream (ties at the k-th count kept),
    /// and how many a right answer names.
    pub wanted: u64,
    pub needed: u64,
    /// Why fewer updates than N were measured, when they were.
    pub scaled: Option<String>,
}

/// One structure: the size chosen and every size measured on the way.
pub type Candidate = crate::design::ladder::Candidate<HitterMeasured>;

/// A heavy-hitters design review.
#[derive(Clone, Debug, Serialize)]
pub struct HeavyReview {
    /// The recommendation in one line: what every format opens with.
    pub answer: String,
    pub inputs: HeavyHittersArgs,
    pub wanted_words: String,
    pub stream: StreamInfo,
    pub bytes_method: String,
    pub candidates: Vec<Candidate>,
    #[serde(flatten)]
    pub choice: Choice,
    /// Error target: some structure meets it. Budget: the recommended one
    /// finds every wanted key.
    pub target_met: bool,
    pub clock: Clock,
    pub seconds: f64,
    pub seed: SeedAdvice,
    pub provenance: String,
    pub charts: Vec<String>,
}

const DIRECTION: &str = "The counter structures (SpaceSaving, frequent items) hold a few keys with counts that never fall below the truth and exceed it by at most their bound (N/k, 3.5·N/M); every key above the bound is held, so a wanted key is missed only when the bound is above its count. Count-Min with a top list overestimates by at most e·N/w with probability 1 − e^−4, and the list keeps the keys of highest estimate seen so far, so a light key whose cells collide with heavy ones can take a wanted key's place. None of them names the keys it dropped: nothing behind the structure catches a miss, so recall is measured below, not assumed.";

/// `--prefer` as the review's ranking words.
fn ranked_by(c: &Choice) -> &'static str {
    match c.prefer {
        Some(crate::vocab::Prefer::Bytes) => "bytes, among those that meet the target",
        Some(crate::vocab::Prefer::Speed) => "speed, among those that meet the target",
        None => "what they find: wanted keys found, then precision, then count error, then bytes",
    }
}

fn row(m: &HitterMeasured) -> String {
    format!(
        "| {} | {} | {} | {}/{} | {} [{}, {}] | {} | {} | {} | {} | {} |\n",
        m.structure,
        m.config,
        bytes(m.bytes as f64),
        count(m.found as f64),
        count(m.reported as f64),
        pct(m.recall, 3),
        pct(m.recall_lo, 3),
        pct(m.recall_hi, 3),
        pct(m.precision, 3),
        pct(m.max_error_share, 3),
        pct(m.bound_share, 3),
        sig(m.ns_per_update, 3),
        match m.meets {
            Some(true) => "yes",
            Some(false) => "no",
            None => "—",
        }
    )
}

const HEADER: &str = "| structure | configuration | bytes | found/reported | recall | precision | largest count error ÷ N | bound ÷ N | ns per update | meets |\n|---|---|---|---|---|---|---|---|---|---|\n";

/// The review as Markdown (charts referenced by file name).
pub fn markdown(r: &HeavyReview) -> String {
    let i = &r.inputs;
    let target = match (i.memory, i.error) {
        (Some(b), _) => format!("a memory budget of {}", bytes(b)),
        (_, Some(e)) => format!(
            "every wanted key found with its count within {} of N",
            pct(e, 3)
        ),
        _ => String::new(),
    };
    let lede = format!(
        "Wanted: {} of a stream of N = {} updates, under {target}; seed policy `{}`.",
        r.wanted_words,
        count(r.stream.stream_length),
        i.common.seed_policy.as_str()
    );
    let mut s = super::opening(
        &r.answer,
        "Heavy-hitters design review",
        &lede,
        &r.provenance,
        DIRECTION,
    );
    s += &format!(
        "## 2. Which structure?\n\nEach structure at the size {}, ranked by {}. Bytes: {}.\n\n{HEADER}",
        if i.memory.is_some() {
            "that fills the budget"
        } else {
            "that meets the target by measurement (or the nearest measured)"
        },
        ranked_by(&r.choice),
        r.bytes_method
    );
    for c in &r.candidates {
        if let Some(m) = &c.chosen {
            s += &row(m);
        }
    }
    s.push('\n');
    for c in &r.candidates {
        if let Some(n) = &c.note {
            s += &format!("- {}: {n}\n", c.structure);
        }
    }
    if r.candidates.iter().any(|c| c.note.is_some()) {
        s.push('\n');
    }
    if r.choice.prefer.is_some() {
        s += &super::choice_markdown(&r.choice, "fastest");
    } else {
        let name = |x: &Option<String>| x.clone().unwrap_or_else(|| "none".into());
        s += &format!(
            "**Choice** (by what they find): **{}**, runner-up {}; smallest {}, fastest {}.\n\n",
            name(&r.choice.recommended),
            name(&r.choice.runner_up),
            name(&r.choice.smallest),
            name(&r.choice.fastest)
        );
    }
    let w = r.clock.warning();
    if !w.is_empty() {
        s += &format!("{w}\n\n");
    }
    if r.candidates.iter().any(|c| !c.ladder.is_empty()) {
        s += "## 3. What does a smaller or larger structure do?\n\nEvery size measured on the way to the target: each structure starts at the size its own bound gives for the target, halves while the measurement meets it and doubles while it does not, then bisects the gap. A bound is a worst case; on a skewed stream the measured error is often far below it, and the smallest size that meets the target is what the measurement shows, not the bound.\n\n";
        s += HEADER;
        for c in &r.candidates {
            for m in &c.ladder {
                s += &row(m);
            }
        }
        s.push('\n');
    }
    let st = &r.stream;
    s += &format!(
        "## 4. Which stream was this measured on?\n\n{}: {} updates measured of N = {}, {} distinct keys seen{}; {} wanted key(s) in it ({} in a right answer: {}). The measurement holds for this stream's shape: a flatter stream has fewer keys far above the rest, and a heavy key is then harder to separate from the churn (`--stream uniform` shows the flattest, `--stream adversarial` the churn, `--keys FILE` your own).\n\n",
        st.kind,
        count(st.updates_measured as f64),
        count(st.stream_length),
        count(st.distinct_seen as f64),
        st.universe
            .map(|u| format!(" (drawn from {})", count(u as f64)))
            .unwrap_or_default(),
        count(st.wanted as f64),
        count(st.needed as f64),
        r.wanted_words
    );
    if let Some(sc) = &st.scaled {
        s += &format!("Scaled: {sc}.\n\n");
    }
    s += &seed_and_charts(&r.seed, &r.charts);
    s
}
