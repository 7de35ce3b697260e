//! `filter_frontier`: every membership structure of the menu
//! ([`crate::structures::menu`]: Bloom, blocked, counting, cuckoo, quotient,
//! xor, binary fuse, DataSketches' Bloom) sized for the same n keys at a
//! target ε, filled with the same keys and queried with the same absent
//! keys: the bits per key each allocates, its measured FPR with its Wilson
//! interval beside its theory's, and its distance from the
//! information-theoretic limit log2(1/ε) bits per key ("wasted space", as
//! fastfilter_cpp reports it). A structure that cannot reach ε says why in
//! `note` and leaves its metrics empty. Timing is `filter_speed`'s.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::bloom::theory as bloom;
use crate::structures::menu::{Built, Filter};
use crate::table::Interval;
use crate::workload::{KeyGen, KeyType};

pub struct FilterFrontier;

crate::params! {
    pub struct P {
        structure: Filter = common::choice(&Filter::NAMES, Def::Required, "the structure, sized for n keys at rate fpr (see structures::menu)"),
        fpr: f64 [fraction] = common::rate(Def::Required, "the target false-positive rate ε the structure is sized for"),
        n: u64 [count] = common::count(Def::Int(1_000_000), "keys inserted"),
        keys: KeyType = KEYS,
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        queries: u64 [count] = QUERIES,
    }
}

crate::row! {
    pub struct R, summary Rs {
        /// The parameters the sizing chose, in words.
        config: String [Same],
        /// Why the structure cannot be sized for this ε ("" when it can).
        note: String [Same],
        inserts_after_build: bool [Same],
        deletes: bool [Same],
        merges: bool [Same],
        /// Bits of the table allocated, per key inserted.
        bits_per_key: Option<f64> [Same, bits_per_key],
        fpr_measured: Option<Proportion> [fraction],
        /// The structure's own theory at the n keys it holds.
        fpr_theory: Option<f64> [Same, fraction],
        /// log2(1/ε) at the measured ε: the fewest bits per key any filter with this FPR needs.
        limit_bits: Option<Interval> [bits_per_key],
        /// 100·(bits per key / log2(1/ε measured) − 1), interval from the FPR's.
        waste_pct: Option<Interval> [percent],
        /// The same at the theory's ε.
        waste_pct_theory: Option<f64> [Same, percent],
        /// Bits per key / a space-optimal Bloom filter's 1.44·log2(1/ε) at the measured ε.
        bloom_ratio: Option<Interval> [ratio],
        false_negatives: Option<u64> [Max, count],
    }
}

/// 100·(bits/log2(1/ε) − 1).
pub(crate) fn waste(bits: f64, eps: f64) -> f64 {
    100.0 * (bits / (1.0 / eps).log2() - 1.0)
}

/// `f` of the measured rate with its interval (a decreasing `f` swaps the ends).
pub(crate) fn of_rate(p: Proportion, f: impl Fn(f64) -> f64) -> Option<Interval> {
    (p.successes > 0).then(|| {
        let (a, b) = (f(p.lo), f(p.hi));
        Interval::new(f(p.rate), a.min(b), a.max(b))
    })
}

impl Measure for FilterFrontier {
    type P = P;
    type R = R;
    const NAME: &'static str = "filter_frontier";
    const ABOUT: &'static str = "every filter sized for (n, ε) on the same keys: bits per key, measured FPR and the waste over log2(1/ε)";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let s = p.structure;
        let mut r = R {
            inserts_after_build: s.inserts_after_build(),
            deletes: s.deletes(),
            merges: s.merges(),
            ..R::default()
        };
        if let Some(why) = s.reach(p.fpr) {
            r.note = why;
            return Ok(r);
        }
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let built = s.build(p.n, p.fpr, hasher, seeds.derive("structure"), |add| {
            for id in 0..p.n {
                add(keys.key(id))
            }
        });
        // a table its implementation's rule loads to the edge (a cuckoo
        // table at 96%) can fail an insert: a cell of the table, not a failed study
        let Built { filter, config } = match built {
            Ok(b) => b,
            Err(e) if e.to_string().contains("is full") => {
                r.note = format!("{e:#}");
                return Ok(r);
            }
            Err(e) => return Err(e),
        };
        let (false_negatives, _) = common::missing_members(&*filter, &mut keys, p.n);
        let fp = common::count_positives(&*filter, &mut keys, p.n..p.n + p.queries);
        let fpr = Proportion::new(fp, p.queries);
        let bits = filter.bytes() as f64 * 8.0 / p.n as f64;
        let fpr_theory = config.fpr_theory;
        r.config = config.words();
        r.bits_per_key = Some(bits);
        r.fpr_measured = Some(fpr);
        r.fpr_theory = Some(fpr_theory);
        r.limit_bits = of_rate(fpr, |e| (1.0 / e).log2());
        r.waste_pct = of_rate(fpr, |e| waste(bits, e));
        r.waste_pct_theory = Some(waste(bits, fpr_theory));
        r.bloom_ratio = of_rate(fpr, |e| bits / bloom::bits_per_element(e));
        r.false_negatives = Some(false_negatives);
        Ok(r)
    }

    fn draws(&self, p: &P, metric: &str) -> Option<f64> {
        (metric == "fpr_measured").then_some(p.queries as f64)
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n + p.queries)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // the largest table of the menu: 4-bit counters at Bloom's m, or a
        // 32-bit fuse table (36 bits per key); a static build also holds n hashes
        let n = p.n as f64;
        let bits = (4.0 * bloom::bits_per_element(p.fpr)).max(36.0) * n;
        Some(Footprint::one(bits / 8.0, n + p.queries as f64).plus(8.0 * n))
    }
}
