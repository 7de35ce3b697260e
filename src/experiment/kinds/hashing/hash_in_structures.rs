//! `hash_in_structures`: does a strategy keep a structure's guarantee on
//! structured keys? A Bloom filter's FPR (n keys, rate p) and the
//! HyperLogLog leading-zero estimate (2^hll_p registers over the same keys),
//! per strategy and keyset, each next to its theory.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes, hll_bytes, table};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{KeyHasher, StrategyId};
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, theory};
use crate::structures::hyperloglog::{self, Registers};
use crate::workload::keysets::{Keyset, KeysetGen};
use std::collections::HashSet;

pub struct HashInStructures;

crate::params! {
    pub struct P {
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keyset: Keyset = common::choice(Keyset::NAMES, Def::Required, "structured keys"),
        n: u64 [count] = common::count(Def::Int(100_000), "keys inserted (words: at most half the dictionary; the other half is queried)"),
        p: f64 [fraction] = common::rate(Def::Float(0.01), "Bloom design rate"),
        queries: u64 [count] = common::count(Def::Int(1_000_000), "keys of the same keyset never inserted"),
        hll_p: u32 [bits] = common::int(4, 18, Def::Int(14), "HyperLogLog index bits (2^hll_p registers)"),
    }
}

crate::row! {
    pub struct R {
        width: u32 [Same, bits],
        n_inserted: u64 [Same, count],
        queries_done: u64 [Same, count],
        m: u64 [Same, bits],
        k: u32 [Same, count],
        false_negatives: u64 [Max, count],
        fpr_measured: Proportion [fraction],
        fpr_theory: f64 [Same, fraction],
        fpr_z: f64 [sigmas],
        fpr_width_floor: f64 [Same, fraction],
        fpr_theory_with_width: f64 [Same, fraction],
        fpr_z_with_width: f64 [sigmas],
        hll_estimate: f64 [count],
        hll_rel_error: f64 [relative_error],
        hll_theory_se: f64 [Same, relative_error],
        hll_z: f64 [sigmas],
        full_width_collisions: u64 [count],
    }
}

impl Measure for HashInStructures {
    type P = P;
    type R = R;
    const NAME: &'static str = "hash_in_structures";
    const ABOUT: &'static str = "Bloom FPR and the HyperLogLog leading-zero estimate per hash on structured keysets, vs theory";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let h = p.hash_seed.hasher(p.hash, seeds);
        let set = p.keyset;
        let max = set.max_ids();
        let n = p.n.min(max / 2);
        let queries = p.queries.min(max - n);
        let mut g = KeysetGen::new(set, seeds.derive("keys"));
        let mut f = BloomFilter::with_rate(n, p.p, h.clone())?;
        let width = h.width();
        // The HyperLogLog statistic over the same words: the top 64 bits of a
        // 128-bit output, the whole of a narrower one.
        let mut hll = Registers::new(p.hll_p, width.min(64));
        let mut distinct: HashSet<u128> = HashSet::with_capacity(n as usize);
        for id in 0..n {
            let key = g.key(id);
            let v = h.native(key);
            f.insert_hash(crate::hashing::halves(v, width));
            distinct.insert(v);
            hll.insert_word(if width == 128 {
                (v >> 64) as u64
            } else {
                v as u64
            });
        }
        let fneg = (0..n).filter(|&id| !f.contains(g.key(id))).count() as u64;
        let fp = (n..n + queries).filter(|&id| f.contains(g.key(id))).count() as u64;
        let prop = Proportion::new(fp, queries);
        let th = theory::fpr(n as f64, f.m() as f64, f.k() as f64);
        // A query whose full-width hash equals an inserted key's gets the same
        // probes: a false positive whatever m and k are. With w-bit outputs
        // that floor is 1 - (1 - 2^-w)^n ≈ n/2^w.
        let floor = if width >= 128 {
            0.0
        } else {
            -((n as f64) * (-(2f64.powi(-(width as i32)))).ln_1p()).exp_m1()
        };
        let th_w = 1.0 - (1.0 - th) * (1.0 - floor);
        let est = hll.linear_or_raw();
        let se = hyperloglog::theory::standard_error(hll.m());
        let rel = est / n as f64 - 1.0;
        let z = |x: f64, t: f64| (x - t) / (t * (1.0 - t) / queries as f64).sqrt();
        Ok(R {
            width,
            n_inserted: n,
            queries_done: queries,
            m: f.m(),
            k: f.k(),
            false_negatives: fneg,
            fpr_measured: prop,
            fpr_theory: th,
            fpr_z: z(prop.rate, th),
            fpr_width_floor: floor,
            fpr_theory_with_width: th_w,
            fpr_z_with_width: z(prop.rate, th_w),
            hll_estimate: est,
            hll_rel_error: rel,
            hll_theory_se: se,
            hll_z: rel / se,
            full_width_collisions: n - distinct.len() as u64,
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let n = p.n as f64;
        let filter = bloom_bytes(bloom_bits(p.n, p.p));
        Some(Footprint::one(filter, n + p.queries as f64).plus(hll_bytes(p.hll_p) + table(n, 16.0)))
    }
}
