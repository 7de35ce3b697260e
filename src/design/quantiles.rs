//! `sketchlab design quantiles`: the quantiles a user asks for (p50, p99,
//! …) to a rank or a relative value error, on a stream they name or their
//! own values, merged across nodes when asked. sketchlab's t-digest,
//! DataSketches' t-digest, KLL and REQ, and DDSketch are each walked from
//! their own rule's size to the smallest that meets the target by
//! measurement ([`super::ladder`]) and ranked by bytes (or speed).

use super::choice::{Choice, Clock, choose};
use super::quantile_measure::{self as qm, Quant, QuantMeasured, Streams, Target};
use super::{Review, bad, finite, seed_advice, share, within};
use crate::design::render::quantiles::{QuantCandidate, QuantilesArgs, QuantilesReview};
use crate::design::render::{bytes, count};
use crate::error::{Error, Result};
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Point, Series, Style};
use crate::vocab::Dist;
use datasketches::req::RankAccuracy;
use std::path::Path;
use std::time::{Duration, Instant};

/// The longest stream measured, and the shortest unless the stream is.
const MAX_VALUES: u64 = 10_000_000;
const MIN_VALUES: u64 = 100_000;
/// Streams per measurement (the worst of them is what qualifies).
const STREAMS: u64 = 3;
/// Measurements a walk may take, for the time plan.
const FEEDS: f64 = 8.0;
/// Nodes simulated at most (each merges into one sketch).
const MAX_NODES: u64 = 64;
const SEED: u64 = 0x7175_616e_7473;

/// The inputs, checked: one line naming the first bad one.
pub fn check(i: &QuantilesArgs) -> Result<()> {
    const KIND: &str = "quantiles:";
    let opt = |v: Option<f64>| v.unwrap_or(0.5);
    finite(
        KIND,
        &[
            ("--stream-length", opt(i.stream_length)),
            ("--rank-error", opt(i.rank_error)),
            ("--relative-error", opt(i.relative_error)),
            ("--merge-nodes", i.merge_nodes),
            ("--measure-seconds", i.measure_seconds),
        ],
    )?;
    if let Some(n) = i.stream_length {
        within(KIND, "--stream-length", n, 1.0, 1.8e19)?;
    }
    if let Some(e) = i.rank_error {
        share(KIND, "--rank-error", e, 1e-7, 0.5)?;
    }
    if let Some(a) = i.relative_error {
        if !(a > 0.0 && a < 1.0) {
            return bad(KIND, format!("--relative-error = {a}: must be in (0, 1)"));
        }
        within(KIND, "--relative-error", a, 1e-5, 1.0)?;
    }
    if i.quantiles.is_empty() || i.quantiles.len() > 16 {
        return bad(KIND, "--quantiles: between 1 and 16 of them".into());
    }
    for &q in &i.quantiles {
        if !(q > 0.0 && q < 1.0) {
            return bad(KIND, format!("--quantiles: {q} must be in (0, 1)"));
        }
    }
    within(KIND, "--merge-nodes", i.merge_nodes, 1.0, 1e6)?;
    within(KIND, "--measure-seconds", i.measure_seconds, 1.0, 3600.0)?;
    Ok(())
}

/// REQ's accuracy where the quantiles asked are: low ranks when every one
/// is below the median, else high ranks (tail latencies).
fn accuracy(qs: &[f64]) -> RankAccuracy {
    if qs.iter().all(|&q| q < 0.5) {
        RankAccuracy::LowRank
    } else {
        RankAccuracy::HighRank
    }
}

/// Computes the review (no file is written).
pub fn quantiles(i: &QuantilesArgs, reference: &Path) -> Result<QuantilesReview> {
    check(i)?;
    let started = Instant::now();
    let clock_start = Clock::start();
    let dist = Dist::from_name(&i.stream).unwrap_or(Dist::Lognormal);
    // the user's values, read (size-bounded, a regular file only) before any work
    let file = match &i.values {
        Some(p) => Some(super::streams::values_from_file(p, MAX_VALUES)?),
        None => None,
    };
    let n = i
        .stream_length
        .or(file.as_ref().map(|f| f.1 as f64))
        .unwrap_or(1.0);
    let available = file
        .as_ref()
        .map_or(n.min(MAX_VALUES as f64) as u64, |f| f.0.len() as u64);
    let draw = |m: u64, r: u64| match &file {
        Some((v, _)) => v[..m as usize].to_vec(),
        None => super::streams::values(dist, m, SEED ^ r),
    };
    let mut target = Target {
        quantiles: i.quantiles.clone(),
        rank_error: i.rank_error,
        relative_error: i.relative_error,
        nodes: 1,
        accuracy: accuracy(&i.quantiles),
    };
    // the time plan: ns per value of every sketch at its starting size
    let prefix = Streams::new(vec![draw(available.min(1 << 16), 0)]);
    let mut ns_all = 0.0;
    for &q in Quant::ALL {
        let k = q.norm(q.start(i.rank_error, i.relative_error));
        ns_all += qm::measure(q, k, &prefix, &target)
            .map_err(Error::Other)?
            .ns_per_update;
    }
    let by_time =
        (0.6 * i.measure_seconds * 1e9 / (FEEDS * STREAMS as f64 * ns_all.max(1.0))) as u64;
    let m = available.min(by_time.max(MIN_VALUES));
    target.nodes = (i.merge_nodes as u64).min(MAX_NODES).min((m / 1000).max(1));
    let streams = Streams::new((0..STREAMS).map(|r| draw(m, r)).collect());
    super::progress(&format!(
        "design quantiles: measuring on {} streams of {} values",
        STREAMS,
        count(m as f64)
    ));
    let budget = Duration::from_secs_f64(i.measure_seconds * 0.9);
    let mut candidates = Vec::new();
    for (j, &q) in Quant::ALL.iter().enumerate() {
        let deadline = super::ladder::deadline(started, budget, j, Quant::ALL.len());
        super::progress(&format!("  {}", q.as_str()));
        let steps = super::ladder::walk(
            q.start(i.rank_error, i.relative_error),
            q.range(),
            |k| q.norm(k),
            deadline,
            |k| {
                let m = qm::measure(q, k, &streams, &target)?;
                let meets = m.meets;
                Ok((m, meets))
            },
        )?;
        let ladder = steps.into_iter().map(|s| s.measured).collect();
        candidates.push(QuantCandidate::from_ladder(q.as_str(), ladder, |a, b| {
            metric(i, b).total_cmp(&metric(i, a))
        }));
    }
    let (choice, target_met) = rank(i, &candidates);
    let clock = Clock::finish(clock_start);
    let scaled = ((m as f64) < n).then(|| {
        format!(
            "measured on {} values of the {} ({}); a quantile sketch's rank error depends on its size far more than on n, and the review says so where it matters",
            count(m as f64),
            count(n),
            if m == MAX_VALUES { "the most this review holds in memory" } else { "what the time budget allows" }
        )
    });
    let mut r = QuantilesReview {
        answer: String::new(),
        inputs: i.clone(),
        stream_words: match &i.values {
            Some(p) => format!(
                "your values ({})",
                crate::export::text::markdown(&p.display().to_string())
            ),
            None => dist_words(dist),
        },
        values_measured: m,
        streams: if file.is_some() { 1 } else { STREAMS },
        nodes_measured: target.nodes,
        req_accuracy: match target.accuracy {
            RankAccuracy::HighRank => "high ranks",
            RankAccuracy::LowRank => "low ranks",
        }
        .into(),
        scaled,
        candidates,
        choice,
        target_met,
        clock,
        seconds: started.elapsed().as_secs_f64(),
        seed: seed_advice(i.common.seed_policy, reference, &[]),
        provenance: String::new(),
        charts: Vec::new(),
    };
    r.answer = answer(&r);
    r.provenance = format!(
        "Measured on this machine in {:.1} s: every sketch fed {} ({} values{}), scored at every quantile asked against the exact quantiles; bytes are the serialized state (what is stored or sent).",
        r.seconds,
        r.stream_words,
        count(m as f64),
        if target.nodes > 1 {
            format!(", split across {} sketches and merged", target.nodes)
        } else {
            String::new()
        }
    );
    Ok(r)
}

/// The measured error the target is about.
pub fn metric(i: &QuantilesArgs, m: &QuantMeasured) -> f64 {
    if i.rank_error.is_some() {
        m.rank_error
    } else {
        m.relative_error
    }
}

/// Among those that meet the target, by bytes (or speed); when none does,
/// by the measured error.
fn rank(i: &QuantilesArgs, cands: &[QuantCandidate]) -> (Choice, bool) {
    let chosen: Vec<&QuantMeasured> = cands.iter().filter_map(|c| c.chosen.as_ref()).collect();
    let meeting: Vec<(String, f64, f64)> = chosen
        .iter()
        .filter(|m| m.meets)
        .map(|m| (m.structure.clone(), m.bytes as f64, m.ns_per_update))
        .collect();
    if !meeting.is_empty() {
        return (choose(&meeting, i.common.prefer), true);
    }
    let mut by = chosen.clone();
    by.sort_by(|a, b| metric(i, a).total_cmp(&metric(i, b)));
    let all: Vec<(String, f64, f64)> = chosen
        .iter()
        .map(|m| (m.structure.clone(), m.bytes as f64, m.ns_per_update))
        .collect();
    let mut c = choose(&all, i.common.prefer);
    c.recommended = by.first().map(|m| m.structure.clone());
    c.runner_up = by.get(1).map(|m| m.structure.clone());
    c.trade_off = None;
    (c, false)
}

fn dist_words(d: Dist) -> String {
    match d {
        Dist::Uniform => "uniform(0, 1) values".into(),
        Dist::Normal => "normal(0, 1) values".into(),
        Dist::Lognormal => "log-normal(0, 1) values (a latency's shape)".into(),
        Dist::Pareto => "Pareto(1, 1.5) values (a heavy tail)".into(),
        Dist::Sorted => "log-normal values in ascending order".into(),
        Dist::ReverseSorted => "log-normal values in descending order".into(),
        Dist::Adversarial => {
            "adversarial values (10^12 − 10^(12(1 − u)): crowding towards 10^12 at every scale)"
                .into()
        }
    }
}

/// One measured sketch in one line.
pub fn line(i: &QuantilesArgs, m: &QuantMeasured) -> String {
    let (what, target) = match (i.rank_error, i.relative_error) {
        (Some(e), _) => ("rank error", e),
        (_, a) => ("relative error", a.unwrap_or(0.0)),
    };
    format!(
        "{} ({}): {}, worst {what} {} (target {}), {} ns per value",
        m.structure,
        m.config,
        bytes(m.bytes as f64),
        pct(metric(i, m), 3),
        pct(target, 3),
        sig(m.ns_per_update, 3)
    )
}

fn answer(r: &QuantilesReview) -> String {
    let i = &r.inputs;
    let get = |x: &Option<String>| super::ladder::chosen(&r.candidates, x.as_deref());
    let Some(rec) = get(&r.choice.recommended) else {
        return "No sketch could be measured: see what was left out and why.".into();
    };
    let qs: Vec<String> = i.quantiles.iter().map(|q| sig(*q, 6)).collect();
    let on = format!(
        "at q = {}, measured on {} values of {}{}",
        qs.join(", "),
        count(r.values_measured as f64),
        r.stream_words,
        if r.nodes_measured > 1 {
            format!(", merged from {} sketches", r.nodes_measured)
        } else {
            String::new()
        }
    );
    let mut s = if r.target_met {
        format!("Use {} ({on})", line(i, rec))
    } else {
        format!(
            "No sketch meets the target at the sizes measured; the nearest is {} ({on})",
            line(i, rec)
        )
    };
    if i.merge_nodes > 1.0
        && let Some(nb) = rec.node_bytes
    {
        s += &format!(
            "; {} nodes send {} to the coordinator",
            count(i.merge_nodes),
            bytes(nb as f64 * i.merge_nodes)
        );
    }
    if let Some(ru) = get(&r.choice.runner_up) {
        s += &format!(
            "; runner-up {} ({}, {}, worst {})",
            ru.structure,
            ru.config,
            bytes(ru.bytes as f64),
            pct(metric(i, ru), 3)
        );
    }
    s + "."
}

/// The terminal lines after the answer.
pub fn summary(r: &QuantilesReview) -> String {
    let get =
        |name: &str| super::ladder::chosen(&r.candidates, Some(name)).map(|m| line(&r.inputs, m));
    let mut s = r.choice.lines("sketch", "fastest", get);
    for c in r.candidates.iter().filter(|c| c.note.is_some()) {
        s += &format!("  {}: {}\n", c.structure, c.note.as_deref().unwrap_or(""));
    }
    s + &r.clock.closing(r.scaled.as_deref())
}

impl Review for QuantilesReview {
    const NAME: &'static str = "quantiles";
    const TITLE: &'static str = "Quantiles design review";
    fn answer(&self) -> &str {
        &self.answer
    }
    fn markdown(&self) -> String {
        crate::design::render::quantiles::markdown(self)
    }
    fn charts(&self) -> Vec<Chart> {
        let rank = self.inputs.rank_error.is_some();
        let mut c = Chart::new(
            "quantiles_bytes_vs_error",
            "Worst error at the quantiles asked against bytes, every size measured",
            "bytes (serialized)",
            if rank {
                "worst rank error"
            } else {
                "worst relative error"
            },
        )
        .log_x()
        .log_y();
        for cand in &self.candidates {
            let pts: Vec<Point> = cand
                .ladder
                .iter()
                .map(|m| (m.bytes as f64, metric(&self.inputs, m)))
                .filter(|(_, e)| *e > 0.0 && e.is_finite())
                .map(|(b, e)| Point::new(b, e))
                .collect();
            if !pts.is_empty() {
                c = c.series(Series::new(&cand.structure, Style::Points, pts));
            }
        }
        let t = self
            .inputs
            .rank_error
            .or(self.inputs.relative_error)
            .unwrap_or(0.0);
        vec![c.hline(t, "target")]
    }
    fn set_charts(&mut self, files: Vec<String>) {
        self.charts = files;
    }
}

#[cfg(test)]
#[path = "quantiles_tests.rs"]
mod tests;
