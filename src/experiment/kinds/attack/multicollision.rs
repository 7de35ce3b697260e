//! `multicollision`: seed-independent MurmurHash multicollisions. A random
//! base message of `units` differential units (plus a 5-byte tail) spans a
//! family of 2^units inputs; under `seeds` random seeds the attacker never
//! saw, every member must hash to one value, while as many random messages
//! of the same length hash to as many values.

use super::target;
use crate::experiment::kinds::common;
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, Seeds};
use crate::hashing::{KeyHasher, Seed, StrategyId};
use rand::RngExt;

pub struct Multicollision;

crate::closed_set! {
    /// The values of `target`.
    pub enum Target {
        Murmur3X8632 = "murmur3_x86_32",
        Murmur64a = "murmur64a",
        Murmur3X64128 = "murmur3_x64_128",
    }
}

crate::params! {
    pub struct P {
        target: Target = common::choice(Target::NAMES, Def::Required, "the hash attacked"),
        units: u32 [count] = common::int(1, 20, Def::Int(10), "independent differences: a family of 2^units inputs"),
        seeds: u64 [count] = common::int(1, 1000, Def::Int(5), "random seeds the family is hashed under"),
    }
}

crate::row! {
    pub struct R {
        message_bytes: usize [Same, bytes],
        family_size: u64 [Same, count],
        distinct_inputs: u64 [Same, count],
        seeds_tested: u64 [Same, count],
        /// The most distinct hash values the family took under any one seed (1 = a multicollision).
        family_hashes_max: u64 [Max, count],
        /// The fewest distinct values as many random messages took under any seed.
        random_hashes_min: u64 [count],
        all_collide: bool [Same],
    }
}

fn base(p: &P, seeds: Seeds) -> Vec<u8> {
    let t = target(p.target.as_str());
    let mut rng = seeds.rng("base");
    (0..t.unit() * p.units as usize + 5)
        .map(|_| rng.random::<u8>())
        .collect()
}

impl Measure for Multicollision {
    type P = P;
    type R = R;
    const NAME: &'static str = "multicollision";
    const ABOUT: &'static str =
        "Seed-independent MurmurHash multicollisions (2^n inputs, one hash under every seed)";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let t = target(p.target.as_str());
        let base = base(p, seeds);
        let family = 1u64 << p.units;
        let members: Vec<Vec<u8>> = (0..family).map(|i| t.member(&base, i)).collect();
        let distinct = members
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len() as u64;
        let id = StrategyId::from_name(t.strategy()).expect("a zoo strategy");
        let mut rng = seeds.rng("seeds");
        let (mut worst, mut random_min) = (0u64, u64::MAX);
        for _ in 0..p.seeds {
            let h = id.build(Seed {
                lo: rng.random(),
                hi: rng.random(),
            });
            let count = |msgs: &mut dyn Iterator<Item = Vec<u8>>| {
                msgs.map(|m| h.native(&m))
                    .collect::<std::collections::HashSet<u128>>()
                    .len() as u64
            };
            worst = worst.max(count(&mut members.iter().cloned()));
            let mut r = seeds.rng("random messages");
            random_min = random_min.min(count(
                &mut (0..family).map(|_| (0..base.len()).map(|_| r.random::<u8>()).collect()),
            ));
        }
        Ok(R {
            message_bytes: base.len(),
            family_size: family,
            distinct_inputs: distinct,
            seeds_tested: p.seeds,
            family_hashes_max: worst,
            random_hashes_min: random_min,
            all_collide: worst == 1 && distinct == family,
        })
    }

    fn keys(&self, p: &P, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        let t = target(p.target.as_str());
        let base = base(p, seeds);
        Ok(Some(
            (0..1u64 << p.units).map(|i| t.member(&base, i)).collect(),
        ))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let family = (1u64 << p.units) as f64;
        let bytes = family * (32.0 * p.units as f64 + 40.0);
        Some(
            Footprint::one(bytes, family * (p.seeds as f64 * 2.0 + p.units as f64))
                .plus(family * 48.0),
        )
    }
}
