//! Criterion benches of the other filters, for regression tracking: blocked
//! Bloom (single and batched queries), counting Bloom (4-bit counters),
//! cuckoo (12-bit fingerprints, filled to 90%) and scalable Bloom, at
//! n = 1e6, p = 1%, xxh3, 8-byte keys. Throughput is per key.
//!
//! cargo bench --bench filters

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId, splitmix64};
use sketchlab::structures::bloom::{BlockedBloom, theory};
use sketchlab::structures::counting_bloom::{CountingBloom, Overflow};
use sketchlab::structures::cuckoo::CuckooFilter;
use sketchlab::structures::scalable_bloom::ScalableBloom;
use std::hint::black_box;

mod common;
use common::each;

const N: u64 = 1_000_000;

fn keys(salt: u64, n: u64) -> Vec<[u8; 8]> {
    (0..n)
        .map(|i| splitmix64(i ^ salt << 40).to_le_bytes())
        .collect()
}

fn h() -> HashStrategy {
    HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7))
}

fn bench(c: &mut Criterion) {
    sketchlab::plot::register_font();
    let members = keys(1, N);
    let absent = keys(2, N);
    let mixed: Vec<[u8; 8]> = members
        .iter()
        .zip(&absent)
        .flat_map(|(a, b)| [*a, *b])
        .take(N as usize)
        .collect();
    let mut g = c.benchmark_group("filters_n1e6_p1pct");
    g.throughput(Throughput::Elements(1));

    let m = theory::optimal_m(N, 0.01);
    let k = theory::optimal_k_int(m, N);
    let mut blocked = BlockedBloom::new(m, k, h()).unwrap();
    members.iter().for_each(|key| blocked.insert(key));
    let mut next = each(&mixed);
    g.bench_function("blocked_query", |b| b.iter(|| blocked.contains(next())));
    g.bench_function("blocked_query_batched_1024", |b| {
        let mut at = 0usize;
        b.iter_custom(|iters| {
            let t = std::time::Instant::now();
            let mut hits = 0;
            for _ in 0..iters.div_ceil(1024) {
                at = (at + 1024) % (mixed.len() - 1024);
                hits += blocked.count_contained(&mixed[at..at + 1024]);
            }
            black_box(hits);
            // about `iters` keys were queried: criterion divides by iters
            t.elapsed()
        })
    });

    let mut counting = CountingBloom::with_rate(N, 0.01, 4, Overflow::Sticky, h()).unwrap();
    members.iter().for_each(|key| counting.insert(key));
    let mut next = each(&mixed);
    g.bench_function("counting_query", |b| b.iter(|| counting.contains(next())));
    let mut next = each(&members);
    g.bench_function("counting_insert_remove", |b| {
        b.iter(|| {
            let key = next();
            counting.insert(key);
            counting.remove_unchecked(key);
        })
    });

    let slots = N.next_power_of_two();
    let mut cuckoo = CuckooFilter::new((slots / 4) as usize, 4, 12, 500, 9, h()).unwrap();
    let fill = keys(3, slots * 9 / 10);
    fill.iter().for_each(|key| cuckoo.insert(key).unwrap());
    let mut next = each(&mixed);
    g.bench_function("cuckoo_query_at_90pct", |b| {
        b.iter(|| cuckoo.contains(next()))
    });

    let mut scalable = ScalableBloom::new(N / 8, 0.01, 2.0, 0.5, h()).unwrap();
    members.iter().for_each(|key| scalable.insert(key));
    let mut next = each(&mixed);
    g.bench_function("scalable_query", |b| b.iter(|| scalable.contains(next())));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
