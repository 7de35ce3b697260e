//! `seed_recovery`: the per-process random seed of a non-cryptographic hash,
//! recovered from one observed output and then used. For each secret seed
//! the victim draws, the attacker sees the hash of one key it chose (4 bytes
//! for MurmurHash3_x86_32, 8 for the 64-bit hashes), runs the function
//! backwards to the seed (`attack::seed`, no search), checks it against the
//! victim's hashes of further keys, and crafts pairs of keys that collide
//! under the recovered seed. Against SipHash-1-3 no inversion is known: the
//! attacker tries random keys (a bounded brute force) and crafts its pairs
//! under its best guess.

use crate::attack::seed;
use crate::attack::universal::{self, Function};
use crate::experiment::kinds::common;
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, Seeds};
use crate::hashing::{KeyHasher, Seed, StrategyId};
use crate::stats::Proportion;
use crate::table::Interval;
use rand::RngExt;

pub struct SeedRecovery;

/// Further keys the recovered seed must reproduce the victim's hash of.
const CHECKS: usize = 100;

crate::closed_set! {
    /// The values of `hash`.
    pub enum Victim {
        Murmur3X8632 = "murmur3_x86_32",
        Murmur64a = "murmur64a",
        Xxh64 = "xxh64",
        Xxh364 = "xxh3_64",
        Sip13 = "sip13",
    }
}

crate::params! {
    pub struct P {
        hash: Victim = common::choice(Victim::NAMES, Def::Required, "the victim's hash, seeded with a secret drawn per trial"),
        secrets: u64 [count] = common::int(1, 100_000, Def::Int(100), "secret seeds drawn (one victim process each)"),
        m: u64 [count] = common::int(2, 1 << 20, Def::Int(1024), "buckets the crafted pairs must share (a power of two)"),
        pairs: u64 [count] = common::int(1, 10_000, Def::Int(20), "pairs crafted per secret under the recovered seed"),
        guesses: u64 [count] = common::int(1, 1 << 30, Def::Int(100_000), "SipHash only: random keys the brute force tries per secret"),
    }
}

crate::row! {
    pub struct R {
        seed_bits: u32 [Same, bits],
        observed_key_bytes: u32 [Same, bytes],
        /// Secrets whose recovered seed reproduces the victim's hash of 100 further keys.
        recovered: Proportion [fraction],
        /// Hash evaluations the recovery took per secret (0: the output is run backwards).
        search_evaluations_per_secret: f64 [count],
        /// Evaluations an exhaustive search of the seed space needs on average (2^(bits − 1)).
        brute_force_expected: f64 [Same, count],
        /// Crafted pairs (under the recovered seed) that collide under the victim's secret seed.
        crafted_collision: Proportion [fraction],
        crafted_collision_x_m: Interval [ratio],
    }
}

struct Outcome {
    recovered: bool,
    evaluations: u64,
    pairs: Vec<(u64, u64)>,
    hits: u64,
}

fn strategy(name: &str) -> StrategyId {
    StrategyId::from_name(name).expect("a validated strategy")
}

/// The attacker's seed from one observed output, or `None` (SipHash).
fn invert(hash: Victim, key: [u8; 8], output: u64) -> Option<Seed> {
    Some(match hash {
        Victim::Murmur3X8632 => {
            let k4 = key[..4].try_into().expect("4 bytes");
            Seed::fixed(seed::murmur3_x86_32_seed(k4, output as u32) as u64)
        }
        Victim::Murmur64a => Seed::fixed(seed::murmur64a_seed(key, output)),
        Victim::Xxh64 => Seed::fixed(seed::xxh64_seed(key, output)),
        Victim::Xxh364 => Seed::fixed(seed::xxh3_64_seed(key, output)),
        Victim::Sip13 => return None,
    })
}

fn attack(p: &P, seeds: Seeds, secrets: u64) -> Vec<Outcome> {
    let id = strategy(p.hash.as_str());
    let bits = p.m.trailing_zeros();
    let mut victim_rng = seeds.rng("victim");
    let mut rng = seeds.rng("attacker");
    (0..secrets)
        .map(|_| {
            let secret = Seed {
                lo: victim_rng.random(),
                hi: victim_rng.random(),
            };
            let victim = id.build(secret);
            let key: [u8; 8] = rng.random();
            let observed_len = if p.hash == Victim::Murmur3X8632 { 4 } else { 8 };
            let output = victim.native(&key[..observed_len]) as u64;
            let (guess, evaluations) = match invert(p.hash, key, output) {
                Some(s) => (s, 0),
                None => {
                    // brute force: random keys until one reproduces the output
                    let mut found = None;
                    let mut tried = 0;
                    for _ in 0..p.guesses {
                        tried += 1;
                        let g = Seed {
                            lo: rng.random(),
                            hi: rng.random(),
                        };
                        if id.build(g).native(&key) as u64 == output {
                            found = Some(g);
                            break;
                        }
                    }
                    let last = Seed {
                        lo: rng.random(),
                        hi: rng.random(),
                    };
                    (found.unwrap_or(last), tried)
                }
            };
            let model = id.build(guess);
            let recovered = (0..CHECKS).all(|_| {
                let k: [u8; 8] = rng.random();
                model.native(&k[..observed_len]) == victim.native(&k[..observed_len])
            });
            let f = Function::hash(model, bits);
            let (pairs, _) = universal::craft_pairs(&f, p.pairs as usize, &mut rng);
            let v = Function::hash(victim, bits);
            let hits = pairs
                .iter()
                .filter(|&&(x, y)| v.bucket(x) == v.bucket(y))
                .count() as u64;
            Outcome {
                recovered,
                evaluations,
                pairs,
                hits,
            }
        })
        .collect()
}

impl Measure for SeedRecovery {
    type P = P;
    type R = R;
    const NAME: &'static str = "seed_recovery";
    const ABOUT: &'static str = "A per-process random seed recovered from one observed output (murmur, xxHash) and used to craft collisions; SipHash's key not";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if !p.m.is_power_of_two() {
            return Err(crate::error::Error::invalid("m", "must be a power of two"));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let out = attack(p, seeds, p.secrets);
        let seed_bits = match p.hash {
            Victim::Murmur3X8632 => 32,
            Victim::Sip13 => 128,
            _ => 64,
        };
        let crafted = Proportion::new(
            out.iter().map(|o| o.hits).sum(),
            out.iter().map(|o| o.pairs.len() as u64).sum(),
        );
        let mf = p.m as f64;
        Ok(R {
            seed_bits,
            observed_key_bytes: if p.hash == Victim::Murmur3X8632 { 4 } else { 8 },
            recovered: Proportion::new(
                out.iter().filter(|o| o.recovered).count() as u64,
                p.secrets,
            ),
            search_evaluations_per_secret: out.iter().map(|o| o.evaluations as f64).sum::<f64>()
                / p.secrets as f64,
            brute_force_expected: 2f64.powi(seed_bits as i32 - 1),
            crafted_collision: crafted,
            crafted_collision_x_m: Interval::new(
                crafted.rate * mf,
                crafted.lo * mf,
                crafted.hi * mf,
            ),
        })
    }

    fn keys(&self, p: &P, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        // the first secret's crafted pairs, 8 little-endian bytes per key
        let out = attack(p, seeds, 1);
        Ok(Some(
            out.into_iter()
                .flat_map(|o| o.pairs)
                .flat_map(|(x, y)| [x.to_le_bytes().to_vec(), y.to_le_bytes().to_vec()])
                .collect(),
        ))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let guesses = if p.hash == Victim::Sip13 {
            p.guesses as f64
        } else {
            0.0
        };
        Some(Footprint::one(
            65_536.0,
            p.secrets as f64
                * (guesses * 4.0 + (CHECKS as f64) * 2.0 + p.pairs as f64 * p.m as f64),
        ))
    }
}
