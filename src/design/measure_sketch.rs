//! The measured recommendation for distinct counts: every sketch of the
//! menu ([`Sketch`]) configured as its implementation sizes it (a power of
//! two of registers, bins or entries: the smallest lg_k whose estimator's
//! error reaches the target, the merged estimator's when nodes merge),
//! built at the user's distinct count, filled and measured over replicates
//! (its RSE with a chi-square interval, the bytes its serialized state
//! actually takes there, sparse or compressed, and ns per insert), resized
//! when the whole interval lies past the target's margin, then ranked by
//! the bytes measured.

use super::measure::Left;
use crate::export::markdown::{pct, sig};
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::structures::Cardinality;
use crate::structures::menu::Sketch;
use serde::Serialize;
use std::time::Instant;

/// Inserts one candidate's replicates spend together (fewer replicates at
/// larger n, never below [`MIN_REPLICATES`]).
const INSERT_BUDGET: f64 = 1.6e7;
const MIN_REPLICATES: u64 = 20;
const MAX_REPLICATES: u64 = 200;
/// The largest lg_k every crate of the menu accepts.
const LG_K_MAX: u32 = 18;
/// A measured RSE counts as above the target when its whole interval lies
/// past target × this (the ledger's materiality margin, as for filters).
const MARGIN: f64 = 1.1;
/// Confidence of the RSE interval.
const CONFIDENCE: f64 = 0.95;
const SEED: u64 = 0x5eed_ca7d;

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
    /// The estimator's asymptotic RSE at lg_k (theory).
    pub rse_theory: f64,
    /// Why lg_k is past the theory's choice ("" when it is not).
    pub resized: String,
    /// Distinct items per sketch measured (the user's unless scaled).
    pub distinct: u64,
    /// Why the distinct count is not the user's ("" when it is).
    pub scaled: String,
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
    /// Median ns per insert over the replicates.
    pub insert_ns: f64,
}

/// The measured recommendation for one distinct-count target.
#[derive(Clone, Debug, Serialize)]
pub struct SketchAdvice {
    /// The distinct count asked about (None: not given).
    pub distinct: Option<f64>,
    pub target_rse: f64,
    pub merges: bool,
    pub keys: String,
    pub measured: Vec<SketchMeasured>,
    pub left_out: Vec<Left>,
    /// Least measured bytes, then the next.
    pub smallest: Option<String>,
    pub runner_up: Option<String>,
    /// Least median ns per insert.
    pub fastest: Option<String>,
    pub seconds: f64,
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

/// The smallest lg_k (4..=18) whose estimator's RSE reaches `target`.
pub fn lg_k_for(s: Sketch, est: &str, target: f64) -> Option<u32> {
    (4..=LG_K_MAX).find(|&k| s.rse_theory(est, k).is_some_and(|e| e <= target))
}

/// Replicates and distinct items per replicate for `lg_k` at `distinct`:
/// the user's count while [`MIN_REPLICATES`] of it fit the insert budget,
/// else as many as fit, but never fewer than 10·2^lg_k (past which every
/// estimator here is in its asymptotic regime).
fn plan(distinct: u64, lg_k: u32) -> (u64, u64) {
    let cap = ((INSERT_BUDGET / MIN_REPLICATES as f64) as u64).max(10 << lg_k);
    let n = distinct.min(cap).max(1);
    let reps = ((INSERT_BUDGET / n as f64) as u64).clamp(MIN_REPLICATES, MAX_REPLICATES);
    (n, reps)
}

/// Builds `reps` sketches of `n` distinct keys (two node sketches of
/// overlapping halves, merged, when `merged`) and measures them.
fn measure_at(
    s: Sketch,
    lg_k: u32,
    n: u64,
    reps: u64,
    merged: bool,
    est: &str,
) -> anyhow::Result<(f64, f64, f64, f64, u64, f64)> {
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
        ns.push(start.elapsed().as_nanos() as f64 / inserts as f64);
        rel.push(estimate / n as f64 - 1.0);
        bytes = bytes.max(b_bytes as u64);
    }
    ns.sort_by(f64::total_cmp);
    let (r, lo, hi) = rse(&rel, CONFIDENCE);
    let bias = rel.iter().sum::<f64>() / rel.len() as f64;
    Ok((r, lo, hi, bias, bytes, crate::stats::quantile(&ns, 0.5)))
}

/// One sketch configured for `target` and measured at `distinct`, resized
/// while its RSE interval lies wholly past the margin.
pub fn candidate(
    s: Sketch,
    target: f64,
    distinct: u64,
    merges: bool,
) -> Result<SketchMeasured, Left> {
    let left = |why: String| Left {
        structure: s.name().into(),
        why,
    };
    let est = estimator(s, merges);
    let Some(first) = lg_k_for(s, est, target) else {
        return Err(left(format!(
            "its {est} estimator needs lg_k > {LG_K_MAX} for {}",
            pct(target, 3)
        )));
    };
    let mut resized = Vec::new();
    let mut lg_k = first;
    loop {
        let (n, reps) = plan(distinct, lg_k);
        let (r, lo, hi, bias, bytes, insert_ns) =
            measure_at(s, lg_k, n, reps, merges, est).map_err(|e| left(e.to_string()))?;
        let above = lo > MARGIN * target;
        if above && lg_k < LG_K_MAX {
            resized.push(format!(
                "lg_k = {lg_k} measured RSE {} [{}, {}]",
                pct(r, 3),
                pct(lo, 3),
                pct(hi, 3)
            ));
            lg_k += 1;
            continue;
        }
        if above {
            return Err(left(format!(
                "measured RSE {} [{}, {}] at lg_k = {LG_K_MAX}, above {}",
                pct(r, 3),
                pct(lo, 3),
                pct(hi, 3),
                pct(target, 3)
            )));
        }
        return Ok(SketchMeasured {
            structure: s.name().into(),
            estimator: est.into(),
            lg_k,
            rse_theory: s.rse_theory(est, lg_k).unwrap_or(f64::NAN),
            resized: if resized.is_empty() {
                String::new()
            } else {
                format!(
                    "resized from lg_k = {first}: {} (above {} × the target)",
                    resized.join("; "),
                    MARGIN
                )
            },
            distinct: n,
            scaled: if n < distinct {
                format!(
                    "measured at {} distinct items, not {}: {reps} replicates fit the insert budget there, and past 10·2^lg_k the estimator's error no longer depends on n",
                    crate::design::render::count(n as f64),
                    crate::design::render::count(distinct as f64)
                )
            } else {
                String::new()
            },
            replicates: reps,
            merged: merges,
            rse: r,
            rse_lo: lo,
            rse_hi: hi,
            bias,
            bytes,
            insert_ns,
        });
    }
}

impl SketchAdvice {
    pub fn get(&self, name: &str) -> Option<&SketchMeasured> {
        self.measured.iter().find(|m| m.structure == name)
    }

    /// The recommendation in a few lines, for the terminal.
    pub fn summary(&self) -> String {
        let line = |m: &SketchMeasured| {
            format!(
                "{} (lg_k = {}, {} estimator): {}, measured RSE {} [{}, {}] (target {}, theory {}), {} ns per insert",
                m.structure,
                m.lg_k,
                m.estimator,
                crate::design::render::bytes(m.bytes as f64),
                pct(m.rse, 3),
                pct(m.rse_lo, 3),
                pct(m.rse_hi, 3),
                pct(self.target_rse, 3),
                pct(m.rse_theory, 3),
                sig(m.insert_ns, 3)
            )
        };
        let mut s = format!(
            "for an RSE of {}{} at {}, measured on {} in {:.1} s:\n",
            pct(self.target_rse, 3),
            if self.merges {
                " after merging"
            } else {
                ", never merged"
            },
            self.distinct
                .map_or("10·2^lg_k distinct items (no --distinct)".into(), |d| {
                    format!("{} distinct items", crate::design::render::count(d))
                }),
            self.keys,
            self.seconds
        );
        s += &super::measure::choices(
            [&self.smallest, &self.runner_up, &self.fastest],
            "sketch",
            "fastest insert",
            |n| self.get(n).map(line),
        );
        // one line per distinct scaling note, naming the sketches it covers
        let mut notes: Vec<(&str, Vec<&str>)> = Vec::new();
        for m in self.measured.iter().filter(|m| !m.scaled.is_empty()) {
            match notes.iter_mut().find(|(n, _)| *n == m.scaled) {
                Some((_, names)) => names.push(&m.structure),
                None => notes.push((&m.scaled, vec![&m.structure])),
            }
        }
        for (note, names) in notes {
            s += &format!("  {}: {note}\n", names.join(", "));
        }
        for m in &self.measured {
            if !m.resized.is_empty() {
                s += &format!("  {}: {}\n", m.structure, m.resized);
            }
        }
        for l in &self.left_out {
            s += &format!("  left out {}: {}\n", l.structure, l.why);
        }
        s
    }
}

/// Every menu sketch measured for `target` at `distinct` (None: at
/// 10·2^lg_k, each in its asymptotic regime), ranked by measured bytes.
pub fn recommend(target: f64, distinct: Option<f64>, merges: bool) -> SketchAdvice {
    let t = Instant::now();
    let (mut measured, mut left_out) = (Vec::new(), Vec::new());
    for s in Sketch::ALL {
        let n = distinct.map_or_else(
            || {
                let est = estimator(s, merges);
                10u64 << lg_k_for(s, est, target).unwrap_or(4)
            },
            |d| d as u64,
        );
        match candidate(s, target, n, merges) {
            Ok(m) => measured.push(m),
            Err(l) => left_out.push(l),
        }
    }
    let mut by_bytes: Vec<&SketchMeasured> = measured.iter().collect();
    by_bytes.sort_by_key(|m| m.bytes);
    let fastest = measured
        .iter()
        .min_by(|a, b| a.insert_ns.total_cmp(&b.insert_ns))
        .map(|m| m.structure.clone());
    SketchAdvice {
        distinct,
        target_rse: target,
        merges,
        keys: "synthetic distinct 8-byte ids (sketchlab's sketches through XXH3, fixed seed; DataSketches' through its own hash, seed 9001)".into(),
        smallest: by_bytes.first().map(|m| m.structure.clone()),
        runner_up: by_bytes.get(1).map(|m| m.structure.clone()),
        fastest,
        measured,
        left_out,
        seconds: t.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0.5% after a merge: CPC's ICON estimator (ln 2/√k) needs lg_k = 15,
    /// HLL's 1.04/√m lg_k = 16; never merged, HLL's HIP (0.833/√m) needs 15.
    #[test]
    fn lg_k_is_the_implementations_power_of_two_for_the_estimator() {
        assert_eq!(estimator(Sketch::Cpc, true), "icon");
        assert_eq!(lg_k_for(Sketch::Cpc, "icon", 0.005), Some(15));
        assert_eq!(lg_k_for(Sketch::Hll6, "ertl", 0.005), Some(16));
        assert_eq!(estimator(Sketch::Hll6, false), "hip");
        assert_eq!(lg_k_for(Sketch::Hll6, "hip", 0.005), Some(15));
        assert_eq!(lg_k_for(Sketch::Hll6, "ertl", 1e-4), None);
    }

    /// At a small distinct count the sketches are measured at it, their RSE
    /// interval covers a target they were sized for or they were resized,
    /// and DataSketches' HLL stores its sparse list, far below its dense size.
    #[test]
    fn sketches_are_measured_at_the_users_distinct_count() {
        let a = recommend(0.02, Some(300.0), true);
        eprintln!("{}", a.summary());
        assert!(a.left_out.is_empty(), "{:?}", a.left_out);
        for m in &a.measured {
            assert_eq!(m.distinct, 300, "{m:?}");
            assert!(m.scaled.is_empty() && m.merged);
            assert!(m.rse_lo <= MARGIN * 0.02 || !m.resized.is_empty(), "{m:?}");
        }
        let ds = a.get("datasketches_hll8").unwrap();
        assert!(ds.bytes < 1 << ds.lg_k, "{ds:?}");
        assert!(a.smallest.is_some() && a.summary().contains("recommended (smallest)"));
    }
}
