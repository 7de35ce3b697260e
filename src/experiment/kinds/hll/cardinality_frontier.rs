//! `cardinality_frontier`: every distinct-count sketch of the menu
//! ([`crate::structures::menu::Sketch`]: sketchlab's HLL with 6-bit and
//! 8-bit registers, UltraLogLog, DataSketches' CPC, theta and HLL_4/6/8) at
//! 2^lg_k registers, fed one stream of distinct u64 keys and read at n =
//! 10², 10³, … max_n: each estimator's relative error, the bytes of the
//! state (serialized: what one stores), and the same for the merge of two
//! sketches that saw the stream's halves. The summary's standard deviation
//! of the error is the RSE; bytes · 8 · RSE² is the memory-variance product
//! (MVP) that the report sets against the asymptotic lower bounds of Pettie
//! and Wang (mergeable) and Pettie, Wang and Yin (history estimators).
//! Beyond max_n, sketchlab's HyperLogLog is read from registers drawn
//! exactly in distribution up to `simulate_to` keys (as `hll_scale` does),
//! and UltraLogLog from a state drawn level by level
//! ([`menu::ultraloglog_after`]); DataSketches' sketches take hashes only
//! through their own hash of a value, so their rows stop at max_n.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::structures::Cardinality;
use crate::structures::hyperloglog::{estimators, simulate, theory};
use crate::structures::menu::{self, Sketch};
use crate::workload::{KeyGen, KeyType};
use ultraloglog::{Estimator, MaximumLikelihoodEstimator, OptimalFGRAEstimator};

pub struct CardinalityFrontier;

crate::params! {
    pub struct P {
        sketch: Sketch = common::choice(&Sketch::NAMES, Def::Required, "the sketch (see structures::menu)"),
        lg_k: u32 [bits] = common::int(4, 18, Def::Int(12), "log2 of the registers (bins, nominal entries)"),
        max_n: u64 [count] = common::count(Def::Int(1_000_000), "distinct keys streamed (read at every power of ten up to it)"),
        simulate_to: u64 [count] = common::count(Def::Int(1_000_000_000), "hll6/hll8/ultraloglog: read simulated registers at powers of ten above max_n up to this"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
    }
}

crate::row! {
    pub struct R, summary Rs {
        n: u64 [Key, count],
        estimator: String [Key],
        /// The estimate of the union of two sketches of the stream's halves.
        merged: bool [Key],
        /// Registers drawn in distribution, not streamed.
        simulated: bool [Same],
        /// (estimate − n)/n: its mean is the bias, its standard deviation the RSE.
        rel_err: f64 [relative_error],
        /// Bytes of the serialized state.
        bytes: f64 [bytes],
        bytes_in_memory: f64 [bytes],
        /// bytes · 8 · rel_err²: its mean over replicates is the
        /// memory-variance product (with the bias in it).
        mvp: f64 [fraction],
        /// The estimator's asymptotic RSE.
        rse_theory: f64 [Same, relative_error],
        /// bytes · 8 · rse_theory².
        mvp_theory: f64 [bits],
        /// The MVP no sketch of its class can beat: 1.98 for mergeable
        /// estimators, 1.63 for history (HIP) estimators.
        mvp_bound: f64 [Same, bits],
    }
}

/// The checkpoints: powers of ten from 100 up to `max` (and `max` itself).
fn checkpoints(from: u64, max: u64) -> Vec<u64> {
    let mut v: Vec<u64> = std::iter::successors(Some(from), |n| n.checked_mul(10))
        .take_while(|&n| n <= max)
        .collect();
    if v.last() != Some(&max) && max >= from {
        v.push(max);
    }
    v
}

impl Measure for CardinalityFrontier {
    type P = P;
    type R = R;
    const NAME: &'static str = "cardinality_frontier";
    const ABOUT: &'static str = "every distinct-count sketch at 2^lg_k: relative error, serialized bytes and the memory-variance product, single and merged";
    const MIN_REPLICATES: u32 = 2;

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let s = p.sketch;
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let mut keys = KeyGen::new(KeyType::U64, seeds.derive("keys"));
        let (mut whole, mut even, mut odd) = (
            s.build(p.lg_k, hasher.clone())?,
            s.build(p.lg_k, hasher.clone())?,
            s.build(p.lg_k, hasher)?,
        );
        let row = |n: u64, estimator: &str, merged: bool, estimate: f64, bytes: f64, mem: f64| {
            let (err, rse) = (
                estimate / n as f64 - 1.0,
                s.rse_theory(estimator, p.lg_k).unwrap_or(f64::NAN),
            );
            R {
                n,
                estimator: estimator.into(),
                merged,
                simulated: false,
                rel_err: err,
                bytes,
                bytes_in_memory: mem,
                mvp: bytes * 8.0 * err * err,
                rse_theory: rse,
                mvp_theory: bytes * 8.0 * rse * rse,
                mvp_bound: theory::mvp_lower_bound(!Sketch::history_estimator(estimator)),
            }
        };
        let mut rows = Vec::new();
        let mut done = 0u64;
        for n in checkpoints(100, p.max_n) {
            for id in done..n {
                let key = keys.key(id);
                whole.insert(key);
                if id % 2 == 0 {
                    even.insert(key)
                } else {
                    odd.insert(key)
                }
            }
            done = n;
            let (bytes, mem) = (whole.bytes() as f64, whole.bytes_in_memory() as f64);
            for e in s.estimators() {
                let est = whole
                    .estimate(e)
                    .ok_or_else(|| anyhow::anyhow!("{}: no {e} estimate", p.sketch))?;
                rows.push(row(n, e, false, est, bytes, mem));
            }
            let (est, b) = even.merged(&odd)?;
            rows.push(row(n, s.merged_estimator(), true, est, b as f64, b as f64));
        }
        if s == Sketch::UltraLogLog {
            let mut rng = seeds.rng("registers");
            for n in checkpoints(100, p.simulate_to)
                .into_iter()
                .filter(|&n| n > p.max_n)
            {
                let u = menu::ultraloglog_after(p.lg_k, n as f64, &mut rng)?;
                let bytes = u.get_state().len() as f64;
                for (e, est) in [
                    ("fgra", OptimalFGRAEstimator.estimate(&u)),
                    ("ml", MaximumLikelihoodEstimator.estimate(&u)),
                ] {
                    let mut r = row(n, e, false, est, bytes, bytes);
                    r.simulated = true;
                    rows.push(r);
                }
            }
        }
        if matches!(s, Sketch::Hll6 | Sketch::Hll8) {
            let mut rng = seeds.rng("registers");
            let m = 1usize << p.lg_k;
            let bytes = whole.bytes() as f64;
            for n in checkpoints(100, p.simulate_to)
                .into_iter()
                .filter(|&n| n > p.max_n)
            {
                let d = simulate::expected_distinct_words(n as f64);
                let hist = simulate::histogram_after(p.lg_k, d.round() as u64, &mut rng);
                let est = estimators::ertl(&hist, m, 64 - p.lg_k as usize);
                let mut r = row(n, "ertl", false, est, bytes, bytes);
                r.simulated = true;
                rows.push(r);
            }
        }
        Ok(rows)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // three sketches (a theta sketch holds up to 2k 8-byte entries)
        let bytes = 16.0 * (1u64 << p.lg_k) as f64;
        Some(Footprint::one(bytes, 2.0 * p.max_n as f64).plus(2.0 * bytes))
    }
}
