//! `filter_speed`: the time side of the filter frontier. Every structure of
//! the menu ([`crate::structures::menu`]) sized for n keys at ε as in
//! `filter_frontier`, timed on keys made before the clock starts (one flat
//! buffer): the build (a fresh structure filled with all n keys, or a static
//! filter constructed from them) in ns per key, and queries at 100%, 50% and
//! 0% members (fastfilter_cpp's mixes: positive, mixed, negative; the mixed
//! one draws member or absent key by key at random, so no branch predictor
//! learns the pattern) in ns per query, each
//! the median over `reps` interleaved repetitions with its order-statistic
//! interval. Every structure is called through `&dyn Membership`, the same
//! indirection for all. Timing rows are not byte-reproducible.

use super::scaling_build::timed;
use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::kinds::footprint::key_len;
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats;
use crate::structures::Membership;
use crate::structures::menu::{Built, Filter};
use crate::table::Interval;
use crate::workload::{KeyGen, KeyType};

pub struct FilterSpeed;

crate::params! {
    pub struct P {
        structure: Filter = common::choice(&Filter::NAMES, Def::Required, "the structure, sized for n keys at rate fpr (see structures::menu)"),
        fpr: f64 [fraction] = common::rate(Def::Required, "the target false-positive rate ε the structure is sized for"),
        n: u64 [count] = common::int(100, 1 << 32, Def::Int(1_000_000), "keys inserted"),
        queries: u64 [count] = common::int(1000, 1 << 28, Def::Int(1_000_000), "queries per timed repetition, of members and of absent keys each"),
        reps: u64 [count] = common::int(6, 1000, Def::Int(7), "timed repetitions, interleaved; medians reported (6 or more: the fewest with a 95% interval of the median)"),
        keys: KeyType = KEYS,
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
    }
}

crate::row! {
    pub struct R {
        config: String [Same],
        /// Why the structure cannot be sized for this ε ("" when it can).
        note: String [Same],
        bytes: Option<u64> [Same, bytes],
        /// Median ns per key of a whole build (allocation, every insert or the static construction).
        build_ns_per_key: Option<Interval> [Median, ns],
        /// Median ns per query of a member key.
        query_ns_positive: Option<Interval> [Median, ns],
        /// Median ns per query of a mix of members and never-inserted keys, half each, in random order.
        query_ns_mixed: Option<Interval> [Median, ns],
        /// Median ns per query of a never-inserted key.
        query_ns_negative: Option<Interval> [Median, ns],
        /// Absent keys answered "present" in a timed loop (its FPR check).
        negatives_positive: Option<u64> [Same, count],
    }
}

/// Keys in one flat buffer, made before any clock starts.
struct Flat {
    data: Vec<u8>,
    ends: Vec<usize>,
}

impl Flat {
    fn new(keys: &mut KeyGen, ids: std::ops::Range<u64>) -> Flat {
        let mut f = Flat {
            data: Vec::new(),
            ends: Vec::with_capacity((ids.end - ids.start) as usize),
        };
        for id in ids {
            f.data.extend_from_slice(keys.key(id));
            f.ends.push(f.data.len());
        }
        f
    }

    /// The keys of `keys` in order, with how many of them are members.
    fn from<'a>(keys: impl Iterator<Item = (&'a [u8], bool)>) -> (Flat, u64) {
        let mut f = Flat {
            data: Vec::new(),
            ends: Vec::new(),
        };
        let mut members = 0;
        for (k, member) in keys {
            f.data.extend_from_slice(k);
            f.ends.push(f.data.len());
            members += member as u64;
        }
        (f, members)
    }

    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter()).map(|(a, &b)| &self.data[a..b])
    }

    fn hits(&self, f: &dyn Membership, count: usize) -> u64 {
        self.iter().take(count).filter(|k| f.contains(k)).count() as u64
    }
}

impl Measure for FilterSpeed {
    type P = P;
    type R = R;
    const NAME: &'static str = "filter_speed";
    const ABOUT: &'static str = "every filter sized for (n, ε): build ns per key, member and absent query ns, medians over repetitions";
    const TIMING: bool = true;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let s = p.structure;
        if let Some(why) = s.reach(p.fpr) {
            return Ok(R {
                note: why,
                ..R::default()
            });
        }
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let mut keygen = KeyGen::new(p.keys, seeds.derive("keys"));
        let members = Flat::new(&mut keygen, 0..p.n);
        let absent = Flat::new(&mut keygen, p.n..p.n + p.queries);
        let q = p.queries.min(p.n) as usize;
        // half members, half absent keys, the member or the absent key of
        // each index drawn by a coin (splitmix64 of a seeded counter)
        let coin = seeds.derive("mix");
        let mixed = Flat::from(members.iter().zip(absent.iter()).take(q).enumerate().map(
            |(i, (m, a))| {
                if crate::hashing::splitmix64(coin ^ i as u64) & 1 == 0 {
                    (m, true)
                } else {
                    (a, false)
                }
            },
        ));
        let (mut build, mut pos, mut mix, mut neg) = (vec![], vec![], vec![], vec![]);
        let (mut a_build, mut a_pos, mut a_mix, mut a_neg) = (None, None, None, None);
        let mut last: Option<Built> = None;
        for _ in 0..p.reps {
            drop(last.take());
            let mut made = None;
            timed(&mut build, &mut a_build, p.n as usize, || {
                let b = s.build(
                    p.n,
                    p.fpr,
                    hasher.clone(),
                    seeds.derive("structure"),
                    |add| members.iter().for_each(add),
                );
                let bytes = b.as_ref().map(|b| b.filter.bytes() as u64).unwrap_or(0);
                made = Some(b);
                bytes
            });
            let b = made.expect("the build ran")?;
            timed(&mut pos, &mut a_pos, q, || members.hits(&*b.filter, q));
            timed(&mut mix, &mut a_mix, q, || mixed.0.hits(&*b.filter, q));
            timed(&mut neg, &mut a_neg, p.queries as usize, || {
                absent.hits(&*b.filter, p.queries as usize)
            });
            last = Some(b);
        }
        let b = last.expect("reps >= 1");
        anyhow::ensure!(
            a_pos == Some(q as u64),
            "{}: a member query answered absent (a false negative)",
            p.structure
        );
        anyhow::ensure!(
            a_mix.is_some_and(|hits| hits >= mixed.1),
            "{}: a member of the mixed queries answered absent (a false negative)",
            p.structure
        );
        let interval = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            Some(stats::median_interval(&v, stats::PLOT_CONFIDENCE))
        };
        Ok(R {
            config: b.config.words(),
            note: String::new(),
            bytes: Some(b.filter.bytes() as u64),
            build_ns_per_key: interval(build),
            query_ns_positive: interval(pos),
            query_ns_mixed: interval(mix),
            query_ns_negative: interval(neg),
            negatives_positive: a_neg,
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n + p.queries)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let n = p.n as f64;
        let keys = (n + 2.0 * p.queries as f64) * (key_len(p.keys) + 8.0);
        let bits = (4.0 * crate::structures::bloom::theory::bits_per_element(p.fpr)).max(36.0) * n;
        // one structure at a time, a static build's hashes, the keys made up front
        Some(
            Footprint::one(bits / 8.0, p.reps as f64 * (n + 3.0 * p.queries as f64))
                .plus(bits / 8.0 + 8.0 * n + keys),
        )
    }
}
