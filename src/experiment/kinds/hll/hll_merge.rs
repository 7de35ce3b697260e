//! `hll_merge`: a cluster of nodes, each counting its own shard of a stream
//! (with overlap between shards), merged at a coordinator: the merged
//! registers against those of one sketch fed the whole stream, the bytes sent,
//! and the error of the merged estimate.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::kinds::footprint::hll_bytes;
use crate::experiment::params::{Def, HashSeed, ParamDef, Seeds};
use crate::hashing::StrategyId;
use crate::structures::hyperloglog::HyperLogLog;
use crate::workload::{KeyGen, KeyType};
use rand::RngExt;

pub struct HllMerge;

crate::params! {
    pub struct P {
        nodes: u64 [count] = common::int(1, 100_000, Def::Int(200), "nodes, each with its own sketch"),
        n: u64 [count] = common::count(Def::Int(1_000_000), "distinct keys in the whole stream"),
        p: u32 [bits] = common::int(4, 18, Def::Int(14), "precision of every sketch"),
        overlap: f64 [fraction] = ParamDef::new("", crate::experiment::kinds::bloom::bloom_overfill::FRACTION, Def::Float(0.2), "fraction of keys a second, random node also sees"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R {
        /// Whether the merged registers equal the registers of one sketch of the union.
        merged_equals_union: bool [Same],
        registers_differing: u64 [count],
        bytes_per_node: usize [Same, bytes],
        bytes_sent: usize [Same, bytes],
        keys_seen_by_nodes: u64 [count],
        err_merged_ertl: f64 [relative_error],
        err_union_ertl: f64 [relative_error],
        se_theory: f64 [Same, relative_error],
    }
}

impl Measure for HllMerge {
    type P = P;
    type R = R;
    const NAME: &'static str = "hll_merge";
    const ABOUT: &'static str =
        "HyperLogLog sketches of shards merged at a coordinator vs one sketch of the union";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let mut nodes: Vec<HyperLogLog<_>> = (0..p.nodes)
            .map(|_| HyperLogLog::new(p.p, hasher.clone()))
            .collect::<Result<_, _>>()?;
        let mut union = HyperLogLog::new(p.p, hasher)?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let mut rng = seeds.rng("shards");
        let mut seen = 0u64;
        for id in 0..p.n {
            let key = keys.key(id);
            union.insert(key);
            let home = rng.random_range(0..p.nodes) as usize;
            nodes[home].insert(key);
            seen += 1;
            if rng.random_bool(p.overlap) {
                nodes[rng.random_range(0..p.nodes) as usize].insert(key);
                seen += 1;
            }
        }
        let mut merged = HyperLogLog::new(p.p, nodes[0].clone_hasher())?;
        for node in &nodes {
            merged.merge(node)?;
        }
        let m = merged.m();
        let differing = (0..m)
            .filter(|&i| merged.registers().get(i) != union.registers().get(i))
            .count() as u64;
        let n = p.n as f64;
        Ok(R {
            merged_equals_union: differing == 0,
            registers_differing: differing,
            bytes_per_node: merged.bytes_used(),
            bytes_sent: merged.bytes_used() * p.nodes as usize,
            keys_seen_by_nodes: seen,
            err_merged_ertl: merged.ertl() / n - 1.0,
            err_union_ertl: union.ertl() / n - 1.0,
            se_theory: 1.04 / (m as f64).sqrt(),
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let all = (p.nodes + 2) as f64 * hll_bytes(p.p);
        Some(Footprint::one(
            all,
            p.n as f64 * (1.0 + p.overlap) + p.nodes as f64 * (1u64 << p.p) as f64,
        ))
    }
}
