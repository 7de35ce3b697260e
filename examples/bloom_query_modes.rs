//! The Bloom query five ways on one filter, one process: every probe read
//! with no branch (`contains_all_probes`), groups of four with a stop after
//! a group that found a zero (`contains`), a stop at the first zero bit
//! (`probes_read(key) == k`), and two batched queries: the pipeline of
//! `contains_batch` (16 keys in flight, each probe prefetched) and the same
//! pipeline counting only (`count_prefetched`). Absent and member keys,
//! median ns per query over 7 passes, next to this machine's independent
//! random load over a buffer of the filter's size (the `scaling` study's
//! `ns_load_independent`, measured the same way).
//!
//! cargo run --release --example bloom_query_modes -- [N] [FPR]

use sketchlab::hashing::{Seed, Xxh3, splitmix64};
use sketchlab::metrics::memory::LoadProbe;
use sketchlab::structures::bloom::BloomFilter;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    use rand::SeedableRng;
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args
        .get(1)
        .map_or(10_000_000, |a| a.parse::<f64>().unwrap() as u64);
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
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(5);
    let probe = LoadProbe::new(f.bytes() as u64, q as usize, &mut rng);
    let independent = median((0..7).map(|_| probe.independent_ns()).collect());
    let dependent = median((0..3).map(|_| probe.latency_ns(q as usize)).collect());
    println!(
        "n = {n}, fpr = {fpr}, k = {k}, {} MB; a load over {} MB: dependent {dependent:.1} ns, independent {independent:.2} ns",
        f.bytes() / 1_000_000,
        f.bytes() / 1_000_000
    );
    for (what, keys) in [("absent", &absent), ("member", &members)] {
        let mut times = [vec![], vec![], vec![], vec![], vec![]];
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
            let t = Instant::now();
            let d = f.contains_batch(keys).iter().filter(|&&x| x).count();
            times[3].push(t.elapsed().as_nanos() as f64 / q as f64);
            let t = Instant::now();
            let e = f.count_prefetched(keys) as usize;
            times[4].push(t.elapsed().as_nanos() as f64 / q as f64);
            assert!(a == b && b <= c && a == d && a == e);
        }
        let [x, y, z, v, w] = times.map(median);
        println!(
            "{what:7} all probes {x:6.1} ns | groups of 4 {y:6.1} ns | first zero {z:6.1} ns | contains_batch {v:6.1} ns ({:.2} independent loads) | count_prefetched {w:6.1} ns",
            v / independent
        );
    }
}
