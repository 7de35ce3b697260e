//! Pieces several kinds share: parameter declarations, the fill-then-query
//! measurement, and chart helpers.

use crate::experiment::params::{Def, PType, ParamDef};
use crate::stats::Proportion;
use crate::structures::Membership;
use crate::workload::{KeyGen, KeyType};

/// The hard cap on one filter's bits (128 GiB), for absurd sizes only: what
/// a machine can hold is `sketchlab plan`'s check, made before every run.
pub const MAX_BITS: f64 = (1u64 << 40) as f64;

/// A positive count (named by [`params!`](crate::params)).
pub const fn count(default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        "",
        PType::Int {
            min: 1,
            max: 1_000_000_000_000,
        },
        default,
        help,
    )
}

/// A probability in (0, 1).
pub const fn rate(default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        "",
        PType::Float {
            min: 0.0,
            max: 1.0,
            min_open: true,
            max_open: true,
        },
        default,
        help,
    )
}

/// A positive real with an upper bound.
pub const fn positive(max: f64, default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        "",
        PType::Float {
            min: 0.0,
            max,
            min_open: true,
            max_open: false,
        },
        default,
        help,
    )
}

/// An integer in `min..=max`.
pub const fn int(min: i64, max: i64, default: Def, help: &'static str) -> ParamDef {
    ParamDef::new("", PType::Int { min, max }, default, help)
}

/// One of the words.
pub const fn choice(words: &'static [&'static str], default: Def, help: &'static str) -> ParamDef {
    ParamDef::new("", PType::Choice(words), default, help)
}

/// `k`: probes per key or "optimal".
pub const fn k_param(default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        "",
        PType::IntOr {
            min: 1,
            max: 64,
            words: &["optimal"],
        },
        default,
        help,
    )
}

pub const KEYS: ParamDef = ParamDef::new("", PType::Keys, Def::Str("u64"), "key type");
pub const QUERIES: ParamDef = count(
    Def::Int(1_000_000),
    "keys never inserted, queried to measure the FPR",
);
pub use crate::experiment::params::{HASH, HASH_SEED};

/// Result of filling a filter with ids `0..n` and querying ids `n..n+queries`.
#[derive(Clone, Copy, Debug)]
pub struct FillQuery {
    pub fpr: Proportion,
    pub false_negatives: u64,
    /// How many inserted keys were re-queried (all of them up to 10^6, then
    /// an evenly spaced sample of 10^6).
    pub members_checked: u64,
    /// Bits (or slots) set of all: a proportion, with its Wilson interval.
    pub fill: Proportion,
}

/// Fills `f` with ids `0..n`, re-queries members and queries `queries`
/// never-inserted ids. A failed insert is an error (plain Bloom filters never fail).
pub fn fill_and_query(
    f: &mut impl Membership,
    keys: &mut KeyGen,
    n: u64,
    queries: u64,
) -> anyhow::Result<FillQuery> {
    for id in 0..n {
        f.insert(keys.key(id))
            .map_err(|e| anyhow::anyhow!("insert of key {id} failed: {e}"))?;
    }
    let (false_negatives, members_checked) = missing_members(f, keys, n);
    let positives = count_positives(f, keys, n..n + queries);
    Ok(FillQuery {
        fpr: Proportion::new(positives, queries),
        false_negatives,
        members_checked,
        fill: f.fill(),
    })
}

/// Members `0..n` the filter denies, of those re-queried: all of them up
/// to 10^6, then an evenly spaced sample of 10^6. Returns (denied, checked).
pub fn missing_members(f: &(impl Membership + ?Sized), keys: &mut KeyGen, n: u64) -> (u64, u64) {
    let stride = n.div_ceil(1_000_000).max(1);
    let mut denied = 0;
    let mut checked = 0;
    for id in (0..n).step_by(stride as usize) {
        checked += 1;
        if !f.contains(keys.key(id)) {
            denied += 1;
        }
    }
    (denied, checked)
}

/// How many of the keys with `ids` test positive: the query loop of every
/// FPR study (keys written into one reused buffer, no allocation per key).
/// `scaling` times it against the bare query loop.
#[inline(never)]
pub fn count_positives(
    f: &(impl Membership + ?Sized),
    keys: &mut KeyGen,
    ids: std::ops::Range<u64>,
) -> u64 {
    if keys.key_type() != KeyType::U64 {
        return ids.filter(|&id| f.contains(keys.key(id))).count() as u64;
    }
    // u64 keys: derive a block of keys, then query the block (the
    // derivation and the queries pipeline better apart than interleaved)
    const BLOCK: u64 = 64;
    let mut block = [[0u8; 8]; BLOCK as usize];
    let mut hits = 0;
    let mut start = ids.start;
    while start < ids.end {
        let len = (ids.end - start).min(BLOCK) as usize;
        for (j, k) in block[..len].iter_mut().enumerate() {
            *k = keys.u64_key(start + j as u64);
        }
        hits += block[..len].iter().filter(|k| f.contains(&k[..])).count() as u64;
        start += len as u64;
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
    use crate::structures::bloom::BloomFilter;

    #[test]
    fn the_blocked_query_loop_answers_as_one_key_at_a_time() {
        for kt in [KeyType::U64, KeyType::U32, KeyType::Url100] {
            let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(3));
            let mut f = BloomFilter::with_rate(500, 0.2, h).unwrap();
            let mut keys = KeyGen::new(kt, 9);
            for id in 0..500 {
                Membership::insert(&mut f, keys.key(id)).unwrap();
            }
            // ranges that start and end inside a block, and an empty one
            for ids in [0..500, 3..131, 500..1_777, 64..64, 0..1] {
                let one: u64 = ids
                    .clone()
                    .map(|id| Membership::contains(&f, keys.key(id)) as u64)
                    .sum();
                assert_eq!(
                    count_positives(&f, &mut keys, ids.clone()),
                    one,
                    "{kt:?} {ids:?}"
                );
            }
            assert_eq!(
                count_positives(&f, &mut keys, 0..500),
                500,
                "{kt:?}: members"
            );
        }
    }
}
