//! The public API's hot path, one contender per process: what a user's
//! program does, to set beside `reports/speed/versus.csv` (which times the
//! same calls inside one process, alternating contenders).
//!
//! cargo run --release --example public_path -- ours|fastbloom|fastbloom_xxh3 insert|query [N]
//!
//! `ours` is `BloomFilter::with_rate(n, 0.01, HashStrategy::new(Xxh3,
//! Fixed(7)))` with `insert(&key.to_le_bytes())` / `contains`; `fastbloom`
//! is `fastbloom::BloomFilter::with_false_pos(0.01).seed(&7)` (its default
//! SipHash-1-3) and `fastbloom_xxh3` the same with xxh3's `Xxh3Builder`, each
//! given the u64 through its API. Keys are splitmix64 of an index (members
//! 1.., absent keys from 2^40); queries are half members, half absent.
//! Prints the median ns per operation over 7 repetitions (a fresh filter per
//! insert repetition).

use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId, splitmix64};
use sketchlab::structures::bloom::BloomFilter;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (who, what) = (
        args.get(1).map(String::as_str),
        args.get(2).map(String::as_str),
    );
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
    let mut samples = Vec::new();
    for _ in 0..7 {
        let ns = match (who, what) {
            (Some("ours"), Some(w)) => {
                let new = || {
                    BloomFilter::with_rate(
                        n,
                        0.01,
                        HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7)),
                    )
                    .unwrap()
                };
                let mut f = new();
                if w == "query" {
                    members.iter().for_each(|k| f.insert(&k.to_le_bytes()));
                }
                let t = Instant::now();
                if w == "insert" {
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
                t.elapsed().as_nanos() as f64 / n as f64
            }
            (Some(p @ ("fastbloom" | "fastbloom_xxh3")), Some(w)) => {
                macro_rules! time {
                    ($f:expr) => {{
                        let mut f = $f;
                        if w == "query" {
                            members.iter().for_each(|k| {
                                f.insert(k);
                            });
                        }
                        let t = Instant::now();
                        if w == "insert" {
                            members.iter().for_each(|k| {
                                f.insert(k);
                            });
                            black_box(&f);
                        } else {
                            black_box(queries.iter().filter(|k| f.contains(k)).count());
                        }
                        t.elapsed().as_nanos() as f64 / n as f64
                    }};
                }
                if p == "fastbloom" {
                    time!(
                        fastbloom::BloomFilter::with_false_pos(0.01)
                            .seed(&7)
                            .expected_items(n as usize)
                    )
                } else {
                    time!(
                        fastbloom::BloomFilter::with_false_pos(0.01)
                            .hasher(xxhash_rust::xxh3::Xxh3Builder::new())
                            .expected_items(n as usize)
                    )
                }
            }
            _ => {
                eprintln!("usage: public_path ours|fastbloom|fastbloom_xxh3 insert|query [N]");
                std::process::exit(2);
            }
        };
        samples.push(ns);
    }
    samples.sort_by(f64::total_cmp);
    println!("{:.3}", samples[3]);
}
