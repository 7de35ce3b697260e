//! `bloom_fpr`: false-positive rate of a Bloom filter across n, bits per key,
//! k and hash strategy, next to (1 − e^(−kn/m))^k.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{
    self, FillQuery, HASH, HASH_SEED, KEYS, MAX_BITS, QUERIES, fill_and_query,
};
use crate::experiment::kinds::footprint::bloom_bytes;
use crate::experiment::params::{Def, HashSeed, KSetting, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::{KeyGen, KeyType};

pub struct BloomFpr;

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Required, "keys inserted"),
        bits_per_key: f64 [bits_per_key] = common::positive(1e4, Def::Required, "m/n; m = ceil(bits_per_key * n)"),
        k: KSetting [count] = common::k_param(Def::Str("optimal"), "probes per key, or \"optimal\" = max(1, round(m/n ln 2))"),
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
        k_optimal: f64 [Same, count],
        bytes: usize [Same, bytes],
        fill_measured: Proportion [fraction],
        fill_theory: f64 [Same, fraction],
        members_checked: u64 [Sum, count],
        false_negatives: u64 [Max, count],
        fpr_measured: Proportion [fraction],
        fpr_theory: f64 [Same, fraction],
        fpr_theory_optimal_k: f64 [Same, fraction],
        /// The theory plus plain double hashing's repeated-probe excess.
        fpr_theory_double: f64 [Same, fraction],
        fpr_given_fill: f64 [fraction],
    }
}

/// m and k for a trial.
pub fn m_k(n: u64, bits_per_key: f64, k: KSetting) -> (u64, u32) {
    let m = (bits_per_key * n as f64).ceil().max(1.0) as u64;
    let k = match k {
        KSetting::Fixed(k) => k,
        KSetting::Optimal => theory::optimal_k_int(m, n),
    };
    (m, k)
}

/// The cross-parameter check every m = bits_per_key·n kind shares.
pub fn check_bits(n: u64, bits_per_key: f64) -> crate::error::Result<()> {
    if bits_per_key * n as f64 > MAX_BITS {
        return Err(crate::error::Error::invalid(
            "bits_per_key",
            format!(
                "bits_per_key * n must be <= 2^40 bits (128 GiB; the hard cap for absurd sizes: `sketchlab plan` checks the machine); n = {n}"
            ),
        ));
    }
    Ok(())
}

impl Measure for BloomFpr {
    type P = P;
    type R = R;
    const NAME: &'static str = "bloom_fpr";
    const ABOUT: &'static str =
        "Bloom filter FPR vs n, bits per key, k and hash, with Wilson intervals, next to theory";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        check_bits(p.n, p.bits_per_key)
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (m, k) = m_k(p.n, p.bits_per_key, p.k);
        let mut f = BloomFilter::new(m, k, p.hash_seed.hasher(p.hash, seeds))?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let fq: FillQuery = fill_and_query(&mut f, &mut keys, p.n, p.queries)?;
        let (nf, mf, kf) = (p.n as f64, m as f64, k as f64);
        let k_opt = theory::optimal_k(mf, nf);
        Ok(R {
            m,
            k_used: k,
            k_optimal: k_opt,
            bytes: f.bytes(),
            fill_measured: fq.fill,
            fill_theory: theory::expected_fill(nf, mf, kf),
            members_checked: fq.members_checked,
            false_negatives: fq.false_negatives,
            fpr_measured: fq.fpr,
            fpr_theory: theory::fpr(nf, mf, kf),
            fpr_theory_optimal_k: theory::fpr(nf, mf, k_opt),
            fpr_theory_double: theory::fpr_double_hashing(nf, m, k),
            fpr_given_fill: fq.fill.rate.powi(k as i32),
        })
    }

    fn draws(&self, p: &P, metric: &str) -> Option<f64> {
        // the FPR is over the trial's absent-key queries
        (metric == "fpr_measured").then_some(p.queries as f64)
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n + p.queries)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let (m, _) = super::bloom_fpr::m_k(p.n, p.bits_per_key, p.k);
        Some(Footprint::one(
            bloom_bytes(m as f64),
            (p.n + p.queries) as f64,
        ))
    }
}
