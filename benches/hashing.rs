//! Every strategy at 8, 64 and 1024 bytes, three ways: the underlying crate
//! called directly, sketchlab's concrete strategy type, and the run-time
//! `HashStrategy` enum that experiments use. The first two must agree within
//! noise (no wrapper tax).
//!
//! cargo bench --bench hashing

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sketchlab::hashing::*;
use std::hash::{BuildHasher, Hasher};
use std::hint::black_box;

const SEED_VALUE: u64 = 0x5EED;

fn keys(len: usize) -> Vec<Vec<u8>> {
    (0..64u64)
        .map(|i| {
            (0..len as u64)
                .map(|j| (splitmix64(i * 131 + j) >> 7) as u8)
                .collect()
        })
        .collect()
}

macro_rules! three_ways {
    ($c:expr, $kind:expr, $ty:ty, |$k:ident| $direct:expr) => {{
        let kind: StrategyId = $kind;
        let concrete = <$ty>::new(Seed::fixed(black_box(SEED_VALUE)));
        let dynamic = kind.build(Seed::fixed(black_box(SEED_VALUE)));
        let mut g = $c.benchmark_group(kind.name());
        for len in [8usize, 64, 1024] {
            let ks = keys(len);
            g.throughput(Throughput::Bytes(len as u64));
            let mut i = 0usize;
            g.bench_function(BenchmarkId::new("crate", len), |b| {
                b.iter(|| {
                    i = (i + 1) & 63;
                    let $k: &[u8] = black_box(&ks[i]);
                    $direct
                })
            });
            g.bench_function(BenchmarkId::new("strategy", len), |b| {
                b.iter(|| {
                    i = (i + 1) & 63;
                    concrete.native(black_box(&ks[i]))
                })
            });
            g.bench_function(BenchmarkId::new("enum", len), |b| {
                b.iter(|| {
                    i = (i + 1) & 63;
                    dynamic.native(black_box(&ks[i]))
                })
            });
        }
        g.finish();
    }};
}

fn bench(c: &mut Criterion) {
    sketchlab::plot::register_font();
    // A run-time seed, as the strategies have: a literal would let the
    // compiler specialise the crate call and flatter it.
    #[allow(non_snake_case)]
    let SEED: u64 = black_box(SEED_VALUE);
    let sip13 = siphasher::sip128::SipHasher13::new_with_keys(SEED, 0);
    three_ways!(c, StrategyId::Sip13, Sip13, |k| sip13.hash(k).as_u128());
    let sip24 = siphasher::sip128::SipHasher24::new_with_keys(SEED, 0);
    three_ways!(c, StrategyId::Sip24, Sip24, |k| sip24.hash(k).as_u128());
    three_ways!(c, StrategyId::StdDefault, StdDefault, |k| {
        let mut h = std::hash::DefaultHasher::new();
        h.write(k);
        h.finish() as u128
    });
    three_ways!(c, StrategyId::Xxh3, Xxh3, |k| {
        xxhash_rust::xxh3::xxh3_128_with_seed(k, SEED)
    });
    three_ways!(
        c,
        StrategyId::Xxh3_64,
        Xxh3_64,
        |k| xxhash_rust::xxh3::xxh3_64_with_seed(k, SEED) as u128
    );
    three_ways!(
        c,
        StrategyId::Xxh64,
        Xxh64,
        |k| xxhash_rust::xxh64::xxh64(k, SEED) as u128
    );
    three_ways!(c, StrategyId::Murmur3x64_128, Murmur3x64_128, |k| {
        let (a, b) = mur3::murmurhash3_x64_128(k, SEED as u32);
        (b as u128) << 64 | a as u128
    });
    three_ways!(
        c,
        StrategyId::Murmur3x86_32,
        Murmur3x86_32,
        |k| mur3::murmurhash3_x86_32(k, SEED as u32) as u128
    );
    three_ways!(
        c,
        StrategyId::Murmur64a,
        Murmur64a,
        |k| murmurhash64::murmur_hash64a(k, SEED) as u128
    );
    three_ways!(c, StrategyId::Fnv1a64, Fnv1a64, |k| {
        let mut h = fnv::FnvHasher::with_key(0xcbf2_9ce4_8422_2325 ^ SEED);
        h.write(k);
        h.finish() as u128
    });
    three_ways!(c, StrategyId::Crc32, Crc32, |k| {
        let mut h = crc32fast::Hasher::new_with_initial(SEED as u32);
        h.update(k);
        h.finalize() as u128
    });
    three_ways!(c, StrategyId::Fx, Fx, |k| {
        let mut h = rustc_hash::FxHasher::with_seed(SEED as usize);
        h.write(k);
        h.finish() as u128
    });
    let fold = foldhash::fast::FixedState::with_seed(SEED);
    three_ways!(c, StrategyId::Foldhash, FoldHash, |k| {
        let mut h = fold.build_hasher();
        h.write(k);
        h.finish() as u128
    });
    let ah = ahash::RandomState::with_seeds(SEED, 0, !SEED, !0);
    three_ways!(c, StrategyId::Ahash, AHash, |k| {
        let mut h = ah.build_hasher();
        h.write(k);
        h.finish() as u128
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
