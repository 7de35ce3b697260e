//! `scalable_bloom`: a scalable Bloom filter (a chain of ever larger, stricter
//! filters) and a fixed filter, both filled far past the fixed one's capacity:
//! the FPR of each next to its theory and the chain's bound P0/(1 − r), and the
//! memory each takes.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES, fill_and_query};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, theory as bloom_theory};
use crate::structures::scalable_bloom::{ScalableBloom, theory};
use crate::workload::{KeyGen, KeyType};

pub struct ScalableBloomStudy;

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Required, "keys inserted"),
        p: f64 [fraction] = common::rate(Def::Float(0.01), "the chain's overall bound P0/(1 - r); the fixed filter's design rate"),
        initial_capacity: u64 [count] = common::count(Def::Int(10_000), "keys the chain's first filter holds"),
        growth: f64 [ratio] = common::positive(1e3, Def::Float(2.0), "each next filter is this many times larger (> 1)"),
        ratio: f64 [fraction] = common::rate(Def::Float(0.9), "each next filter's rate is this fraction of the previous one"),
        fixed_capacity: u64 [count] = common::count(Def::Int(100_000), "keys the fixed filter is sized for"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
        queries: u64 [count] = QUERIES,
    }
}

crate::row! {
    pub struct R {
        filters: usize [count],
        bytes: usize [bytes],
        bits_per_key: f64 [bits_per_key],
        fpr_measured: Proportion [fraction],
        /// 1 − Π(1 − p_i) over the stages' theoretical rates at their loads.
        fpr_theory: f64 [fraction],
        fpr_bound: f64 [Same, fraction],
        fixed_bytes: usize [Same, bytes],
        fixed_fpr_measured: Proportion [fraction],
        fixed_fpr_theory: f64 [Same, fraction],
        false_negatives: u64 [Max, count],
    }
}

impl Measure for ScalableBloomStudy {
    type P = P;
    type R = R;
    const NAME: &'static str = "scalable_bloom";
    const ABOUT: &'static str = "a scalable Bloom filter and a fixed one filled past capacity: FPR vs the bound P0/(1-r), memory";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if p.growth <= 1.0 {
            return Err(crate::error::Error::invalid("growth", "must be > 1"));
        }
        if p.n > 100_000_000 {
            return Err(crate::error::Error::invalid("n", "must be <= 100000000"));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let p0 = p.p * (1.0 - p.ratio);
        let mut chain =
            ScalableBloom::new(p.initial_capacity, p0, p.growth, p.ratio, hasher.clone())?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let s = fill_and_query(&mut chain, &mut keys, p.n, p.queries)?;
        let mut fixed = BloomFilter::with_rate(p.fixed_capacity, p.p, hasher)?;
        let f = fill_and_query(&mut fixed, &mut keys, p.n, p.queries)?;
        let stage_fprs: Vec<f64> = chain
            .stage_shapes()
            .iter()
            .map(|&(m, k, held)| bloom_theory::fpr(held as f64, m as f64, k as f64))
            .collect();
        Ok(R {
            filters: chain.filters(),
            bytes: chain.bytes(),
            bits_per_key: chain.bytes() as f64 * 8.0 / p.n as f64,
            fpr_measured: s.fpr,
            fpr_theory: theory::compound(&stage_fprs),
            fpr_bound: chain.bound(),
            fixed_bytes: fixed.bytes(),
            fixed_fpr_measured: f.fpr,
            fixed_fpr_theory: bloom_theory::fpr(p.n as f64, fixed.m() as f64, fixed.k() as f64),
            false_negatives: s.false_negatives + f.false_negatives,
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n + p.queries)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // the chain grows until it holds n: at most growth x n keys at the
        // tightest stage's rate, plus the fixed filter
        let last = (p.n as f64 * p.growth).ceil() as u64;
        let chain = bloom_bytes(bloom_bits(last, p.p * (1.0 - p.ratio)));
        Some(
            Footprint::one(chain, 2.0 * (p.n + p.queries) as f64)
                .plus(bloom_bytes(bloom_bits(p.fixed_capacity, p.p))),
        )
    }
}
