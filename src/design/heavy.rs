//! `sketchlab design heavy-hitters`: the top-k keys, or every key above a
//! share φ, of a stream the user names (or their own file), under a memory
//! budget or an error target. SpaceSaving, DataSketches' frequent items and
//! Count-Min with a top list (plain and conservative update) are each built
//! at the user's size and measured on the stream: under a budget at the
//! largest size that fits it, ranked by what they find; under an error
//! target walked from their own bound's size to the smallest that meets
//! it by measurement ([`super::ladder`]), ranked by bytes (or speed).

use super::choice::{Choice, Clock, choose};
use super::heavy_measure::{self as hm, Hitter, HitterMeasured, Truth};
use super::{Review, bad, finite, seed_advice, share, within};
use crate::design::render::heavy::{Candidate, HeavyHittersArgs, HeavyReview, StreamInfo};
use crate::design::render::{bytes, count};
use crate::error::Result;
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Point, Series, Style};
use crate::vocab::ItemStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// The longest stream measured (8 bytes an update, and its counts).
const MAX_UPDATES: u64 = 50_000_000;
/// The shortest, unless the stream itself is shorter.
const MIN_UPDATES: u64 = 100_000;
/// Default distinct keys of the drawn streams.
const UNIVERSE: f64 = 1e6;
/// Measurements a ladder may take (error target), for the time plan.
const FEEDS: f64 = 8.0;
const SEED: u64 = 0x6869_7474_6572;

/// The inputs, checked: one line naming the first bad one.
pub fn check(i: &HeavyHittersArgs) -> Result<()> {
    const KIND: &str = "heavy-hitters:";
    let opt = |v: Option<f64>| v.unwrap_or(1.0);
    finite(
        KIND,
        &[
            ("--stream-length", opt(i.stream_length)),
            ("--top", opt(i.top)),
            ("--phi", opt(i.phi)),
            ("--memory", opt(i.memory)),
            ("--error", opt(i.error)),
            ("--zipf-s", i.zipf_s),
            ("--universe", opt(i.universe)),
            ("--measure-seconds", i.measure_seconds),
        ],
    )?;
    if let Some(n) = i.stream_length {
        within(KIND, "--stream-length", n, 1.0, 1.8e19)?;
    }
    if let Some(k) = i.top {
        within(KIND, "--top", k, 1.0, 1e6)?;
        if k.fract() != 0.0 {
            return bad(KIND, format!("--top = {k}: must be a whole number"));
        }
    }
    if let Some(p) = i.phi {
        share(KIND, "--phi", p, 1e-6, 0.5)?;
    }
    if let Some(m) = i.memory {
        within(KIND, "--memory", m, 1024.0, (1u64 << 30) as f64)?;
    }
    if let Some(e) = i.error {
        share(KIND, "--error", e, 1e-7, 0.5)?;
    }
    within(KIND, "--zipf-s", i.zipf_s, 0.01, 10.0)?;
    if let Some(u) = i.universe {
        within(KIND, "--universe", u, 1.0, 1e9)?;
    }
    within(KIND, "--measure-seconds", i.measure_seconds, 1.0, 3600.0)?;
    if i.keys.is_none()
        && let (Some(k), Some(n)) = (i.top, i.stream_length)
        && k > universe(i, n)
    {
        return bad(
            KIND,
            format!(
                "--top = {k}: more than the stream's {} distinct keys (--universe)",
                universe(i, n)
            ),
        );
    }
    Ok(())
}

fn universe(i: &HeavyHittersArgs, n: f64) -> f64 {
    i.universe.unwrap_or(UNIVERSE.min(n)).floor().max(1.0)
}

/// Keys a structure must hold to report the answer: k, or ⌈1/φ⌉ (no more
/// keys than that can exceed a share φ).
fn list_len(i: &HeavyHittersArgs) -> u64 {
    match (i.top, i.phi) {
        (Some(k), _) => k as u64,
        (None, Some(p)) => (1.0 / p).ceil() as u64,
        _ => 1,
    }
}

fn kind(i: &HeavyHittersArgs) -> ItemStream {
    ItemStream::from_name(&i.stream).unwrap_or(ItemStream::Zipf)
}

/// The stream's ns per update at each structure's starting size, on a
/// short prefix: what the time plan divides the budget by.
fn calibrate(i: &HeavyHittersArgs, list: u64, prefix: &[u64]) -> anyhow::Result<f64> {
    let truth = Truth::new(prefix, i.top.map(|k| k as u64), i.phi);
    let mut total = 0.0;
    for &h in Hitter::ALL {
        let (lo, hi) = h.range(list);
        let k = h.norm(start_knob(i, h).clamp(lo, hi));
        // timing only: the bytes are not needed
        total += hm::measure(h, (k, Some(0)), list, prefix, &truth, None)?.ns_per_update;
    }
    Ok(total)
}

/// Where a structure's walk starts: its own bound's size for the error
/// target; under a budget the size is searched, not walked.
fn start_knob(i: &HeavyHittersArgs, h: Hitter) -> u64 {
    h.theory_knob(i.error.unwrap_or(0.001))
}

/// Computes the review (no file is written).
pub fn heavy_hitters(i: &HeavyHittersArgs, reference: &Path) -> Result<HeavyReview> {
    check(i)?;
    let started = Instant::now();
    let clock_start = Clock::start();
    let list = list_len(i);
    let k = kind(i);
    // the user's stream, read (size-bounded, a regular file only) before any work
    let (file_stream, file_records) = match &i.keys {
        Some(path) => {
            let (s, records) =
                super::streams::items_from_file(path, &i.keys_format, MAX_UPDATES, SEED)?;
            (Some(s), Some(records))
        }
        None => (None, None),
    };
    let n = i
        .stream_length
        .or(file_records.map(|r| r as f64))
        .unwrap_or(1.0);
    let d = universe(i, n) as u64;
    let wanted_keys = match (i.top, i.phi) {
        (Some(k), _) => k as u64,
        (_, Some(p)) => (0.5 / p).floor().max(1.0) as u64,
        _ => 1,
    };
    let draw = |m: u64| super::streams::items(k, m, d, i.zipf_s, wanted_keys, SEED);
    let available = file_stream
        .as_ref()
        .map_or(n.min(MAX_UPDATES as f64) as u64, |s| s.len() as u64);
    let prefix_len = available.min(1 << 16);
    let prefix = match &file_stream {
        Some(s) => s[..prefix_len as usize].to_vec(),
        None => draw(prefix_len),
    };
    let ns_all = calibrate(i, list, &prefix).map_err(crate::error::Error::Other)?;
    let feeds = if i.error.is_some() { FEEDS } else { 2.0 };
    let by_time = (0.6 * i.measure_seconds * 1e9 / (feeds * ns_all.max(1.0))) as u64;
    let m = available.min(by_time.max(MIN_UPDATES));
    let stream = match file_stream {
        Some(mut s) => {
            s.truncate(m as usize);
            s
        }
        None => draw(m),
    };
    super::progress(&format!(
        "design heavy-hitters: measuring on {} updates",
        count(m as f64)
    ));
    let truth = Truth::new(&stream, i.top.map(|k| k as u64), i.phi);
    let wide = n > u32::MAX as f64;
    let mut candidates = Vec::new();
    let budget = Duration::from_secs_f64(i.measure_seconds * 0.9);
    for (j, &h) in Hitter::ALL.iter().enumerate() {
        let deadline = super::ladder::deadline(started, budget, j, Hitter::ALL.len());
        super::progress(&format!("  {}", h.as_str()));
        candidates.push(
            candidate(i, h, list, &stream, &truth, wide, deadline)
                .map_err(crate::error::Error::Other)?,
        );
    }
    let (choice, target_met) = rank(i, &candidates);
    let clock = Clock::finish(clock_start);
    let info = StreamInfo {
        kind: match &i.keys {
            Some(p) => format!(
                "your stream ({})",
                crate::export::text::markdown(&p.display().to_string())
            ),
            None => stream_words(i, k, d),
        },
        stream_length: n,
        updates_measured: m,
        universe: (i.keys.is_none() && k != ItemStream::Adversarial).then_some(d),
        distinct_seen: truth.counts.len() as u64,
        wanted: truth.wanted.len() as u64,
        needed: truth.needed(),
        scaled: ((m as f64) < n).then(|| {
            format!(
                "measured on the first {} of the {} updates ({}), so the time budget holds; the error shares are of the updates measured, which for a stream of the same shape is the share of N",
                count(m as f64),
                count(n),
                if m == MAX_UPDATES { "the most this review holds in memory" } else { "what the time budget allows" }
            )
        }),
    };
    let mut r = HeavyReview {
        answer: String::new(),
        inputs: i.clone(),
        wanted_words: wanted_words(i),
        stream: info,
        bytes_method: if crate::metrics::alloc::is_installed() {
            "measured by the counting allocator on a saturated build (the structure fed twice as many distinct keys as it holds): its arrays, hash maps and heaps, as deployed".into()
        } else {
            "the structures' own accounting (SpaceSaving 24 bytes a counter, frequent items' estimated_size, Count-Min's cells and 16 bytes a listed key): the counting allocator is not installed in this build".into()
        },
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
        "Measured on this machine in {:.1} s: every structure built at your size and fed {} ({} updates); bytes {}. Bounds: SpaceSaving N/k, frequent items 3.5·N/M, Count-Min e·N/w.",
        r.seconds,
        r.stream.kind,
        count(m as f64),
        if crate::metrics::alloc::is_installed() {
            "measured by the counting allocator"
        } else {
            "by the structures' own accounting"
        }
    );
    Ok(r)
}

/// One structure: under a budget, the largest size that fits, measured;
/// under an error target, the walk from its bound's size.
fn candidate(
    i: &HeavyHittersArgs,
    h: Hitter,
    list: u64,
    stream: &[u64],
    truth: &Truth,
    wide: bool,
    deadline: Instant,
) -> anyhow::Result<Candidate> {
    if let Some(budget) = i.memory {
        let (chosen, note) = match hm::largest_within(h, list, budget, wide)? {
            Ok((k, b)) => (
                Some(hm::measure(h, (k, Some(b)), list, stream, truth, None)?),
                None,
            ),
            Err(least) => (
                None,
                Some(format!(
                    "does not fit: its smallest configuration that holds {} keys ({}) takes {}",
                    count(list as f64),
                    h.config(h.range(list).0, list),
                    bytes(least as f64)
                )),
            ),
        };
        return Ok(Candidate {
            structure: h.as_str().into(),
            chosen,
            ladder: Vec::new(),
            note,
        });
    }
    let e = i.error.unwrap_or(0.001);
    let steps = super::ladder::walk(
        start_knob(i, h),
        h.range(list),
        |k| h.norm(k),
        deadline,
        |k| {
            let m = hm::measure(h, (k, None), list, stream, truth, Some(e))?;
            let meets = m.meets == Some(true);
            Ok((m, meets))
        },
    )?;
    let ladder = steps.into_iter().map(|s| s.measured).collect();
    Ok(Candidate::from_ladder(h.as_str(), ladder, nearness))
}

/// The order of "nearer the goal": more wanted keys found, then higher
/// precision, then a smaller count error, then fewer bytes.
fn nearness(a: &HitterMeasured, b: &HitterMeasured) -> std::cmp::Ordering {
    a.found
        .cmp(&b.found)
        .then(a.precision.total_cmp(&b.precision))
        .then(b.max_error_share.total_cmp(&a.max_error_share))
        .then(b.bytes.cmp(&a.bytes))
}

/// The choice: under an error target, among those that meet it, by bytes
/// (or speed); under a budget, or when none meets, by nearness.
fn rank(i: &HeavyHittersArgs, cands: &[Candidate]) -> (Choice, bool) {
    let chosen: Vec<&HitterMeasured> = cands.iter().filter_map(|c| c.chosen.as_ref()).collect();
    if i.error.is_some() {
        let meeting: Vec<(String, f64, f64)> = chosen
            .iter()
            .filter(|m| m.meets == Some(true))
            .map(|m| (m.structure.clone(), m.bytes as f64, m.ns_per_update))
            .collect();
        if !meeting.is_empty() {
            return (choose(&meeting, i.common.prefer), true);
        }
    }
    let mut by: Vec<&&HitterMeasured> = chosen.iter().collect();
    by.sort_by(|a, b| nearness(b, a));
    let name = |j: usize| by.get(j).map(|m| m.structure.clone());
    let fastest = chosen
        .iter()
        .min_by(|a, b| a.ns_per_update.total_cmp(&b.ns_per_update))
        .map(|m| m.structure.clone());
    let smallest = chosen
        .iter()
        .min_by_key(|m| m.bytes)
        .map(|m| m.structure.clone());
    (
        Choice {
            prefer: None,
            recommended: name(0),
            runner_up: name(1),
            smallest,
            fastest,
            trade_off: None,
        },
        i.memory.is_some() && by.first().is_some_and(|m| m.recall >= 1.0),
    )
}

fn wanted_words(i: &HeavyHittersArgs) -> String {
    match (i.top, i.phi) {
        (Some(k), _) => format!("the {} most frequent keys", count(k)),
        (_, Some(p)) => format!("every key above {} of the stream", pct(p, 3)),
        _ => String::new(),
    }
}

fn stream_words(i: &HeavyHittersArgs, k: ItemStream, d: u64) -> String {
    match k {
        ItemStream::Zipf => format!("a Zipf(s = {}) stream over {} keys", sig(i.zipf_s, 3), count(d as f64)),
        ItemStream::Sorted => format!(
            "a Zipf(s = {}) stream over {} keys sorted by count, rarest first",
            sig(i.zipf_s, 3),
            count(d as f64)
        ),
        ItemStream::Uniform => format!("a uniform stream over {} keys", count(d as f64)),
        ItemStream::Adversarial => "an adversarial stream (the wanted keys share half of it evenly, interleaved with keys seen once)".into(),
    }
}

/// One measured structure in one line: the terminal's and the answer's.
pub fn line(m: &HitterMeasured) -> String {
    format!(
        "{} ({}): {}, recall {} [{}, {}], precision {}, largest count error {} of N, {} ns per update",
        m.structure,
        m.config,
        bytes(m.bytes as f64),
        pct(m.recall, 3),
        pct(m.recall_lo, 3),
        pct(m.recall_hi, 3),
        pct(m.precision, 3),
        pct(m.max_error_share, 3),
        sig(m.ns_per_update, 3)
    )
}

/// A runner-up in a few words: name, configuration, bytes.
fn brief(m: &HitterMeasured) -> String {
    format!("{} ({}, {})", m.structure, m.config, bytes(m.bytes as f64))
}

/// The answer in one line.
fn answer(r: &HeavyReview) -> String {
    let get = |x: &Option<String>| super::ladder::chosen(&r.candidates, x.as_deref());
    let Some(rec) = get(&r.choice.recommended) else {
        return format!(
            "No structure fits {}: see what each needs.",
            r.inputs.memory.map_or("the target".into(), bytes)
        );
    };
    let on = format!(
        "{} wanted, measured on {} updates of {}",
        r.wanted_words,
        count(r.stream.updates_measured as f64),
        r.stream.kind
    );
    let mut s = match (r.inputs.memory, r.inputs.error) {
        (Some(b), _) => format!("Within {}, use {} ({on})", bytes(b), line(rec)),
        (_, Some(e)) if r.target_met => format!(
            "Use {} ({on}; target: every wanted key found, its count within {} of N)",
            line(rec),
            pct(e, 3)
        ),
        (_, e) => format!(
            "No structure finds every wanted key within a count error of {} of N at the sizes measured; the nearest is {} ({on})",
            pct(e.unwrap_or(0.0), 3),
            line(rec)
        ),
    };
    if let Some(ru) = get(&r.choice.runner_up) {
        s += &format!("; runner-up {}", brief(ru));
    }
    s + "."
}

impl Review for HeavyReview {
    const NAME: &'static str = "heavy_hitters";
    const TITLE: &'static str = "Heavy-hitters design review";
    fn answer(&self) -> &str {
        &self.answer
    }
    fn markdown(&self) -> String {
        crate::design::render::heavy::markdown(self)
    }
    fn charts(&self) -> Vec<Chart> {
        let mut c = Chart::new(
            "hitters_bytes_vs_error",
            "Largest count error (÷ N) against bytes, every size measured",
            "bytes",
            "largest count error ÷ N",
        )
        .log_x()
        .log_y();
        for cand in &self.candidates {
            let pts: Vec<Point> = cand
                .ladder
                .iter()
                .chain(cand.chosen.iter())
                .filter(|m| m.max_error_share > 0.0)
                .map(|m| Point::new(m.bytes as f64, m.max_error_share))
                .collect();
            if !pts.is_empty() {
                c = c.series(Series::new(&cand.structure, Style::Points, pts));
            }
        }
        if let Some(e) = self.inputs.error {
            c = c.hline(e, "target");
        }
        vec![c]
    }
    fn set_charts(&mut self, files: Vec<String>) {
        self.charts = files;
    }
}

/// The terminal lines after the answer: each structure at its size, the
/// choice's extremes, and the clock's warning.
pub fn summary(r: &HeavyReview) -> String {
    let get = |name: &str| super::ladder::chosen(&r.candidates, Some(name)).map(line);
    let s = if r.choice.prefer.is_some() {
        r.choice.lines("structure", "fastest", get)
    } else {
        let mut s = String::new();
        for c in &r.candidates {
            match (&c.chosen, &c.note) {
                (Some(m), _) => s += &format!("  {}\n", line(m)),
                (None, Some(n)) => s += &format!("  {}: {n}\n", c.structure),
                _ => {}
            }
        }
        s
    };
    s + &r.clock.closing(r.stream.scaled.as_deref())
}

#[cfg(test)]
#[path = "heavy_tests.rs"]
mod tests;
