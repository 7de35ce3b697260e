//! The `scaling` kind's structures at a size (every one given the Bloom
//! filter's bytes for n at 1%), filled, and the timed loops over them.

use crate::experiment::params::Seeds;
use crate::hashing::HashStrategy;
use crate::stats;
use crate::structures::Membership;
use crate::structures::bloom::blocked::BlockedBloom;
use crate::structures::bloom::{BloomFilter, theory};
use crate::structures::count_min::CountMin;
use crate::structures::cuckoo::CuckooFilter;
use crate::structures::hyperloglog::HyperLogLog;
use crate::workload::KeyGen;
use std::hint::black_box;
use std::time::Instant;

/// The Bloom filter's bits for n keys at 1% (every structure's budget).
pub(super) fn bloom_bits(n: u64) -> u64 {
    theory::optimal_m(n, 0.01)
}

/// HyperLogLog's p for a budget: the largest p ≤ 18 with 0.75·2^p ≤ bytes (≥ 4).
pub(super) fn hll_p(budget_bytes: u64) -> u32 {
    (4..=18)
        .rev()
        .find(|&p| (3u64 << p) / 4 <= budget_bytes)
        .unwrap_or(4)
}

pub(super) const CMS_ROWS: u64 = 5;

/// Count-Min's width for a budget of u32 counters in `CMS_ROWS` rows.
pub(super) fn cms_w(budget_bytes: u64) -> u64 {
    (budget_bytes / (4 * CMS_ROWS)).max(1)
}

/// Cuckoo buckets (4 slots) for n keys, as Fan et al.'s code sizes them.
pub(super) fn cuckoo_buckets(n: u64) -> usize {
    crate::structures::cuckoo::theory::buckets_for(n, 4)
}

/// The structure built and filled, as the timed loops see it.
pub(super) enum Built {
    Bloom(BloomFilter<HashStrategy>),
    Blocked(BlockedBloom<HashStrategy>),
    Cuckoo(CuckooFilter<HashStrategy>),
    Hll(HyperLogLog<HashStrategy>),
    CountMin(CountMin<u32, HashStrategy>),
}

pub(super) struct Shape {
    pub(super) built: Built,
    pub(super) bytes: u64,
    pub(super) probes: u32,
    pub(super) lines: f64,
    pub(super) failures: u64,
}

crate::closed_set! {
    /// The structures the scaling study times.
    pub enum Structure {
        Bloom = "bloom",
        BlockedBloom = "blocked_bloom",
        Cuckoo = "cuckoo",
        Hll = "hll",
        CountMin = "count_min",
    }
}

/// `structure` sized for `n` keys
/// and filled with keys `0..n` (the sketches: given the Bloom filter's bytes).
/// Keys 0..n in chunks of 1,024 (u64 keys: 8 bytes each), for the batch
/// inserts that prefetch (the build is not timed: at 10^8 keys it was most
/// of the study's time).
fn in_chunks(n: u64, keys: &mut KeyGen, mut f: impl FnMut(&[[u8; 8]])) {
    let mut chunk: Vec<[u8; 8]> = Vec::with_capacity(1024);
    for id in 0..n {
        chunk.push(keys.key(id).try_into().expect("u64 keys are 8 bytes"));
        if chunk.len() == chunk.capacity() {
            f(&chunk);
            chunk.clear();
        }
    }
    if !chunk.is_empty() {
        f(&chunk);
    }
}

pub(super) fn build(
    structure: Structure,
    n: u64,
    h: HashStrategy,
    keys: &mut KeyGen,
    seeds: Seeds,
) -> anyhow::Result<Shape> {
    let budget = bloom_bits(n).div_ceil(8);
    let mut failures = 0;
    let shape = match structure {
        Structure::Bloom => {
            let m = bloom_bits(n);
            let k = theory::optimal_k_int(m, n);
            let mut f = BloomFilter::new(m, k, h)?;
            in_chunks(n, keys, |chunk| f.insert_batch(chunk));
            let bytes = f.bytes() as u64;
            Shape {
                built: Built::Bloom(f),
                bytes,
                probes: k,
                lines: k as f64,
                failures,
            }
        }
        Structure::BlockedBloom => {
            let m = bloom_bits(n);
            let k = theory::optimal_k_int(m, n);
            let mut f = BlockedBloom::new(m, k, h)?;
            in_chunks(n, keys, |chunk| f.insert_batch(chunk));
            let (bytes, lines) = (f.bytes() as u64, f.cache_lines_per_query() as f64);
            Shape {
                built: Built::Blocked(f),
                bytes,
                probes: k,
                lines,
                failures,
            }
        }
        Structure::Cuckoo => {
            let mut f = CuckooFilter::new(cuckoo_buckets(n), 4, 12, 500, seeds.derive("kicks"), h)?;
            for id in 0..n {
                failures += f.insert(keys.key(id)).is_err() as u64;
            }
            let bytes = f.memory_bytes();
            Shape {
                built: Built::Cuckoo(f),
                bytes,
                probes: 2,
                // 12-bit fingerprints sit in u16 slots: an aligned 8-byte
                // bucket never straddles a line
                lines: 2.0,
                failures,
            }
        }
        Structure::Hll => {
            let mut s = HyperLogLog::new(hll_p(budget), h)?;
            (0..n).for_each(|id| {
                s.insert(keys.key(id));
            });
            let bytes = s.bytes_used() as u64;
            Shape {
                built: Built::Hll(s),
                bytes,
                probes: 1,
                lines: 1.0,
                failures,
            }
        }
        Structure::CountMin => {
            let mut c = CountMin::<u32, _>::new(cms_w(budget), CMS_ROWS, h)?;
            in_chunks(n, keys, |chunk| c.update_batch(chunk, 1));
            let bytes = c.bytes();
            Shape {
                built: Built::CountMin(c),
                bytes,
                probes: CMS_ROWS as u32,
                lines: CMS_ROWS as f64,
                failures,
            }
        }
    };
    Ok(shape)
}

pub(super) fn time(ops: usize, f: impl FnOnce() -> u64) -> (f64, u64) {
    let t = Instant::now();
    let r = black_box(f());
    (t.elapsed().as_nanos() as f64 / ops as f64, r)
}

/// Times `f` (ns per op) and checks it gives the same answer every time.
pub(super) fn timed(
    samples: &mut Vec<f64>,
    answer: &mut Option<u64>,
    ops: usize,
    f: impl FnOnce() -> u64,
) {
    let (ns, r) = time(ops, f);
    samples.push(ns);
    if let Some(a) = *answer {
        assert_eq!(
            a, r,
            "bug: a timed loop changed its answer between repetitions"
        );
    }
    *answer = Some(r);
}

pub(super) fn med(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    stats::quantile(&v, 0.5)
}

/// The bare query loop: pre-made keys, one `contains` each.
pub(super) fn bare(f: &impl Membership, keys: &[[u8; 8]]) -> u64 {
    keys.iter().filter(|k| f.contains(&k[..])).count() as u64
}

/// Inserts of keys already in the sketch: the same work every time (the
/// registers no longer change), counted as changed registers (0).
pub(super) fn hll_inserts(s: &mut HyperLogLog<HashStrategy>, keys: &[[u8; 8]]) -> u64 {
    keys.iter().filter(|k| s.insert(&k[..])).count() as u64
}

pub(super) fn cms_queries(c: &CountMin<u32, HashStrategy>, keys: &[[u8; 8]]) -> u64 {
    keys.iter().fold(0u64, |a, k| a.wrapping_add(c.estimate(k)))
}
