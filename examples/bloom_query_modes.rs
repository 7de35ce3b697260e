//! The Bloom query three ways on one filter, one process: every probe read
//! with no branch (`contains_all_probes`), groups of four with a stop after
//! a group that found a zero (`contains`), and a stop at the first zero bit
//! (`probes_read(key) == k`), for absent and member keys, median ns per
//! query over 7 passes.
//!
//! cargo run --release --example bloom_query_modes -- [N] [FPR]

use sketchlab::hashing::{Seed, Xxh3, splitmix64};
use sketchlab::structures::bloom::BloomFilter;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).map_or(10_000_000, |a| a.parse().unwrap());
    let fpr: f64 = args.get(2).map_or(0.01, |a| a.parse().unwrap());
    let mut f = BloomFilter::with_rate(n, fpr, Xxh3::new(Seed::fixed(7))).unwrap();
    for i in 0..n {
        f.insert(&splitmix64(i).to_le_bytes());
    }
    let q = 1_000_000u64;
    let members: Vec<[u8; 8]> = (0..q)
        .map(|i| splitmix64(i * (n / q).max(1)).to_le_bytes())
        .collect();
    let absent: Vec<[u8; 8]> = (0..q)
        .map(|i| splitmix64(i + (1 << 40)).to_le_bytes())
        .collect();
    let k = f.k();
    println!(
        "n = {n}, fpr = {fpr}, k = {k}, {} MB",
        f.bytes() / 1_000_000
    );
    for (what, keys) in [("absent", &absent), ("member", &members)] {
        let mut times = [Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..7 {
            let t = Instant::now();
            let a = keys
                .iter()
                .filter(|x| f.contains_all_probes(&x[..]))
                .count();
            times[0].push(t.elapsed().as_nanos() as f64 / q as f64);
            let t = Instant::now();
            let b = keys.iter().filter(|x| f.contains(&x[..])).count();
            times[1].push(t.elapsed().as_nanos() as f64 / q as f64);
            let t = Instant::now();
            let c = keys.iter().filter(|x| f.probes_read(&x[..]) == k).count();
            times[2].push(t.elapsed().as_nanos() as f64 / q as f64);
            assert!(a == b && b <= c);
        }
        let [x, y, z] = times.map(median);
        println!("{what:7} all probes {x:6.1} ns | groups of 4 {y:6.1} ns | first zero {z:6.1} ns");
    }
}
