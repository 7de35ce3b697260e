//! The public API's hot path, one contender per process: what a user's
//! program does, to set beside `reports/speed/versus.csv` (which times the
//! same calls inside one process, alternating contenders).
//!
//! cargo run --release --example public_path -- CONTENDER insert|query [N]
//!
//! Contenders:
//! - `ours`: `BloomFilter::with_rate(n, 0.01, HashStrategy::new(Xxh3, Fixed(7)))`
//!   and `insert(&key.to_le_bytes())` / `contains` (the strategy chosen at
//!   run time: one `match` per key);
//! - `ours_concrete`: the same with the concrete `hashing::Xxh3` type
//!   (`BloomFilter<Xxh3>`, monomorphised: no dispatch);
//! - `fastbloom`: `fastbloom::BloomFilter::with_false_pos(0.01).seed(&7)`
//!   (its default SipHash-1-3), given the u64 through its API;
//! - `fastbloom_xxh3`: the same with xxh3's `Xxh3Builder`.
//!
//! Keys are splitmix64 of an index (members 1..=n, absent keys from 2^40);
//! queries are half members, half absent. Prints the median ns per
//! operation over 7 repetitions (a fresh filter per insert repetition).

use sketchlab::hashing::{HashStrategy, KeyHasher, Seed, SeedPolicy, StrategyId, Xxh3, splitmix64};
use sketchlab::structures::bloom::BloomFilter;
use std::hint::black_box;
use std::time::Instant;

/// One pass over sketchlab's public API, in ns.
#[inline(never)]
fn ours<H: KeyHasher>(
    mut f: BloomFilter<H>,
    insert: bool,
    members: &[u64],
    queries: &[u64],
) -> f64 {
    if !insert {
        members.iter().for_each(|k| f.insert(&k.to_le_bytes()));
    }
    let t = Instant::now();
    if insert {
        members.iter().for_each(|k| f.insert(&k.to_le_bytes()));
        black_box(&f);
    } else {
        black_box(
            queries
                .iter()
                .filter(|k| f.contains(&k.to_le_bytes()))
                .count(),
        );
    }
    t.elapsed().as_nanos() as f64
}

/// One pass over fastbloom's API, in ns.
#[inline(never)]
fn peer<S: std::hash::BuildHasher>(
    mut f: fastbloom::BloomFilter<S>,
    insert: bool,
    members: &[u64],
    queries: &[u64],
) -> f64 {
    if !insert {
        members.iter().for_each(|k| {
            f.insert(k);
        });
    }
    let t = Instant::now();
    if insert {
        members.iter().for_each(|k| {
            f.insert(k);
        });
        black_box(&f);
    } else {
        black_box(queries.iter().filter(|k| f.contains(k)).count());
    }
    t.elapsed().as_nanos() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let who = args.get(1).cloned().unwrap_or_default();
    let insert = match args.get(2).map(String::as_str) {
        Some("insert") => true,
        Some("query") => false,
        _ => {
            eprintln!(
                "usage: public_path ours|ours_concrete|fastbloom|fastbloom_xxh3 insert|query [N]"
            );
            std::process::exit(2);
        }
    };
    let n: u64 = args
        .get(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let members: Vec<u64> = (1..=n).map(splitmix64).collect();
    let queries: Vec<u64> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                members[i as usize]
            } else {
                splitmix64((1 << 40) + i)
            }
        })
        .collect();
    let (m, q) = (&members[..], &queries[..]);
    let mut samples: Vec<f64> = (0..7)
        .map(|_| {
            let ns = match who.as_str() {
                "ours" => ours(
                    BloomFilter::with_rate(
                        n,
                        0.01,
                        HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7)),
                    )
                    .unwrap(),
                    insert,
                    m,
                    q,
                ),
                "ours_concrete" => ours(
                    BloomFilter::with_rate(n, 0.01, Xxh3::new(Seed::fixed(7))).unwrap(),
                    insert,
                    m,
                    q,
                ),
                "fastbloom" => peer(
                    fastbloom::BloomFilter::with_false_pos(0.01)
                        .seed(&7)
                        .expected_items(n as usize),
                    insert,
                    m,
                    q,
                ),
                "fastbloom_xxh3" => peer(
                    fastbloom::BloomFilter::with_false_pos(0.01)
                        .hasher(xxhash_rust::xxh3::Xxh3Builder::new())
                        .expected_items(n as usize),
                    insert,
                    m,
                    q,
                ),
                other => {
                    eprintln!("unknown contender {other:?}");
                    std::process::exit(2);
                }
            };
            ns / n as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    println!("{:.3}", samples[3]);
}
