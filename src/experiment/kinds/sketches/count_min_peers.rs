//! `count_min_peers`: the same Zipf stream into four Count-Min sketches of
//! one shape — sketchlab plain and conservative, the Apache DataSketches
//! Count-Min (plain) and the `count-min-sketch` 0.2 crate (conservative),
//! sized by that crate's rules (w = next power of two ≥ 2/ε, d =
//! ⌊ln(1 − confidence)/ln ½⌋) — each key against its exact count.
//!
//! Not byte-reproducible: `count-min-sketch` draws its SipHash key from the
//! OS in `new()` and has no way to set it, so its columns change from run to
//! run (the manifest says `"reproducible": false`); every other column is a
//! function of the seed.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::count_min::{CountMin, theory};
use crate::workload::zipf::ZipfStream;
use crate::workload::{KeyGen, KeyType};
use count_min_sketch::CountMinSketch64;
use datasketches::countmin::CountMinSketch;
use datasketches::hash::value::raw_bytes;

pub struct CountMinPeers;

crate::params! {
    pub struct P {
        universe: u64 [count] = common::count(Def::Int(1_000_000), "distinct keys the stream draws from"),
        updates: u64 [count] = common::count(Def::Int(10_000_000), "updates in the stream"),
        s: f64 [number] = common::positive(10.0, Def::Float(1.1), "Zipf exponent"),
        eps: f64 [fraction] = common::rate(Def::Float(0.001), "tolerance as a share of N"),
        confidence: f64 [fraction] = common::rate(Def::Float(0.98), "the crate's probability: d = floor(ln(1 - c) / ln 0.5)"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R {
        w: u64 [Same, count],
        d: u64 [Same, count],
        eps_n: f64 [Same, count],
        overshoot_sketchlab: f64 [count],
        overshoot_sketchlab_conservative: f64 [count],
        overshoot_datasketches: f64 [count],
        overshoot_count_min_sketch: f64 [count],
        beyond_eps_n_sketchlab: Proportion [fraction],
        beyond_eps_n_sketchlab_conservative: Proportion [fraction],
        beyond_eps_n_datasketches: Proportion [fraction],
        beyond_eps_n_count_min_sketch: Proportion [fraction],
        /// Across all four: must be 0.
        underestimates: u64 [Sum, count],
        bytes_sketchlab: u64 [Same, bytes],
        bytes_count_min_sketch: u64 [Same, bytes],
    }
}

impl Measure for CountMinPeers {
    type P = P;
    type R = R;
    const NAME: &'static str = "count_min_peers";
    const ABOUT: &'static str = "One Zipf stream into sketchlab (plain, conservative), DataSketches and count-min-sketch Count-Mins of one shape";
    const MIN_REPLICATES: u32 = 2;
    const REPRODUCIBLE: bool = false;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let w = ((2.0 / p.eps).round() as u64).max(2).next_power_of_two();
        let d = (((1.0 - p.confidence).ln() / 0.5f64.ln()) as u64).max(1);
        let h = p.hash_seed.hasher(p.hash, seeds);
        let mut plain = CountMin::<u64, _>::new(w, d, h.clone())?;
        let mut cons = CountMin::<u64, _>::new(w, d, h)?;
        let mut ds = CountMinSketch::<u64>::with_seed(d as u8, w as u32, seeds.derive("peer"))?;
        let mut crate_cms = CountMinSketch64::<Vec<u8>>::new(
            p.updates as usize,
            p.confidence,
            p.updates as f64 * p.eps,
        )
        .map_err(anyhow::Error::msg)?;
        let mut stream =
            ZipfStream::new(p.universe, p.s, seeds.derive("stream")).map_err(anyhow::Error::msg)?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let mut truth = vec![0u64; p.universe as usize];
        for _ in 0..p.updates {
            let id = stream.next_id();
            truth[id as usize] += 1;
            let key = keys.key(id);
            plain.update(key, 1);
            cons.update_conservative(key, 1);
            ds.update(raw_bytes::from_slice(key));
            crate_cms.increment(key);
        }
        let eps_n = theory::eps_of_width(w) * p.updates as f64;
        let (mut over, mut beyond, mut under) = ([0f64; 4], [0u64; 4], 0u64);
        for id in 0..p.universe {
            let key = keys.key(id);
            let t = truth[id as usize];
            let est = [
                plain.estimate(key),
                cons.estimate(key),
                ds.estimate(raw_bytes::from_slice(key)),
                crate_cms.estimate(key),
            ];
            for (i, &e) in est.iter().enumerate() {
                under += (e < t) as u64;
                let o = e.saturating_sub(t);
                over[i] += o as f64;
                beyond[i] += (o as f64 > eps_n) as u64;
            }
        }
        let u = p.universe as f64;
        let share = |i: usize| Proportion::new(beyond[i], p.universe);
        Ok(R {
            w,
            d,
            eps_n,
            overshoot_sketchlab: over[0] / u,
            overshoot_sketchlab_conservative: over[1] / u,
            overshoot_datasketches: over[2] / u,
            overshoot_count_min_sketch: over[3] / u,
            beyond_eps_n_sketchlab: share(0),
            beyond_eps_n_sketchlab_conservative: share(1),
            beyond_eps_n_datasketches: share(2),
            beyond_eps_n_count_min_sketch: share(3),
            underestimates: under,
            bytes_sketchlab: plain.bytes(),
            bytes_count_min_sketch: (CountMinSketch64::<Vec<u8>>::estimate_memory(
                p.updates as usize,
                p.confidence,
                p.updates as f64 * p.eps,
            )
            .map_err(anyhow::Error::msg)?) as u64,
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.universe)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let w = ((2.0 / p.eps).round() as u64).max(2).next_power_of_two();
        let d = (((1.0 - p.confidence).ln() / 0.5f64.ln()) as u64).max(1);
        let sketch = (w * d * 8) as f64;
        Some(
            Footprint::one(sketch, 3.0 * p.updates as f64 + p.universe as f64)
                .plus(2.0 * sketch + p.universe as f64 * 8.0),
        )
    }
}
