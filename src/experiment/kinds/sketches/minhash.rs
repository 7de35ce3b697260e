//! `minhash`: pairs of sets with an exactly constructed Jaccard similarity J
//! (|A ∪ B| = `union_size`, |A ∩ B| = round(J·union_size), the rest split
//! between A only and B only), estimated by k-hash MinHash and bottom-k:
//! error vs √(J(1 − J)/k) and the chapter's 1/√k, and P(minima agree)
//! pooled over all k minima and sketches against J.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::minhash::{BottomK, MinHash, theory};
use crate::workload::{KeyGen, KeyType};

pub struct MinHashStudy;

crate::closed_set! {
    /// The values of `variant`.
    pub enum Variant {
        KHashes = "k_hashes",
        BottomK = "bottom_k",
    }
}

crate::params! {
    pub struct P {
        jaccard: f64 [fraction] = common::rate(Def::Float(0.5), "target Jaccard similarity J"),
        union_size: u64 [count] = common::count(Def::Int(1000), "|A ∪ B|"),
        k: u64 [count] = common::int(1, 1 << 16, Def::Int(128), "minima per signature"),
        variant: Variant = common::choice(Variant::NAMES, Def::Str("k_hashes"), "k seeded hash functions, or the k smallest of one"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R, summary Rs {
        /// |A ∩ B| / |A ∪ B| as constructed.
        j_exact: f64 [Same, fraction],
        estimate: f64 [fraction],
        /// estimate − J.
        err: f64 [Pitchfork, fraction],
        /// (estimate − J)·√k: in units of the chapter's 1/√k.
        err_in_rule: f64 [ratio],
        /// √(J(1 − J)/k).
        se_theory: f64 [Same, fraction],
        /// 1/√k.
        rule_of_thumb: f64 [Same, fraction],
        /// 1 when |estimate − J| ≤ 1/√k.
        within_rule: f64 [fraction],
        /// k-hash only: agreeing minima among the k (P(min equal) = J).
        agree: Option<Proportion> [fraction],
    }
}

impl Measure for MinHashStudy {
    type P = P;
    type R = R;
    const NAME: &'static str = "minhash";
    const ABOUT: &'static str = "MinHash (k hashes, bottom-k) on pairs of exact Jaccard 0.05-0.95: error vs sqrt(J(1-J)/k) and 1/sqrt(k), P(min equal) = J";
    const MIN_REPLICATES: u32 = 2;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let u = p.union_size;
        let inter = (p.jaccard * u as f64).round() as u64;
        let a_only = (u - inter) / 2;
        let j = inter as f64 / u as f64;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        // ids: [0, inter) in both, then A only, then B only
        let in_a = |id: u64| id < inter + a_only;
        let in_b = |id: u64| id < inter || id >= inter + a_only;
        let h = p.hash_seed.hasher(p.hash, seeds);
        let k = p.k as usize;
        let (estimate, agree) = if p.variant == Variant::KHashes {
            let (mut a, mut b) = (MinHash::new(k, &h)?, MinHash::new(k, &h)?);
            for id in 0..u {
                let key = keys.key(id);
                if in_a(id) {
                    a.insert(key);
                }
                if in_b(id) {
                    b.insert(key);
                }
            }
            let same = a.agreements(&b) as u64;
            (a.jaccard(&b)?, Some(Proportion::new(same, p.k)))
        } else {
            let (mut a, mut b) = (BottomK::new(k, h.clone())?, BottomK::new(k, h)?);
            for id in 0..u {
                let key = keys.key(id);
                if in_a(id) {
                    a.insert(key);
                }
                if in_b(id) {
                    b.insert(key);
                }
            }
            (a.jaccard(&b)?, None)
        };
        let rule = theory::rule_of_thumb(k);
        Ok(R {
            j_exact: j,
            estimate,
            err: estimate - j,
            err_in_rule: (estimate - j) / rule,
            se_theory: theory::standard_error(j, k),
            rule_of_thumb: rule,
            within_rule: ((estimate - j).abs() <= rule) as u8 as f64,
            agree,
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.union_size)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let n = p.union_size as f64;
        let per_key = if p.variant == Variant::KHashes {
            p.k as f64
        } else {
            1.0
        };
        Some(Footprint::one(2.0 * p.k as f64 * 8.0, n * per_key).plus(n * 16.0))
    }
}
