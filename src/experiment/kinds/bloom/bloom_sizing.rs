//! `bloom_sizing`: the essay's lost "for a million keys" table. For each
//! target p: bits per key, m, MB, k, theory FPR at the integer k, and the FPR
//! measured on a filter built exactly that way.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES, fill_and_query};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats::{self, Proportion};
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::{KeyGen, KeyType};

pub struct BloomSizing;

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Int(1_000_000), "keys the filter is sized for and filled with"),
        p: f64 [fraction] = common::rate(Def::Required, "target false-positive rate"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
        queries: u64 [count] = QUERIES,
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same, bits],
        bits_per_key: f64 [Same, bits_per_key],
        bits_per_key_theory: f64 [Same, bits_per_key],
        extra_bits_per_decade: Option<f64> [Same, bits_per_key],
        mb: f64 [Same, megabytes],
        bytes: usize [Same, bytes],
        k: u32 [Same, count],
        k_optimal: f64 [Same, count],
        /// Bits a member's query reads: all k.
        lookups_per_query: u32 [Same, count],
        /// Bits an absent key's query reads before the first zero (mean, 95% interval).
        lookups_per_negative_query: stats::Estimate [count],
        /// Σ_{i<k} ρ^i = (1 − ρ^k)/(1 − ρ) at the expected fill ρ.
        lookups_per_negative_theory: f64 [Same, count],
        fill_measured: Proportion [fraction],
        fill_theory: f64 [Same, fraction],
        /// The fill at the real-valued k* = (m/n) ln 2 (exactly ½ by the formula).
        fill_at_real_k_star: f64 [Same, fraction],
        members_checked: u64 [Sum, count],
        false_negatives: u64 [Max, count],
        fpr_measured: Proportion [fraction],
        fpr_theory: f64 [Same, fraction],
        /// The space the built filter spends per bit of precision it
        /// measured: bits per key ÷ log2(1/FPR measured) (the sizing rule's
        /// constant, 1/(ln 2)² · ln 2 = 1.4427 at the real-valued optimum),
        /// with the FPR's intervals mapped through (Wilson 95%, exact 99.9%).
        space_per_log2_fpr: stats::Estimate [ratio],
        /// The same at the formula's FPR for the filter's integer k.
        space_per_log2_fpr_theory: f64 [Same, ratio],
    }
}

impl Measure for BloomSizing {
    type P = P;
    type R = R;
    const NAME: &'static str = "bloom_sizing";
    const ABOUT: &'static str = "Bloom sizing by the chapter's formulas for a target p, and the FPR a filter built that way measures";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if theory::optimal_m(p.n, p.p) as f64 > common::MAX_BITS {
            return Err(crate::error::Error::invalid(
                "n",
                "the filter for n at p must be <= 2^40 bits (128 GiB; the hard cap for absurd sizes: `sketchlab plan` checks the machine)",
            ));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (n, target) = (p.n, p.p);
        let mut f = BloomFilter::with_rate(n, target, p.hash_seed.hasher(p.hash, seeds))?;
        let (m, k) = (f.m(), f.k());
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let fq = fill_and_query(&mut f, &mut keys, n, p.queries)?;
        // what a "no" costs: bits read until the first zero, over absent keys
        let sample = p.queries.min(1_000_000);
        let reads: Vec<f64> = (n..n + sample)
            .map(|id| f.probes_read(keys.key(id)) as f64)
            .collect();
        let negative = stats::Estimate::mean(&reads);
        let nf = n as f64;
        let rho = theory::expected_fill(nf, m as f64, k as f64);
        let extra =
            (target * 10.0 < 1.0).then(|| (m - theory::optimal_m(n, target * 10.0)) as f64 / nf);
        Ok(R {
            m,
            bits_per_key: m as f64 / nf,
            bits_per_key_theory: theory::bits_per_element(target),
            extra_bits_per_decade: extra,
            mb: m as f64 / 8.0 / 1e6,
            bytes: f.bytes(),
            k,
            k_optimal: theory::optimal_k(m as f64, nf),
            lookups_per_query: k,
            lookups_per_negative_query: negative,
            lookups_per_negative_theory: (1.0 - rho.powi(k as i32)) / (1.0 - rho),
            fill_measured: fq.fill,
            fill_theory: rho,
            fill_at_real_k_star: theory::expected_fill(
                nf,
                m as f64,
                theory::optimal_k(m as f64, nf),
            ),
            members_checked: fq.members_checked,
            false_negatives: fq.false_negatives,
            space_per_log2_fpr: stats::Estimate::proportion(fq.fpr.successes, fq.fpr.trials)
                .map(|f| m as f64 / nf / (1.0 / f).log2()),
            space_per_log2_fpr_theory: m as f64
                / nf
                / (1.0 / theory::fpr(nf, m as f64, k as f64)).log2(),
            fpr_measured: fq.fpr,
            fpr_theory: theory::fpr(nf, m as f64, k as f64),
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
        // and the probes-read sample kept for its interval
        let sample = p.queries.min(1_000_000) as f64;
        Some(
            Footprint::one(
                bloom_bytes(bloom_bits(p.n, p.p)),
                (p.n + p.queries) as f64 + sample,
            )
            .plus(sample * 8.0),
        )
    }
}
