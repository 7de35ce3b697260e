//! `bloom_overfill`: a filter sized for `capacity` keys at rate `p`, filled
//! with `n` keys (the essay's lost overfill table), and the database load
//! behind it at a given request rate and hit rate.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES, fill_and_query};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes};
use crate::experiment::params::{Def, HashSeed, PType, ParamDef, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::{KeyGen, KeyType};

pub struct BloomOverfill;

/// A fraction in [0, 1].
pub const FRACTION: PType = PType::Float {
    min: 0.0,
    max: 1.0,
    min_open: false,
    max_open: false,
};

crate::params! {
    pub struct P {
        capacity: u64 [count] = common::count(Def::Int(1_000_000), "keys the filter is sized for"),
        p: f64 [fraction] = common::rate(Def::Float(0.01), "false-positive rate it is sized for"),
        n: u64 [count] = common::count(Def::Required, "keys actually inserted"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
        queries: u64 [count] = QUERIES,
        request_rate: f64 [per_second] = common::positive(f64::INFINITY, Def::Float(10_000.0), "requests per second in front of the store"),
        hit_rate: f64 [fraction] = ParamDef::new("", FRACTION, Def::Float(0.02), "fraction of requests for keys that exist"),
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same, bits],
        k: u32 [Same, count],
        mb: f64 [Same, megabytes],
        overfill: f64 [Same, ratio],
        fill_measured: Proportion [fraction],
        fill_theory: f64 [Same, fraction],
        members_checked: u64 [Sum, count],
        false_negatives: u64 [Max, count],
        fpr_measured: Proportion [fraction],
        fpr_theory: f64 [Same, fraction],
        db_load_measured: crate::stats::Estimate [fraction],
        db_load_theory: f64 [Same, fraction],
        db_load_vs_design: f64 [ratio],
        required_m: u64 [Same, bits],
        required_mb: f64 [Same, megabytes],
    }
}

impl Measure for BloomOverfill {
    type P = P;
    type R = R;
    const NAME: &'static str = "bloom_overfill";
    const ABOUT: &'static str =
        "a filter sized for one capacity filled past it: FPR and the store load it lets through";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if theory::optimal_m(p.capacity, p.p) as f64 > common::MAX_BITS {
            return Err(crate::error::Error::invalid(
                "capacity",
                "the filter must be <= 2^40 bits (128 GiB; the hard cap for absurd sizes: `sketchlab plan` checks the machine)",
            ));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (cap, target, n) = (p.capacity, p.p, p.n);
        let mut f = BloomFilter::with_rate(cap, target, p.hash_seed.hasher(p.hash, seeds))?;
        let (m, k) = (f.m(), f.k());
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let fq = fill_and_query(&mut f, &mut keys, n, p.queries)?;
        let fpr = fq.fpr;
        let (nf, mf, kf) = (n as f64, m as f64, k as f64);
        let (rate, h) = (p.request_rate, p.hit_rate);
        let load = |fp: f64| rate * theory::store_traffic(h, fp);
        let fpr_theory = theory::fpr(nf, mf, kf);
        let design = load(theory::fpr(cap as f64, mf, kf));
        let required = theory::optimal_m(n, target);
        Ok(R {
            m,
            k,
            mb: mf / 8.0 / 1e6,
            overfill: nf / cap as f64,
            fill_measured: fq.fill,
            fill_theory: theory::expected_fill(nf, mf, kf),
            members_checked: fq.members_checked,
            false_negatives: fq.false_negatives,
            fpr_measured: fpr,
            fpr_theory,
            db_load_measured: crate::stats::Estimate::proportion(fpr.successes, fpr.trials)
                .map(load),
            db_load_theory: load(fpr_theory),
            db_load_vs_design: load(fpr.rate) / design,
            required_m: required,
            required_mb: required as f64 / 8.0 / 1e6,
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
        Some(Footprint::one(
            bloom_bytes(bloom_bits(p.capacity, p.p)),
            (p.n + p.queries) as f64,
        ))
    }
}
