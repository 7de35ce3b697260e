//! `hit_rate`: the essay's lost economics table. A simulated authoritative
//! store (an exact set) sits behind a filter; requests arrive at a given hit
//! rate; we count the lookups that reach the store, next to h + (1 − h)·p.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::bloom::bloom_overfill::FRACTION;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes, boxed_set};
use crate::experiment::params::{Def, HashSeed, ParamDef, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::{KeyGen, KeyType};
use rand::RngExt;
use std::collections::HashSet;

pub struct HitRate;

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Int(1_000_000), "keys in the store (and the filter's capacity)"),
        p: f64 [fraction] = common::rate(Def::Float(0.01), "the filter's design false-positive rate"),
        hit_rate: f64 [fraction] = ParamDef::new("", FRACTION, Def::Required, "fraction of requests for keys in the store"),
        requests: u64 [count] = common::count(Def::Int(1_000_000), "requests simulated"),
        per: u64 [count] = common::count(Def::Int(10_000), "report counts per this many requests (the essay: per 10,000 requests a second)"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same, bits],
        k: u32 [Same, count],
        filter_fpr_theory: f64 [Same, fraction],
        genuine_hits: u64 [Sum, count],
        misses: u64 [Sum, count],
        false_positives_passed: u64 [Sum, count],
        store_lookups: u64 [Sum, count],
        false_negatives: u64 [Max, count],
        store_lookups_per: crate::stats::Estimate [count],
        store_lookups_per_theory: f64 [Same, count],
        store_lookups_per_filter_theory: f64 [Same, count],
        hits_per: f64 [count],
        false_positives_per: f64 [count],
        false_positives_per_theory: f64 [Same, count],
        miss_fpr_measured: Option<f64> [fraction],
        /// P(absent | the filter says yes): the share of "maybe"s that are false.
        wrong_given_yes: Option<Proportion> [fraction],
        wrong_given_yes_theory: f64 [Same, fraction],
        fraction_removed: f64 [fraction],
        fraction_removed_theory: f64 [Same, fraction],
        no_filter_per: f64 [Same, count],
        /// The hit rate at which the filter removes exactly one query in ten:
        /// (1 − h)(1 − p) = 0.1.
        hit_rate_for_one_in_ten: f64 [Same, fraction],
    }
}

impl Measure for HitRate {
    type P = P;
    type R = R;
    const NAME: &'static str = "hit_rate";
    const ABOUT: &'static str =
        "store lookups behind a filter at a given hit rate, next to h + (1-h)p";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if p.n > 100_000_000 {
            return Err(crate::error::Error::invalid(
                "n",
                "must be <= 100000000 (the store is an exact in-memory set)",
            ));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (n, target, h, requests, per) = (p.n, p.p, p.hit_rate, p.requests, p.per as f64);
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let mut filter = BloomFilter::with_rate(n, target, p.hash_seed.hasher(p.hash, seeds))?;
        // The authoritative store: an exact set of the key bytes.
        let mut store: HashSet<Box<[u8]>> = HashSet::with_capacity(n as usize);
        for id in 0..n {
            let k = keys.key(id);
            filter.insert(k);
            store.insert(k.into());
        }
        let mut rng = seeds.rng("requests");
        let (mut hits, mut misses, mut fps, mut lookups, mut fneg) = (0u64, 0u64, 0u64, 0u64, 0u64);
        let mut next_absent = n; // ids >= n are never in the store
        for _ in 0..requests {
            let id = if rng.random_bool(h) {
                rng.random_range(0..n)
            } else {
                next_absent += 1;
                next_absent - 1
            };
            let key = keys.key(id);
            let member = id < n;
            if filter.contains(key) {
                lookups += 1;
                // The store confirms the hit or reveals the false positive.
                if store.contains(key) {
                    hits += 1;
                } else {
                    fps += 1;
                }
            } else if member {
                fneg += 1;
            }
            if !member {
                misses += 1;
            }
        }
        let lk = Proportion::new(lookups, requests);
        let filter_fpr = theory::fpr(n as f64, filter.m() as f64, filter.k() as f64);
        let scale = per / requests as f64;
        let traffic = theory::store_traffic(h, target);
        Ok(R {
            m: filter.m(),
            k: filter.k(),
            filter_fpr_theory: filter_fpr,
            genuine_hits: hits,
            misses,
            false_positives_passed: fps,
            store_lookups: lookups,
            false_negatives: fneg,
            store_lookups_per: crate::stats::Estimate::proportion(lookups, requests)
                .map(|x| x * per),
            store_lookups_per_theory: per * traffic,
            store_lookups_per_filter_theory: per * theory::store_traffic(h, filter_fpr),
            hits_per: hits as f64 * scale,
            false_positives_per: fps as f64 * scale,
            false_positives_per_theory: per * (1.0 - h) * target,
            miss_fpr_measured: (misses > 0).then(|| fps as f64 / misses as f64),
            wrong_given_yes: (lookups > 0).then(|| Proportion::new(fps, lookups)),
            wrong_given_yes_theory: (1.0 - h) * target / traffic,
            fraction_removed: 1.0 - lk.rate,
            fraction_removed_theory: 1.0 - traffic,
            no_filter_per: per,
            hit_rate_for_one_in_ten: 1.0 - 0.1 / (1.0 - target),
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        // members, then at most one fresh absent key per request
        Some(p.n + p.requests)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // the filter and the authoritative store (an exact set of boxed keys)
        let n = p.n as f64;
        Some(
            Footprint::one(
                bloom_bytes(bloom_bits(p.n, p.p)),
                2.0 * n + p.requests as f64,
            )
            .plus(boxed_set(n, p.keys)),
        )
    }
}
