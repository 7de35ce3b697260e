//! `scaling`: nanoseconds per operation against structure size, from a
//! structure that sits in L1 to one that lives in DRAM, next to a physical
//! model measured in the same trial on a buffer of the same size:
//!
//! * one hash of the key (timed alone), plus
//! * one load per cache line the operation touches (k for a Bloom filter,
//!   one for a blocked one, two buckets for a cuckoo filter, one register for
//!   HyperLogLog, d counters for Count-Min), at this size's cost: the
//!   dependent-load latency (the "every probe is a miss" model) or the
//!   independent-load cost (the misses overlapped, as they can be: a query's
//!   probes do not depend on each other, nor do successive queries).
//!
//! Filters are sized for `n` keys at 1% (cuckoo: 12-bit fingerprints, 4-slot
//! buckets in u16 slots, the power of two of slots that holds n at ≤ 95%
//! load) and filled
//! with n keys; operations are queries of never-inserted keys (`lines_per_op`
//! counts every probe's line; the standard filter's query may stop after a
//! group of four probes that found a zero bit). HyperLogLog and
//! Count-Min do not grow with n: they are given the Bloom filter's bytes for
//! n (HyperLogLog: the largest p ≤ 18 whose 6-bit registers fit, so its
//! series stops at 192 KiB; Count-Min: d = 5 rows of u32 counters), and their
//! operation is an insert (HyperLogLog: of never-inserted keys, which the
//! untimed pass before each timed one adds, so every timed repetition does
//! the same work and changes no register) or a point query.
//!
//! For the filters, two more loops run on the same queries: the FPR studies'
//! own query loop (`common::count_positives`: keys derived from ids into one
//! reused buffer) and, for the Bloom filters, the batched query with
//! prefetching (`count_prefetched`, which `count_contained` uses only for a
//! filter larger than the last-level cache, where this study finds it pays;
//! the standard filter's is the pipeline of `contains_batch`), reported also
//! per key in units of this size's independent-load time.

use super::scaling_build::*;
use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{KeyHasher, StrategyId};
use crate::metrics::memory::{self, LoadProbe};
use crate::stats;
use crate::table::Interval;
use crate::workload::{KeyGen, KeyType};
use std::hint::black_box;

pub struct Scaling;

pub use super::scaling_build::Structure;

crate::params! {
    pub struct P {
        structure: Structure = common::choice(Structure::NAMES, Def::Required, "the structure timed (see the kind's doc for how each is sized)"),
        n: u64 [count] = common::int(100, 1 << 32, Def::Required, "keys the structure is sized for (filters: and filled with)"),
        queries: u64 [count] = common::int(1000, 1 << 28, Def::Int(1_000_000), "operations per timed repetition (never-inserted keys)"),
        reps: u64 [count] = common::int(1, 1000, Def::Int(7), "timed repetitions of each loop, interleaved; medians reported"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
    }
}

crate::row! {
    pub struct R {
        /// What one operation is: "query" or "insert".
        op: String [Same],
        bytes: u64 [Same, bytes],
        /// The smallest cache the structure fits in, by the sizes in /sys.
        level: String [Same],
        l1d_bytes: u64 [Same, bytes],
        l2_bytes: u64 [Same, bytes],
        l3_bytes: u64 [Same, bytes],
        /// Probes per key (Bloom k, cuckoo buckets, Count-Min d, 1 otherwise).
        probes: u32 [Same, count],
        /// 64-byte lines one operation touches (by construction).
        lines_per_op: f64 [Same, count],
        /// Median over repetitions, with its order-statistic 95% interval.
        ns_per_op: Interval [Median, ns],
        ns_per_op_min: f64 [ns],
        ns_per_op_max: f64 [ns],
        /// One hash of the same keys, alone.
        ns_hash: f64 [Median, ns],
        /// A dependent load (pointer chase) over a buffer of the structure's bytes.
        ns_load_latency: f64 [Median, ns],
        /// An independent random load over the same buffer.
        ns_load_independent: f64 [Median, ns],
        /// ns_hash + lines_per_op × ns_load_latency.
        model_latency_ns: f64 [ns],
        /// ns_hash + lines_per_op × ns_load_independent.
        model_overlapped_ns: f64 [ns],
        /// ns_per_op / model_latency_ns.
        measured_over_latency_model: f64 [ratio],
        /// Filters: the FPR studies' query loop on the same queries.
        ns_per_query_sweep: Option<f64> [Median, ns],
        /// Bare query throughput reached by the sweep loop: ns_per_op / ns_per_query_sweep.
        sweep_throughput_ratio: Option<f64> [higher, ratio],
        /// Bloom filters: the batched, prefetching query.
        ns_per_query_batched: Option<f64> [Median, ns],
        /// ns_per_op / ns_per_query_batched (> 1: batching helps).
        batched_speedup: Option<f64> [higher, ratio],
        /// ns_per_query_batched / ns_load_independent: the batched query per key in independent-load times.
        batched_over_independent: Option<f64> [ratio],
        /// Filters: positives among the never-inserted queries (all loops agree).
        fpr: Option<f64> [fraction],
        insert_failures: u64 [Sum, count],
    }
}

impl Measure for Scaling {
    type P = P;
    type R = R;
    const NAME: &'static str = "scaling";
    const ABOUT: &'static str = "ns per operation vs structure size (L1 to DRAM) next to hash + lines × load cost measured at the same size";
    const TIMING: bool = true;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let h = p.hash_seed.hasher(p.hash, seeds);
        let mut keys = KeyGen::new(KeyType::U64, seeds.derive("keys"));
        let shape = build(p.structure, p.n, h.clone(), &mut keys, seeds)?;
        let q = p.queries as usize;
        let ids = p.n..p.n + p.queries;
        let qkeys: Vec<[u8; 8]> = ids
            .clone()
            .map(|id| keys.key(id).try_into().expect("u64 keys are 8 bytes"))
            .collect();
        let probe = LoadProbe::new(shape.bytes, q, &mut seeds.rng("loads"));
        let caches = memory::caches();

        let (mut op, mut hash, mut lat, mut ind, mut sweep, mut batched) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        let (mut a_op, mut a_hash, mut a_sweep, mut a_batched) = (None, None, None, None);
        let mut built = shape.built;
        let is_filter = matches!(
            built,
            Built::Bloom(_) | Built::Blocked(_) | Built::Cuckoo(_)
        );
        for _ in 0..p.reps {
            timed(&mut hash, &mut a_hash, q, || {
                qkeys
                    .iter()
                    .fold(0u64, |a, k| a ^ h.hash128(black_box(k)).0)
            });
            // an untimed pass first: every timed loop starts from the cache
            // state a structure in steady use is in (the load probe of the
            // previous repetition evicted it)
            match &mut built {
                Built::Bloom(f) => black_box(bare(f, &qkeys)),
                Built::Blocked(f) => black_box(bare(f, &qkeys)),
                Built::Cuckoo(f) => black_box(bare(f, &qkeys)),
                Built::Hll(s) => black_box(hll_inserts(s, &qkeys)),
                Built::CountMin(c) => black_box(cms_queries(c, &qkeys)),
            };
            match &mut built {
                Built::Bloom(f) => {
                    timed(&mut op, &mut a_op, q, || bare(f, &qkeys));
                    timed(&mut sweep, &mut a_sweep, q, || {
                        common::count_positives(f, &mut keys, ids.clone())
                    });
                    timed(&mut batched, &mut a_batched, q, || {
                        f.count_prefetched(&qkeys)
                    });
                }
                Built::Blocked(f) => {
                    timed(&mut op, &mut a_op, q, || bare(f, &qkeys));
                    timed(&mut sweep, &mut a_sweep, q, || {
                        common::count_positives(f, &mut keys, ids.clone())
                    });
                    timed(&mut batched, &mut a_batched, q, || {
                        f.count_prefetched(&qkeys)
                    });
                }
                Built::Cuckoo(f) => {
                    timed(&mut op, &mut a_op, q, || bare(f, &qkeys));
                    timed(&mut sweep, &mut a_sweep, q, || {
                        common::count_positives(f, &mut keys, ids.clone())
                    });
                }
                Built::Hll(s) => {
                    // inserting the same new keys again changes nothing: every
                    // repetition does the same work on the same registers
                    timed(&mut op, &mut a_op, q, || hll_inserts(s, &qkeys));
                }
                Built::CountMin(c) => {
                    timed(&mut op, &mut a_op, q, || cms_queries(c, &qkeys));
                }
            }
            lat.push(probe.latency_ns(q));
            ind.push(probe.independent_ns());
        }
        for (name, a) in [("sweep", a_sweep), ("batched", a_batched)] {
            if let (Some(a), Some(b)) = (a, a_op)
                && is_filter
                && a != b
            {
                return Err(crate::error::bug(format!(
                    "the {name} query loop found {a} positives, the bare loop {b}"
                )));
            }
        }
        op.sort_by(f64::total_cmp);
        let ns_op = stats::median_interval(&op, stats::PLOT_CONFIDENCE);
        let (ns_hash, ns_lat, ns_ind) = (med(hash), med(lat), med(ind));
        let model_latency = ns_hash + shape.lines * ns_lat;
        let opt = |v: Vec<f64>| (!v.is_empty()).then(|| med(v));
        let (sweep, batched) = (opt(sweep), opt(batched));
        Ok(R {
            op: if matches!(built, Built::Hll(_)) {
                "insert"
            } else {
                "query"
            }
            .into(),
            bytes: shape.bytes,
            level: caches.level(shape.bytes).into(),
            l1d_bytes: caches.l1d,
            l2_bytes: caches.l2,
            l3_bytes: caches.l3,
            probes: shape.probes,
            lines_per_op: shape.lines,
            ns_per_op: ns_op,
            ns_per_op_min: op[0],
            ns_per_op_max: op[op.len() - 1],
            ns_hash,
            ns_load_latency: ns_lat,
            ns_load_independent: ns_ind,
            model_latency_ns: model_latency,
            model_overlapped_ns: ns_hash + shape.lines * ns_ind,
            measured_over_latency_model: ns_op.value / model_latency,
            ns_per_query_sweep: sweep,
            sweep_throughput_ratio: sweep.map(|s| ns_op.value / s),
            ns_per_query_batched: batched,
            batched_speedup: batched.map(|b| ns_op.value / b),
            batched_over_independent: batched.map(|b| b / ns_ind),
            fpr: is_filter.then(|| a_op.unwrap_or(0) as f64 / q as f64),
            insert_failures: shape.failures,
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let budget = bloom_bits(p.n) as f64 / 8.0;
        let bytes = match p.structure {
            Structure::Cuckoo => cuckoo_buckets(p.n) as f64 * 4.0 * 2.0,
            Structure::Hll => (3u64 << hll_p(budget as u64)) as f64 / 4.0,
            _ => budget,
        };
        // the structure, a load probe of its size, the query keys and load indices
        let q = p.queries as f64;
        Some(Footprint {
            structure_bytes: bytes,
            peak_bytes: 2.0 * bytes + 12.0 * q,
            work: p.n as f64 * 3.0 + p.reps as f64 * q * 12.0,
        })
    }
}
