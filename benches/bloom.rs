//! Bloom insert and query at n = 1e6, p = 1% (m = 9,585,059 bits, k = 7),
//! for each hash strategy. Per-operation time; keys are 8-byte integers
//! generated up front.
//!
//! cargo bench --bench bloom

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId};
use sketchlab::structures::bloom::BloomFilter;
use sketchlab::workload::{KeyGen, KeyType};
use std::hint::black_box;

const N: u64 = 1_000_000;

fn keys(salt: u64, from: u64) -> Vec<[u8; 8]> {
    let mut g = KeyGen::new(KeyType::U64, salt);
    (from..from + N)
        .map(|i| g.key(i).try_into().unwrap())
        .collect()
}

fn bench(c: &mut Criterion) {
    sketchlab::plot::register_font();
    let members = keys(1, 0);
    let absent = keys(1, N);
    let mut group = c.benchmark_group("bloom_n1e6_p1pct");
    group.throughput(Throughput::Elements(1));
    for &kind in StrategyId::ALL {
        let h = HashStrategy::new(kind, SeedPolicy::Fixed(7));
        group.bench_function(BenchmarkId::new("insert", kind.name()), |b| {
            let mut f = BloomFilter::with_rate(N, 0.01, h.clone()).unwrap();
            let mut i = 0usize;
            b.iter(|| {
                f.insert(black_box(&members[i]));
                i = if i + 1 == members.len() { 0 } else { i + 1 };
            });
        });
        let mut full = BloomFilter::with_rate(N, 0.01, h.clone()).unwrap();
        for k in &members {
            full.insert(k);
        }
        for (label, set) in [("query_member", &members), ("query_absent", &absent)] {
            group.bench_function(BenchmarkId::new(label, kind.name()), |b| {
                let mut i = 0usize;
                b.iter(|| {
                    let r = full.contains(black_box(&set[i]));
                    i = if i + 1 == set.len() { 0 } else { i + 1 };
                    r
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
