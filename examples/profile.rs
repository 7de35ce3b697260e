//! One workload of `benches/versus.rs` on one contender, nothing else in the
//! process: what `valgrind --tool=callgrind` (or `perf record`) profiles to
//! show where an operation's time goes. `scripts/profile.sh` runs every
//! workload where sketchlab misses its goal, ours and the best crate's, and
//! writes reports/speed/profiles/.
//!
//! cargo run --release --example profile -- WORKLOAD ours|peer [N]
//!
//! Workloads: bloom_insert, bloom_query, blocked_query, hll_insert,
//! cms_update, cms_query, cuckoo_insert. N (default 1e6) operations after a
//! build of the same size; the peer is the workload's best crate in the
//! versus bench (fastbloom with xxh3 for the filters, streaming_algorithms
//! for HLL, count-min-sketch for Count-Min, cuckoofilter).

use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId, splitmix64};
use sketchlab::structures::bloom::BloomFilter;
use sketchlab::structures::bloom::blocked::BlockedBloom;
use sketchlab::structures::bloom::theory;
use sketchlab::structures::count_min::CountMin;
use sketchlab::structures::cuckoo::CuckooFilter;
use sketchlab::structures::hyperloglog::HyperLogLog;
use std::hint::black_box;

/// The measured loop, never inlined: callgrind's inclusive cost of
/// `profile::region` is the workload's, without the build before it.
#[inline(never)]
fn region<T>(f: impl FnOnce() -> T) -> T {
    f()
}

fn keys(n: u64, salt: u64) -> Vec<u64> {
    (0..n)
        .map(|i| splitmix64(i ^ salt.rotate_left(40)))
        .collect()
}

fn strategy(id: StrategyId) -> HashStrategy {
    HashStrategy::new(id, SeedPolicy::Fixed(7))
}

fn fastbloom_xxh3(n: u64) -> fastbloom::BloomFilter<xxhash_rust::xxh3::Xxh3Builder> {
    fastbloom::BloomFilter::with_false_pos(0.01)
        .hasher(xxhash_rust::xxh3::Xxh3Builder::new())
        .expected_items(n as usize)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: profile WORKLOAD ours|peer [N]";
    let workload = args.first().expect(usage).as_str();
    let ours = match args.get(1).map(String::as_str) {
        Some("ours") => true,
        Some("peer") => false,
        _ => panic!("{usage}"),
    };
    let n = args
        .get(2)
        .map(|s| s.parse::<f64>().expect("N") as u64)
        .unwrap_or(1_000_000);
    let members = keys(n, 1);
    let absent = keys(n, 2);
    let mut acc = 0u64;
    match (workload, ours) {
        ("bloom_insert", true) => {
            let mut f = BloomFilter::with_rate(n, 0.01, strategy(StrategyId::Xxh3)).unwrap();
            region(|| members.iter().for_each(|k| f.insert(&k.to_le_bytes())));
            acc += f.k() as u64;
        }
        ("bloom_insert", false) => {
            let mut f = fastbloom_xxh3(n);
            acc += region(|| members.iter().map(|k| f.insert(k) as u64).sum::<u64>());
        }
        ("bloom_query", true) => {
            let mut f = BloomFilter::with_rate(n, 0.01, strategy(StrategyId::Xxh3)).unwrap();
            members.iter().for_each(|k| f.insert(&k.to_le_bytes()));
            acc += region(|| {
                absent
                    .iter()
                    .filter(|k| f.contains(&k.to_le_bytes()))
                    .count() as u64
            });
        }
        ("bloom_query", false) => {
            let mut f = fastbloom_xxh3(n);
            members.iter().for_each(|k| {
                f.insert(k);
            });
            acc += region(|| absent.iter().filter(|k| f.contains(k)).count() as u64);
        }
        ("blocked_query", true) => {
            let m = theory::optimal_m(n, 0.01);
            let k = theory::optimal_k_int(m, n);
            let mut f = BlockedBloom::new(m, k, strategy(StrategyId::Xxh3)).unwrap();
            members.iter().for_each(|key| f.insert(&key.to_le_bytes()));
            acc += region(|| {
                absent
                    .iter()
                    .filter(|k| f.contains(&k.to_le_bytes()))
                    .count() as u64
            });
        }
        ("blocked_query", false) => {
            let mut f = fastbloom_xxh3(n);
            members.iter().for_each(|k| {
                f.insert(k);
            });
            acc += region(|| absent.iter().filter(|k| f.contains(k)).count() as u64);
        }
        ("hll_insert", true) => {
            let mut h = HyperLogLog::new(14, strategy(StrategyId::Xxh3_64)).unwrap();
            acc += region(|| {
                members
                    .iter()
                    .filter(|k| h.insert(&k.to_le_bytes()))
                    .count() as u64
            });
        }
        ("hll_insert", false) => {
            let mut h = streaming_algorithms::HyperLogLog::<u64>::with_p(14);
            region(|| members.iter().for_each(|k| h.push(k)));
            acc += h.len() as u64;
        }
        ("cms_update", true) => {
            let mut c = CountMin::<u64, _>::new(4096, 6, strategy(StrategyId::Xxh3_64)).unwrap();
            region(|| members.iter().for_each(|k| c.update(&k.to_le_bytes(), 1)));
            acc += c.total();
        }
        ("cms_update", false) => {
            let mut c = count_min_sketch::CountMinSketch64::<u64>::new(
                1_000_000,
                0.985,
                1_000_000.0 / 2048.0,
            )
            .unwrap();
            region(|| members.iter().for_each(|k| c.increment(k)));
            acc += c.estimate(&members[0]);
        }
        ("cms_query", true) => {
            let mut c = CountMin::<u64, _>::new(4096, 6, strategy(StrategyId::Xxh3_64)).unwrap();
            members.iter().for_each(|k| c.update(&k.to_le_bytes(), 1));
            acc += region(|| {
                members
                    .iter()
                    .map(|k| c.estimate(&k.to_le_bytes()))
                    .sum::<u64>()
            });
        }
        ("cms_query", false) => {
            let mut c = count_min_sketch::CountMinSketch64::<u64>::new(
                1_000_000,
                0.985,
                1_000_000.0 / 2048.0,
            )
            .unwrap();
            members.iter().for_each(|k| c.increment(k));
            acc += region(|| members.iter().map(|k| c.estimate(k)).sum::<u64>());
        }
        ("cuckoo_insert", true) => {
            let slots = n.next_power_of_two();
            let fill = (slots as f64 * 0.95) as usize;
            let mut f = CuckooFilter::new(
                (slots / 4) as usize,
                4,
                12,
                500,
                9,
                strategy(StrategyId::Xxh3_64),
            )
            .unwrap();
            acc += region(|| {
                members[..fill.min(members.len())]
                    .iter()
                    .filter(|k| f.insert(&k.to_le_bytes()).is_err())
                    .count() as u64
            });
        }
        ("cuckoo_insert", false) => {
            let slots = n.next_power_of_two();
            let fill = (slots as f64 * 0.95) as usize;
            let mut f = cuckoofilter::CuckooFilter::<std::collections::hash_map::DefaultHasher>::with_capacity(
                slots as usize,
            );
            acc += region(|| {
                members[..fill.min(members.len())]
                    .iter()
                    .filter(|k| f.add(k).is_err())
                    .count() as u64
            });
        }
        _ => panic!("unknown workload {workload}; {usage}"),
    }
    println!(
        "{workload} {} n = {n}: {}",
        if ours { "ours" } else { "peer" },
        black_box(acc)
    );
}
