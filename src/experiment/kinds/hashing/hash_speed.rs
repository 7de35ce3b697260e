//! `hash_speed`: nanoseconds per hash and GB/s for a strategy at a key size,
//! the median of repeated timed batches (trials run one at a time).

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{KeyHasher, StrategyId};
use crate::stats;
use crate::table::Interval;
use rand::RngExt;
use std::hint::black_box;
use std::time::Instant;

pub struct HashSpeed;

crate::params! {
    pub struct P {
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        key_bytes: usize [bytes] = common::int(0, 1 << 20, Def::Required, "key length in bytes"),
        reps: u64 [count] = common::int(1, 10_000, Def::Int(21), "timed batches; the median is reported"),
        batch_bytes: usize [bytes] = common::int(1024, 1 << 30, Def::Int(8 << 20), "bytes hashed per batch (at least 2,000 hashes)"),
        probes: u64 [count] = common::int(1, 64, Def::Int(1), "hashes per key, each with its own derived seed (7: a Bloom filter's k independent hashes); ns_per_hash is then per key"),
    }
}

crate::row! {
    pub struct R {
        width: u32 [Same, bits],
        hashes_per_batch: usize [Same, count],
        /// Median over batches, with its order-statistic 95% interval.
        ns_per_hash: Interval [Median, ns],
        ns_per_hash_p10: f64 [ns],
        ns_per_hash_p90: f64 [ns],
        gb_per_s: f64 [Median, higher, gigabytes_per_second],
        checksum: String,
    }
}

/// Distinct keys cycled through, so a batch is not one cached key.
const KEYS: usize = 256;

impl Measure for HashSpeed {
    type P = P;
    type R = R;
    const NAME: &'static str = "hash_speed";
    const ABOUT: &'static str =
        "ns per hash and GB/s per strategy and key size (median of timed batches)";
    const TIMING: bool = true;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let h = p.hash_seed.hasher(p.hash, seeds);
        let len = p.key_bytes;
        let mut r = seeds.rng("keys");
        let buf: Vec<u8> = (0..KEYS * len.max(1)).map(|_| r.random::<u8>()).collect();
        let keys: Vec<&[u8]> = (0..KEYS)
            .map(|i| &buf[i * len.max(1)..i * len.max(1) + len])
            .collect();
        let per_batch = ((p.batch_bytes / len.max(1)).max(2000)).div_ceil(KEYS) * KEYS;
        struct Timer<'a> {
            keys: &'a [&'a [u8]],
            per_batch: usize,
            reps: u64,
            probes: u64,
        }
        impl crate::hashing::StrategyVisitor for Timer<'_> {
            type Output = (Vec<f64>, u128);
            fn visit<H: KeyHasher>(self, h: &H) -> (Vec<f64>, u128) {
                let mut acc = 0u128;
                if self.probes > 1 {
                    // k independently seeded functions, all called per key;
                    // the first (untimed) pass warms the caches
                    let hs: Vec<H> = (0..self.probes).map(|i| h.derive(i)).collect();
                    let ns = (0..=self.reps)
                        .map(|_| {
                            let t = Instant::now();
                            for k in self.keys.iter().cycle().take(self.per_batch) {
                                for g in &hs {
                                    acc = acc.wrapping_add(g.native(black_box(k)));
                                }
                            }
                            t.elapsed().as_nanos() as f64 / self.per_batch as f64
                        })
                        .skip(1)
                        .collect();
                    return (ns, acc);
                }
                // one untimed warm-up batch
                for k in self.keys.iter().cycle().take(self.per_batch) {
                    acc = acc.wrapping_add(h.native(black_box(k)));
                }
                let ns = (0..self.reps)
                    .map(|_| {
                        let t = Instant::now();
                        for k in self.keys.iter().cycle().take(self.per_batch) {
                            acc = acc.wrapping_add(h.native(black_box(k)));
                        }
                        t.elapsed().as_nanos() as f64 / self.per_batch as f64
                    })
                    .collect();
                (ns, acc)
            }
        }
        // Dispatch once, outside the timed loop: the loop runs on the concrete type.
        let (mut ns, acc) = h.visit(Timer {
            keys: &keys,
            per_batch,
            reps: p.reps,
            probes: p.probes,
        });
        ns.sort_by(f64::total_cmp);
        let med = stats::median_interval(&ns, stats::PLOT_CONFIDENCE);
        Ok(R {
            width: h.width(),
            hashes_per_batch: per_batch,
            ns_per_hash: med,
            ns_per_hash_p10: stats::quantile(&ns, 0.1),
            ns_per_hash_p90: stats::quantile(&ns, 0.9),
            gb_per_s: (len as f64 * p.probes as f64) / med.value,
            checksum: format!("{:08x}", black_box(acc) as u32),
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // KEYS keys of key_bytes each; work in 8-byte words hashed
        let len = p.key_bytes.max(1);
        let per_batch = ((p.batch_bytes / len).max(2000)).div_ceil(KEYS) * KEYS;
        let words = (len as f64 / 8.0).max(1.0);
        Some(Footprint::one(
            (KEYS * len) as f64,
            (p.reps + 1) as f64 * per_batch as f64 * words * p.probes as f64 + (KEYS * len) as f64,
        ))
    }
}
