//! The measured recommendation for distinct counts: every sketch of the
//! menu ([`Sketch`]) configured as its implementation sizes it (a power of
//! two of registers, bins or entries: the smallest lg_k whose estimator's
//! error reaches the target, the merged estimator's when nodes merge, or a
//! smaller one measured to reach it at a small distinct count), built at
//! the user's distinct count, filled and measured over replicates (its RSE
//! with a chi-square interval, the bytes its serialized state actually
//! takes there, sparse or compressed, and ns per insert), resized when the
//! whole interval lies past the target's margin, then ranked by the bytes
//! measured. A count whose replicates do not fit the time budget is
//! replayed at full size for the register sketches
//! ([`crate::structures::menu::replay`]) and streamed at fewer items for
//! the others.

use super::measure::Left;
use crate::export::markdown::pct;
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::structures::Cardinality;
use crate::structures::menu::Sketch;
use serde::Serialize;
use std::time::Instant;

const MIN_REPLICATES: u64 = 20;
const MAX_REPLICATES: u64 = 200;
/// Distinct items of the streamed pilot that prices an insert.
const PILOT_DISTINCT: u64 = 200_000;
/// Powers of two below the asymptotic choice tried at a small distinct count.
const BELOW_THEORY: u32 = 4;
/// A measured RSE counts as above the target when its whole interval lies
/// past target × this (the ledger's materiality margin, as for filters).
const MARGIN: f64 = 1.1;
/// Confidence of the RSE interval.
const CONFIDENCE: f64 = 0.95;
const SEED: u64 = 0x5eed_ca7d;
/// What a replayed measurement is, in one sentence.
pub const REPLAYED: &str = "replayed at your distinct count, not streamed (it does not fit --measure-seconds): each replicate is fed only the words of Poisson(n) ideal 64-bit hashes that can change its state, in stream order, so every estimator (HIP and the martingale too) sees what it would on the stream; its error is taken against that stream's own distinct count, and ns per insert comes from a streamed pilot";

/// RSE of relative errors around 0, with its chi-square interval (as for a
/// standard deviation, n degrees of freedom: `sd_interval` takes n + 1).
pub fn rse(rel: &[f64], confidence: f64) -> (f64, f64, f64) {
    let r = (rel.iter().map(|x| x * x).sum::<f64>() / rel.len() as f64).sqrt();
    let iv = crate::stats::sd_interval(r, rel.len() + 1, confidence);
    (r, iv.lo, iv.hi)
}

/// One sketch, configured and measured.
#[derive(Clone, Debug, Serialize)]
pub struct SketchMeasured {
    pub structure: String,
    /// The estimator read: the merged one when nodes merge, else the
    /// sketch's best on a sketch never merged.
    pub estimator: String,
    /// log2 of registers / bins / nominal entries, as configured.
    pub lg_k: u32,
    /// The largest lg_k its implementation accepts ([`Sketch::max_lg_k`]).
    pub lg_k_max: u32,
    /// Why it falls short of the target ("" when it meets it): no lg_k up
    /// to its implementation's maximum reaches it, and this is the nearest.
    pub short_of_target: String,
    /// The estimator's asymptotic RSE at lg_k (theory).
    pub rse_theory: f64,
    /// Why lg_k is past the theory's choice ("" when it is not).
    pub resized: String,
    /// Why lg_k is below the theory's choice ("" when it is not): measured
    /// under the target at the user's distinct count, and what that means
    /// for a sketch that later sees more.
    pub below_theory: String,
    /// Distinct items per sketch measured (the user's unless scaled; the
    /// mean of a replayed stream's Poisson count).
    pub distinct: u64,
    /// Why the distinct count is not the user's ("" when it is).
    pub scaled: String,
    /// "streamed" (keys inserted) or "replayed" (the state-changing words
    /// of Poisson(distinct) ideal hashes, in stream order: [`replay`]).
    ///
    /// [`replay`]: crate::structures::menu::replay
    pub method: &'static str,
    pub replicates: u64,
    /// Whether each replicate's estimate is of two node sketches merged.
    pub merged: bool,
    pub rse: f64,
    pub rse_lo: f64,
    pub rse_hi: f64,
    /// Mean relative error (bias).
    pub bias: f64,
    /// The largest stored (serialized) bytes over the replicates.
    pub bytes: u64,
    /// Median ns per insert over the streamed replicates (a replayed
    /// sketch: over the streamed pilot of [`PILOT_DISTINCT`] items).
    pub insert_ns: f64,
}

/// The estimator a sketch answers with: the merged one when `merges`,
/// else its most accurate one never merged (by theory).
pub fn estimator(s: Sketch, merges: bool) -> &'static str {
    if merges {
        return s.merged_estimator();
    }
    s.estimators()
        .iter()
        .copied()
        .min_by(|a, b| {
            let e = |x| s.rse_theory(x, 12).unwrap_or(f64::INFINITY);
            e(a).total_cmp(&e(b))
        })
        .unwrap_or(s.merged_estimator())
}

/// The smallest lg_k (4 up to the implementation's own maximum,
/// [`Sketch::max_lg_k`]) whose estimator's RSE reaches `target`.
pub fn lg_k_for(s: Sketch, est: &str, target: f64) -> Option<u32> {
    (4..=s.max_lg_k()).find(|&k| s.rse_theory(est, k).is_some_and(|e| e <= target))
}

/// What one measurement did and found.
struct Measurement {
    n: u64,
    reps: u64,
    method: &'static str,
    rse: (f64, f64, f64),
    bias: f64,
    bytes: u64,
    insert_ns: f64,
}

/// Streams `reps` sketches of `n` distinct keys (two node sketches of
/// overlapping halves, merged, when `merged`): relative errors, the
/// largest bytes, and ns per insert of each replicate.
fn streamed(
    s: Sketch,
    lg_k: u32,
    n: u64,
    reps: u64,
    merged: bool,
    est: &str,
) -> anyhow::Result<(Vec<f64>, u64, Vec<f64>)> {
    let hasher = || HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(SEED));
    let (mut rel, mut ns, mut bytes) = (Vec::new(), Vec::new(), 0u64);
    for t in 0..reps {
        // replicate t's keys: ids t·2^40 + i, distinct across replicates
        let key = |i: u64| ((t << 40) | i).to_le_bytes();
        let mut a = s.build(lg_k, hasher())?;
        let start = Instant::now();
        let (estimate, b_bytes, inserts) = if merged {
            // node A holds the even ids, node B the odd ones and every
            // tenth even one again (duplicates across nodes)
            let mut b = s.build(lg_k, hasher())?;
            for i in 0..n {
                if i % 2 == 0 {
                    a.insert(&key(i));
                    if i % 20 == 0 {
                        b.insert(&key(i));
                    }
                } else {
                    b.insert(&key(i));
                }
            }
            let (e, by) = a.merged(&b).map_err(|e| anyhow::anyhow!("{e}"))?;
            (e, by, n + n / 20)
        } else {
            for i in 0..n {
                a.insert(&key(i));
            }
            let e = a
                .estimate(est)
                .ok_or_else(|| anyhow::anyhow!("{} has no estimator {est}", s.name()))?;
            (e, a.bytes(), n)
        };
        ns.push(start.elapsed().as_nanos() as f64 / inserts.max(1) as f64);
        rel.push(estimate / n as f64 - 1.0);
        bytes = bytes.max(b_bytes as u64);
    }
    Ok((rel, bytes, ns))
}

/// `reps` sketches replayed at `n` ([`Sketch::replayed`]; merged: the
/// union's state, which is what a merge of register sketches holds):
/// relative errors against each stream's own count, and the largest bytes.
fn replayed(
    s: Sketch,
    lg_k: u32,
    n: f64,
    replicates: std::ops::Range<u64>,
    est: &str,
) -> anyhow::Result<(Vec<f64>, u64)> {
    use rand::SeedableRng;
    let (mut rel, mut bytes) = (Vec::new(), 0u64);
    for t in replicates {
        // replicate t's own stream, whichever call replays it
        let mut rng =
            rand::rngs::Xoshiro256PlusPlus::seed_from_u64(SEED ^ (u64::from(lg_k) << 32) ^ t);
        let (c, d) = s
            .replayed(lg_k, n, &mut rng)
            .ok_or_else(|| anyhow::anyhow!("{} hashes its keys itself", s.name()))??;
        let e = c
            .estimate(est)
            .ok_or_else(|| anyhow::anyhow!("{} has no estimator {est}", s.name()))?;
        rel.push(e / d - 1.0);
        bytes = bytes.max(c.bytes() as u64);
    }
    Ok((rel, bytes))
}

/// `x` rounded down to two significant digits (a scaled count one can read).
fn round_down(x: u64) -> u64 {
    let unit = 10u64.pow((x.max(1).ilog10()).saturating_sub(1));
    x / unit * unit
}

/// One sketch at `lg_k` measured at `distinct` within `seconds`: streamed
/// at the user's count while [`MIN_REPLICATES`] of it fit (up to
/// [`MAX_REPLICATES`]); past that replayed at the user's count when the
/// sketch takes hash words, else streamed at as many items as fit (never
/// fewer than 10·2^lg_k, past which every estimator here is in its
/// asymptotic regime). A streamed pilot prices the insert.
fn measure(
    s: Sketch,
    lg_k: u32,
    distinct: u64,
    merged: bool,
    est: &str,
    seconds: f64,
) -> anyhow::Result<Measurement> {
    let pilot = distinct.min(PILOT_DISTINCT);
    let (_, _, pilot_ns) = streamed(s, lg_k, pilot, 1, merged, est)?;
    let ns = pilot_ns[0].max(1.0);
    let fit = |n: u64| seconds / (n as f64 * ns * 1e-9);
    let summary = |n, reps, method, rel: Vec<f64>, bytes, insert_ns| Measurement {
        n,
        reps,
        method,
        rse: rse(&rel, CONFIDENCE),
        bias: rel.iter().sum::<f64>() / rel.len() as f64,
        bytes,
        insert_ns,
    };
    let stream = |n: u64, reps: u64| -> anyhow::Result<Measurement> {
        let (rel, bytes, mut ns) = streamed(s, lg_k, n, reps, merged, est)?;
        ns.sort_by(f64::total_cmp);
        Ok(summary(
            n,
            reps,
            "streamed",
            rel,
            bytes,
            crate::stats::quantile(&ns, 0.5),
        ))
    };
    if fit(distinct) >= MIN_REPLICATES as f64 {
        let reps = (fit(distinct) as u64).clamp(MIN_REPLICATES, MAX_REPLICATES);
        return stream(distinct, reps);
    }
    if s.replays() {
        // one replicate prices the rest
        let t = Instant::now();
        let (mut rel, mut bytes) = replayed(s, lg_k, distinct as f64, 0..1, est)?;
        let per = t.elapsed().as_secs_f64().max(1e-6);
        let reps = ((seconds / per) as u64).clamp(MIN_REPLICATES, MAX_REPLICATES);
        let (more, b) = replayed(s, lg_k, distinct as f64, 1..reps, est)?;
        rel.extend(more);
        bytes = bytes.max(b);
        return Ok(summary(distinct, reps, "replayed", rel, bytes, ns));
    }
    let n = round_down(fit(1) as u64 / MIN_REPLICATES)
        .max(10 << lg_k)
        .min(distinct);
    stream(n, MIN_REPLICATES)
}

/// One sketch configured for `target` and measured at `distinct`. At a
/// distinct count short of 10·2^lg_k (where sparse modes and linear
/// counting still hold the error down), up to [`BELOW_THEORY`] smaller
/// powers of two are measured first, and one whose whole measured interval
/// lies under the target qualifies; so does the asymptotic choice unless
/// its whole interval lies past the target's margin, and the qualifying
/// one with the fewest measured bytes is taken. With none qualifying, the
/// sketch is resized past the asymptotic choice until one does.
pub fn candidate(
    s: Sketch,
    target: f64,
    distinct: u64,
    merges: bool,
    seconds: f64,
) -> Result<SketchMeasured, Left> {
    let left = |why: String| Left {
        structure: s.name().into(),
        why,
    };
    let est = estimator(s, merges);
    let lg_k_max = s.max_lg_k();
    // a target past the implementation's largest sketch: its largest,
    // measured, is the nearest configuration (and says so)
    let (theory, out_of_reach) = match lg_k_for(s, est, target) {
        Some(k) => (k, false),
        None => (lg_k_max, true),
    };
    let first = if distinct < 10 << theory {
        theory.saturating_sub(BELOW_THEORY).max(4)
    } else {
        theory
    };
    let interval = |m: &Measurement| {
        format!(
            "{} [{}, {}]",
            pct(m.rse.0, 3),
            pct(m.rse.1, 3),
            pct(m.rse.2, 3)
        )
    };
    let mut resized = Vec::new();
    // smaller powers of two whose whole interval lies under the target
    let mut under = Vec::new();
    let mut lg_k = first;
    loop {
        let m =
            measure(s, lg_k, distinct, merges, est, seconds).map_err(|e| left(e.to_string()))?;
        if lg_k < theory {
            if m.rse.2 <= target {
                under.push((lg_k, m));
            }
            lg_k += 1;
            continue;
        }
        let above = m.rse.1 > MARGIN * target;
        if above && under.is_empty() && lg_k < lg_k_max {
            resized.push(format!("lg_k = {lg_k} measured RSE {}", interval(&m)));
            lg_k += 1;
            continue;
        }
        let short = (above || out_of_reach) && under.is_empty();
        // the fewest measured bytes among those that qualify (a sparse
        // image at a larger lg_k can be smaller than a dense one), the
        // smaller lg_k on a tie
        if !above || short {
            under.push((lg_k, m));
        }
        let (lg_k, m) = under
            .into_iter()
            .min_by_key(|(k, m)| (m.bytes, *k))
            .expect("one qualifies");
        let (r, lo, hi) = m.rse;
        let rse_theory = s.rse_theory(est, lg_k).unwrap_or(f64::NAN);
        let count = |x: u64| crate::design::render::count(x as f64);
        return Ok(SketchMeasured {
            structure: s.name().into(),
            estimator: est.into(),
            lg_k,
            lg_k_max,
            short_of_target: if short {
                format!(
                    "no lg_k this implementation offers reaches {}: its largest, lg_k = {lg_k_max}, measured {} (theory {})",
                    pct(target, 3),
                    interval(&m),
                    pct(rse_theory, 3)
                )
            } else {
                String::new()
            },
            rse_theory,
            resized: if resized.is_empty() {
                String::new()
            } else {
                format!(
                    "resized from lg_k = {theory}: {} (above {} × the target)",
                    resized.join("; "),
                    MARGIN
                )
            },
            below_theory: if lg_k < theory {
                format!(
                    "lg_k = {lg_k}, below the asymptotic lg_k = {theory}: at {} distinct items its whole interval {} lies under the target; its asymptotic RSE is {}, so a sketch that will see past about 10·2^lg_k = {} distinct items needs lg_k = {theory}",
                    count(distinct),
                    interval(&m),
                    pct(rse_theory, 3),
                    count(10 << lg_k)
                )
            } else {
                String::new()
            },
            scaled: if m.n < distinct {
                format!(
                    "measured at {} distinct items, not {}: {} replicates fit --measure-seconds there, and past 10·2^lg_k the estimator's error no longer depends on n",
                    count(m.n),
                    count(distinct),
                    m.reps,
                )
            } else {
                String::new()
            },
            distinct: m.n,
            method: m.method,
            replicates: m.reps,
            merged: merges,
            rse: r,
            rse_lo: lo,
            rse_hi: hi,
            bias: m.bias,
            bytes: m.bytes,
            insert_ns: m.insert_ns,
        });
    }
}

#[cfg(test)]
#[path = "measure_sketch_tests.rs"]
pub(crate) mod tests;
