//! `bloom_attack`: pollution and forgery against the chapter's reference
//! filter (mmh3, seed 0: a public hash with a constant seed), and the same
//! attacker against a filter keyed with SipHash-1-3 (a key it never sees).
//! The attacker models the filter with the chapter's algorithm either way.
//! And the essay's "usual fix" (target `xxh3`): a filter hashed with XXH3
//! under `hash_seed`, the constant 0 (in a config file the attacker reads)
//! or drawn per process (`random`, which it never sees); the attacker
//! models XXH3 with seed 0 either way.
//!
//! - pollution: it inserts n keys, each chosen offline so that its k probes
//!   are bits no earlier key set; the honest false-positive rate becomes
//!   (nk/m)^k instead of the designed p.
//! - forgery: knowing the members, it searches offline for non-members its
//!   model reports present, about 1/p candidates each; queried, they are
//!   false positives every time.

use crate::attack::bloom::{self, Found, Model};
use crate::experiment::kinds::common;
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes};
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::bloom::reference::ChapterBloom;
use crate::structures::bloom::{BloomFilter, theory};
use rand::RngExt;

pub struct BloomAttack;

crate::closed_set! {
    /// The values of `attack`.
    pub enum Attack {
        Pollution = "pollution",
        Forgery = "forgery",
    }
}

crate::closed_set! {
    /// The values of `target`.
    pub enum Target {
        Chapter = "chapter",
        Sip13 = "sip13",
        Xxh3 = "xxh3",
    }
}

crate::params! {
    pub struct P {
        attack: Attack = common::choice(Attack::NAMES, Def::Required, "pollution: chosen insertions; forgery: crafted non-member queries"),
        target: Target = common::choice(Target::NAMES, Def::Required, "chapter: the chapter's filter (mmh3, seed 0); sip13: keyed with a key the attacker never sees; xxh3: XXH3 under hash_seed, modelled by the attacker with seed 0"),
        hash_seed: HashSeed = common::HASH_SEED,
        n: u64 [count] = common::count(Def::Int(100_000), "keys inserted (the filter's capacity)"),
        p: f64 [fraction] = common::rate(Def::Float(0.01), "design false-positive rate"),
        queries: u64 [count] = common::count(Def::Int(1_000_000), "honest random non-members queried"),
        forged: u64 [count] = common::int(1, 1_000_000, Def::Int(1000), "forgery: crafted non-members searched for and queried"),
        max_tries: u64 [count] = common::int(1, 1 << 40, Def::Int(1_000_000_000), "the most candidates a search hashes (a per-trial cap)"),
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same, bits],
        k: u32 [Same, count],
        attacker_keys: u64 [count],
        /// Candidates hashed by the attacker's offline search.
        hashes_tried: u64 [count],
        tries_per_key: f64 [count],
        search_capped: bool [Same],
        fill: f64 [fraction],
        /// Honest random non-members that test positive.
        fpr_honest: Proportion [fraction],
        /// The attacker's crafted queries that test positive (forgery).
        fpr_attack_queries: Option<Proportion> [fraction],
        fpr_design: f64 [Same, fraction],
        /// (nk/m)^k: the rate after n keys that each set k fresh bits (pollution).
        fpr_theory_polluted: Option<f64> [Same, fraction],
    }
}

/// The real filter under attack.
enum Filter {
    Chapter(ChapterBloom),
    Keyed(BloomFilter<crate::hashing::HashStrategy>),
}

impl Filter {
    fn insert(&mut self, key: &[u8]) {
        match self {
            Filter::Chapter(f) => f.add_bytes(key),
            Filter::Keyed(f) => f.insert(key),
        }
    }
    fn contains(&self, key: &[u8]) -> bool {
        match self {
            Filter::Chapter(f) => f.contains_bytes(key),
            Filter::Keyed(f) => f.contains(key),
        }
    }
    fn fill(&self) -> f64 {
        match self {
            Filter::Chapter(f) => f.count_ones() as f64 / f.m() as f64,
            Filter::Keyed(f) => f.fill_ratio(),
        }
    }
}

/// The attacker's search and the filter it ran against: the filter's m and
/// k, the filter, the search, and how many crafted keys it reports present.
fn attack(p: &P, seeds: Seeds) -> anyhow::Result<(u64, u32, Filter, Found, u64)> {
    let xxh3 = |seed: HashSeed| -> anyhow::Result<Filter> {
        Ok(Filter::Keyed(BloomFilter::with_rate(
            p.n,
            p.p,
            seed.hasher(StrategyId::Xxh3, seeds),
        )?))
    };
    let mut filter = match p.target {
        Target::Chapter => Filter::Chapter(ChapterBloom::new(p.n, p.p)?),
        Target::Xxh3 => xxh3(p.hash_seed)?,
        Target::Sip13 => Filter::Keyed(BloomFilter::with_rate(
            p.n,
            p.p,
            HashSeed::Trial.hasher(StrategyId::Sip13, seeds),
        )?),
    };
    let (m, k) = match &filter {
        Filter::Chapter(f) => (f.m(), f.k()),
        Filter::Keyed(f) => (f.m(), f.k()),
    };
    // the attacker's model: the chapter's algorithm, or XXH3 with seed 0
    type Positions = Box<dyn Fn(&[u8]) -> Vec<u64>>;
    let (model_m, positions): (u64, Positions) = if p.target == Target::Xxh3 {
        let model_of =
            BloomFilter::with_rate(p.n, p.p, HashSeed::Fixed(0).hasher(StrategyId::Xxh3, seeds))?;
        (
            model_of.m(),
            Box::new(move |key: &[u8]| model_of.positions(key)),
        )
    } else {
        let model_of = ChapterBloom::new(p.n, p.p)?;
        (
            model_of.m(),
            Box::new(move |key: &[u8]| model_of.positions(key).collect()),
        )
    };
    let mut model = Model::new(model_m, positions);
    let mut rng = seeds.rng("candidates");
    let candidate = move || rng.random::<[u8; 16]>().to_vec();
    let found = if p.attack == Attack::Pollution {
        let f = bloom::pollute(&mut model, p.n as usize, candidate, p.max_tries);
        for key in &f.keys {
            filter.insert(key);
        }
        f
    } else {
        let mut members = seeds.rng("members");
        for _ in 0..p.n {
            let key: [u8; 16] = members.random();
            model.insert(&key);
            filter.insert(&key);
        }
        bloom::forge(&model, p.forged as usize, candidate, p.max_tries)
    };
    let positives = found.keys.iter().filter(|k| filter.contains(k)).count() as u64;
    Ok((m, k, filter, found, positives))
}

impl Measure for BloomAttack {
    type P = P;
    type R = R;
    const NAME: &'static str = "bloom_attack";
    const ABOUT: &'static str = "Bloom pollution and forgery with a known constant seed (the chapter's mmh3, seed 0) vs a keyed filter";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (m, k, filter, found, positives) = attack(p, seeds)?;
        let mut q = seeds.rng("queries");
        let honest = (0..p.queries)
            .filter(|_| filter.contains(&q.random::<[u8; 16]>()))
            .count() as u64;
        let keys = found.keys.len() as u64;
        Ok(R {
            m,
            k,
            attacker_keys: keys,
            hashes_tried: found.tries,
            tries_per_key: found.tries as f64 / keys.max(1) as f64,
            search_capped: found.capped,
            fill: filter.fill(),
            fpr_honest: Proportion::new(honest, p.queries),
            fpr_attack_queries: (p.attack == Attack::Forgery)
                .then(|| Proportion::new(positives, keys.max(1))),
            fpr_design: p.p,
            fpr_theory_polluted: (p.attack == Attack::Pollution)
                .then(|| (keys as f64 * k as f64 / m as f64).powi(k as i32)),
        })
    }

    fn keys(&self, p: &P, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        Ok(Some(attack(p, seeds)?.3.keys))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let filter = bloom_bytes(bloom_bits(p.n, p.p));
        // pollution's search grows as the model fills: about (m/k)/(k-1) * 0.27^-(k-1) at p = 1%
        let k = theory::optimal_k_int(bloom_bits(p.n, p.p) as u64, p.n).max(2) as f64;
        let search = if p.attack == Attack::Pollution {
            bloom_bits(p.n, p.p) / k / (k - 1.0) * (1.0 - (2f64).ln()).powf(-(k - 1.0))
        } else {
            p.forged as f64 / p.p
        };
        Some(
            Footprint::one(filter, search + p.n as f64 + p.queries as f64)
                .plus(2.0 * filter + p.n as f64 * 40.0),
        )
    }
}
