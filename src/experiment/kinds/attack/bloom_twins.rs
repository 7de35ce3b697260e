//! `bloom_twins`: a Bloom filter on MurmurHash3_x64_128 with a seed the
//! attacker never sees. Every member of at least 32 bytes has a twin (the
//! seed-independent differential of `attack::murmur`) with the same 128-bit
//! hash under every seed, hence the same k probes: querying the twins of
//! members gives false positives at 100%, whatever the seed. The same twins
//! against a keyed hash (SipHash-1-3) are just other keys: the design rate.

use crate::attack::murmur::Target;
use crate::experiment::kinds::common::{self, HASH_SEED};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes};
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, HashSeed, PType, ParamDef, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::bloom::BloomFilter;
use crate::workload::{KeyGen, KeyType};

pub struct BloomTwins;

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Int(100_000), "members inserted (and twins queried)"),
        p: f64 [fraction] = common::rate(Def::Float(0.01), "the filter's design false-positive rate"),
        hash: StrategyId = ParamDef::new("", PType::Hash, Def::Str("murmur3_x64_128"), "the filter's hash"),
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = ParamDef::new("", PType::Keys, Def::Str("url100"), "member keys (at least 32 bytes: url100 or blob2k)"),
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same, bits],
        k: u32 [Same, count],
        twins_queried: u64 [Same, count],
        /// Twins of members (never inserted) that test positive.
        fpr_twins: Proportion [fraction],
        /// Fresh random non-members that test positive.
        fpr_honest: Proportion [fraction],
        fpr_design: f64 [Same, fraction],
    }
}

fn twin(keys: &mut KeyGen, id: u64) -> Vec<u8> {
    Target::Murmur3x64_128.twin(keys.key(id))
}

impl Measure for BloomTwins {
    type P = P;
    type R = R;
    const NAME: &'static str = "bloom_twins";
    const ABOUT: &'static str = "Bloom filter queried with seed-independent MurmurHash3 twins of its members, vs a keyed hash";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if p.keys.min_len() < 32 {
            return Err(crate::error::Error::invalid(
                "keys",
                "every key must be at least 32 bytes long: url100, blob2k or such a key file",
            ));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let mut f = BloomFilter::with_rate(p.n, p.p, p.hash_seed.hasher(p.hash, seeds))?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        for id in 0..p.n {
            f.insert(keys.key(id));
        }
        let twins = (0..p.n)
            .filter(|&id| f.contains(&twin(&mut keys, id)))
            .count() as u64;
        // honest non-members: ids beyond the members
        let honest = (p.n..2 * p.n)
            .filter(|&id| f.contains(keys.key(id)))
            .count() as u64;
        Ok(R {
            m: f.m(),
            k: f.k(),
            twins_queried: p.n,
            fpr_twins: Proportion::new(twins, p.n),
            fpr_honest: Proportion::new(honest, p.n),
            fpr_design: p.p,
        })
    }

    fn keys(&self, p: &P, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        Ok(Some((0..p.n).map(|id| twin(&mut keys, id)).collect()))
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        // members, then as many honest non-members
        Some(2 * p.n)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        Some(Footprint::one(
            bloom_bytes(bloom_bits(p.n, p.p)),
            3.0 * p.n as f64,
        ))
    }
}
