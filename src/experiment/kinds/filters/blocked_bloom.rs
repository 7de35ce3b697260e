//! `blocked_bloom`: a blocked Bloom filter (all k probes in one 512-bit block)
//! against the standard filter at equal bits per key and k: the FPR penalty,
//! measured and from the Poisson-averaged theory, and the cache lines a
//! member query touches.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::bloom::bloom_fpr::{check_bits, m_k};
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES, fill_and_query};
use crate::experiment::kinds::footprint::bloom_bytes;
use crate::experiment::params::{Def, HashSeed, KSetting, Seeds};
use crate::hashing::StrategyId;
use crate::stats::{self, Proportion};
use crate::structures::bloom::blocked::BLOCK_BITS;
use crate::structures::bloom::{BlockedBloom, BloomFilter, theory};
use crate::table::Interval;
use crate::workload::{KeyGen, KeyType};

pub struct BlockedBloomStudy;

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Int(1_000_000), "keys inserted"),
        bits_per_key: f64 [bits_per_key] = common::positive(1e4, Def::Required, "m/n (m rounded up to whole 512-bit blocks)"),
        k: KSetting [count] = common::k_param(Def::Str("optimal"), "probes per key"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
        queries: u64 [count] = QUERIES,
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same, bits],
        k_used: u32 [Same, count],
        fpr_measured: Proportion [fraction],
        fpr_theory_blocked: f64 [Same, fraction],
        standard_fpr_measured: Proportion [fraction],
        fpr_theory_standard: f64 [Same, fraction],
        penalty_measured: f64 [ratio],
        penalty_theory: f64 [Same, ratio],
        false_negatives: u64 [Max, count],
        /// Distinct 64-byte lines a member query of the standard filter reads (mean).
        standard_cache_lines_per_query: Interval [count],
        blocked_cache_lines_per_query: u32 [Same, count],
    }
}

impl Measure for BlockedBloomStudy {
    type P = P;
    type R = R;
    const NAME: &'static str = "blocked_bloom";
    const ABOUT: &'static str = "blocked Bloom (k probes in one 512-bit block) vs the standard filter: FPR penalty and cache lines per query";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        check_bits(p.n, p.bits_per_key)
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (m0, k) = m_k(p.n, p.bits_per_key, p.k);
        let m = m0.div_ceil(BLOCK_BITS) * BLOCK_BITS;
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let mut blocked = BlockedBloom::new(m, k, hasher.clone())?;
        let b = fill_and_query(&mut blocked, &mut keys, p.n, p.queries)?;
        let mut standard = BloomFilter::new(m, k, hasher)?;
        let s = fill_and_query(&mut standard, &mut keys, p.n, p.queries)?;
        let lines: Vec<f64> = (0..p.n.min(100_000))
            .map(|id| {
                let mut l: Vec<u64> = standard
                    .positions(keys.key(id))
                    .iter()
                    .map(|x| x / 512)
                    .collect();
                l.sort_unstable();
                l.dedup();
                l.len() as f64
            })
            .collect();
        let (nf, mf, kf) = (p.n as f64, m as f64, k as f64);
        let (tb, ts) = (
            theory::fpr_blocked(nf, mf, kf, BLOCK_BITS as f64),
            theory::fpr(nf, mf, kf),
        );
        Ok(R {
            m,
            k_used: k,
            fpr_measured: b.fpr,
            fpr_theory_blocked: tb,
            standard_fpr_measured: s.fpr,
            fpr_theory_standard: ts,
            penalty_measured: b.fpr.rate / s.fpr.rate,
            penalty_theory: tb / ts,
            false_negatives: b.false_negatives + s.false_negatives,
            standard_cache_lines_per_query: stats::mean_interval(&lines, stats::PLOT_CONFIDENCE),
            blocked_cache_lines_per_query: blocked.cache_lines_per_query(),
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n + p.queries)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // the blocked filter and the standard one it is compared with, same bits
        let bits = (p.bits_per_key * p.n as f64 / 512.0).ceil() * 512.0;
        Some(
            Footprint::one(bloom_bytes(bits), 2.0 * (p.n + p.queries) as f64)
                .plus(bloom_bytes(bits)),
        )
    }
}
