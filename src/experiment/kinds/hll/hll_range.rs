//! `hll_range`: relative-error quantile curves (DataSketches' "pitchfork":
//! median, ±1σ and ±2σ quantiles over sketches) against n from 1 to 10^7,
//! for every estimator of one sketch and for the peer crates, on the same
//! keys. Each trial inserts one stream and reads every estimator at each
//! checkpoint, so the whole curve costs one pass.

use super::peers::{self, Peers};
use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::kinds::footprint::hll_bytes;
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::structures::hyperloglog::{HyperLogLog, theory};
use crate::vocab::HllEstimator;
use crate::workload::{KeyGen, KeyType};

pub struct HllRange;

crate::params! {
    pub struct P {
        p: u32 [bits] = common::int(4, 18, Def::Int(14), "precision: 2^p registers"),
        max_n: u64 [count] = common::count(Def::Int(10_000_000), "the last checkpoint (distinct keys)"),
        per_decade: u32 [count] = common::int(1, 100, Def::Int(10), "log-spaced checkpoints per decade of n"),
        peers_max_n: u64 [count] = common::int(0, 1 << 40, Def::Int(10_000_000), "feed the peer crates up to this n (0: no peers)"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R, summary Rs {
        /// Distinct keys inserted so far (the checkpoint).
        n: u64 [Key, count],
        se_theory: f64 [Same, relative_error],
        hip_se_theory: f64 [Same, relative_error],
        /// (estimate − n)/n per estimator, summarised as pitchforks.
        err_raw: f64 [Pitchfork, relative_error],
        err_linear_counting: f64 [Pitchfork, relative_error],
        err_hllpp: f64 [Pitchfork, relative_error],
        err_ertl: f64 [Pitchfork, relative_error],
        err_hip: f64 [Pitchfork, relative_error],
        err_datasketches: Option<f64> [Pitchfork, relative_error],
        err_datasketches_composite: Option<f64> [Pitchfork, relative_error],
        err_hyperloglogplus: Option<f64> [Pitchfork, relative_error],
        err_cardinality_estimator: Option<f64> [Pitchfork, relative_error],
    }
}

/// Every estimate column, sketchlab's first (in [`HllEstimator::NAMES`]'s order).
pub const ESTIMATORS: [&str; 9] = [
    HllEstimator::NAMES[0],
    HllEstimator::NAMES[1],
    HllEstimator::NAMES[2],
    HllEstimator::NAMES[3],
    HllEstimator::NAMES[4],
    "datasketches",
    "datasketches_composite",
    "hyperloglogplus",
    "cardinality_estimator",
];

/// Log-spaced checkpoints 1 … max_n, `per_decade` per decade, deduplicated.
pub fn checkpoints(max_n: u64, per_decade: u32) -> Vec<u64> {
    let decades = (max_n as f64).log10();
    let steps = (decades * per_decade as f64).round() as u32;
    let mut v: Vec<u64> = (0..=steps)
        .map(|j| 10f64.powf(j as f64 / per_decade as f64).round() as u64)
        .filter(|&n| n <= max_n)
        .collect();
    v.push(max_n);
    v.dedup();
    v
}

impl Measure for HllRange {
    type P = P;
    type R = R;
    const NAME: &'static str = "hll_range";
    const ABOUT: &'static str = "HyperLogLog relative-error quantiles (pitchforks) vs n from 1 to 10^7 per estimator and peer crate, one pass per sketch";
    const MIN_REPLICATES: u32 = 5;

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let mut h = HyperLogLog::new(p.p, p.hash_seed.hasher(p.hash, seeds))?;
        let mut others = Peers::new(p.p, seeds.derive("peer hash"))?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let m = h.m();
        let mut id = 0u64;
        let mut rows = Vec::new();
        for n in checkpoints(p.max_n, p.per_decade) {
            let with_peers = n <= p.peers_max_n;
            while id < n {
                let key = keys.key(id);
                h.insert(key);
                if with_peers {
                    others.insert(key);
                }
                id += 1;
            }
            let err = |e: f64| e / n as f64 - 1.0;
            let peer: Vec<Option<f64>> = if with_peers {
                others
                    .estimates()
                    .into_iter()
                    .map(|e| Some(err(e)))
                    .collect()
            } else {
                vec![None; peers::NAMES.len()]
            };
            rows.push(R {
                n,
                se_theory: theory::standard_error(m),
                hip_se_theory: theory::hip_standard_error(m),
                err_raw: err(h.raw()),
                err_linear_counting: err(h.linear_counting()),
                err_hllpp: err(h.hllpp()),
                err_ertl: err(h.ertl()),
                err_hip: err(h.hip().expect("unmerged")),
                err_datasketches: peer[0],
                err_datasketches_composite: peer[1],
                err_hyperloglogplus: peer[2],
                err_cardinality_estimator: peer[3],
            });
        }
        Ok(rows)
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.max_n)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let peers = if p.peers_max_n > 0 {
            3.0 * (1u64 << p.p) as f64
        } else {
            0.0
        };
        let fed = p.max_n as f64 + 3.0 * p.peers_max_n.min(p.max_n) as f64;
        Some(Footprint::one(hll_bytes(p.p), fed).plus(peers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_are_log_spaced_and_end_at_max() {
        let c = checkpoints(1000, 10);
        assert_eq!(c[0], 1);
        assert_eq!(*c.last().unwrap(), 1000);
        assert!(c.windows(2).all(|w| w[0] < w[1]));
        assert!(c.contains(&100) && c.contains(&10));
        assert_eq!(checkpoints(1500, 1), vec![1, 10, 100, 1000, 1500]);
    }
}
