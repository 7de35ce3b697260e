//! Criterion benches of the sketches, for regression tracking: HyperLogLog
//! p = 14 insert (xxh3_64 and foldhash) and estimate, Count-Min 6 × 4096
//! update / conservative update / query, MinHash k = 128 insert, t-digest
//! (compression 100) add and quantile. 8-byte keys; throughput per key.
//!
//! cargo bench --bench sketches

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId, splitmix64};
use sketchlab::structures::count_min::CountMin;
use sketchlab::structures::hyperloglog::HyperLogLog;
use sketchlab::structures::minhash::MinHash;
use sketchlab::structures::tdigest::TDigest;
use std::hint::black_box;

mod common;
use common::each;

fn keys(n: u64) -> Vec<[u8; 8]> {
    (0..n)
        .map(|i| splitmix64(i ^ 0x5eed).to_le_bytes())
        .collect()
}

fn h(id: StrategyId) -> HashStrategy {
    HashStrategy::new(id, SeedPolicy::Fixed(7))
}

fn bench(c: &mut Criterion) {
    sketchlab::plot::register_font();
    let ks = keys(1 << 20);
    let mut g = c.benchmark_group("sketches");
    g.throughput(Throughput::Elements(1));

    for id in [StrategyId::Xxh3_64, StrategyId::Foldhash] {
        let mut hll = HyperLogLog::new(14, h(id)).unwrap();
        let mut next = each(&ks);
        g.bench_function(format!("hll_p14_insert_{}", id.name()), |b| {
            b.iter(|| hll.insert(next()))
        });
    }
    let mut hll = HyperLogLog::new(14, h(StrategyId::Xxh3_64)).unwrap();
    ks.iter().for_each(|k| {
        hll.insert(k);
    });
    g.bench_function("hll_p14_estimate_ertl", |b| {
        b.iter(|| black_box(&hll).ertl())
    });

    let mut cm = CountMin::<u64, _>::new(4096, 6, h(StrategyId::Xxh3_64)).unwrap();
    let mut next = each(&ks);
    g.bench_function("cms_6x4096_update", |b| b.iter(|| cm.update(next(), 1)));
    let mut next = each(&ks);
    g.bench_function("cms_6x4096_update_conservative", |b| {
        b.iter(|| cm.update_conservative(next(), 1))
    });
    let mut next = each(&ks);
    g.bench_function("cms_6x4096_query", |b| b.iter(|| cm.estimate(next())));

    let mut mh = MinHash::new(128, &h(StrategyId::Xxh3_64)).unwrap();
    let mut next = each(&ks);
    g.bench_function("minhash_k128_insert", |b| b.iter(|| mh.insert(next())));

    let xs: Vec<f64> = (0..1u64 << 20)
        .map(|i| (splitmix64(i) >> 11) as f64 / (1u64 << 53) as f64)
        .collect();
    let mut td = TDigest::new(100.0).unwrap();
    let mut i = 0usize;
    g.bench_function("tdigest_c100_add", |b| {
        b.iter(|| {
            i = (i + 1) & ((1 << 20) - 1);
            td.add(black_box(xs[i]))
        })
    });
    g.bench_function("tdigest_c100_quantile", |b| {
        b.iter(|| td.quantile(black_box(0.99)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
