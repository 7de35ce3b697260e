//! `exact_state`: the essay's theorem at work. A stream over a universe of
//! 2^u values is counted exactly twice — by a bitmap of the universe (the
//! smallest state that is exact for every stream over it: one bit per value)
//! and by a hash set of the values seen (bytes from the counting allocator) —
//! and approximately by a HyperLogLog, whose state does not grow. The stream
//! is then fed again: a duplicate cannot change a register ("duplicates are
//! free").

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::bloom::bloom_overfill::FRACTION;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED};
use crate::experiment::kinds::footprint::{hll_bytes, table};
use crate::experiment::params::{Def, HashSeed, ParamDef, Seeds};
use crate::hashing::StrategyId;
use crate::metrics::alloc::measure_retained;
use crate::structures::hyperloglog::HyperLogLog;
use rand::RngExt;
use std::collections::HashSet;

pub struct ExactState;

crate::params! {
    pub struct P {
        universe_bits: u32 [bits] = common::int(4, 30, Def::Required, "the universe is the 2^u values 0..2^u"),
        stream: f64 [fraction] = ParamDef::new("", FRACTION, Def::Float(0.5), "stream length as a fraction of the universe (values drawn uniformly, with repeats)"),
        p: u32 [bits] = common::int(4, 18, Def::Int(14), "HyperLogLog precision"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
    }
}

crate::row! {
    pub struct R {
        universe: u64 [Same, count],
        stream_len: u64 [Same, count],
        exact_distinct: u64 [count],
        bitmap_bytes: u64 [Same, bytes],
        bitmap_bits_per_universe_value: f64 [Same, bits],
        hashset_bytes: Option<u64> [bytes],
        hashset_bytes_per_distinct: Option<f64> [bytes_per_key],
        hll_bytes: usize [Same, bytes],
        hll_estimate: f64 [count],
        hll_rel_err: f64 [relative_error],
        /// Registers changed by feeding the whole stream a second time.
        registers_changed_by_duplicates: u64 [Max, count],
    }
}

impl Measure for ExactState {
    type P = P;
    type R = R;
    const NAME: &'static str = "exact_state";
    const ABOUT: &'static str = "exact distinct counting's state (a bitmap of the universe, a hash set) against a HyperLogLog's, as the universe grows";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let universe = 1u64 << p.universe_bits;
        let len = ((universe as f64) * p.stream).round() as u64;
        let mut rng = seeds.rng("stream");
        let stream: Vec<u64> = (0..len).map(|_| rng.random_range(0..universe)).collect();
        // exact, by the bitmap of the universe
        let mut bitmap = vec![0u64; universe.div_ceil(64) as usize];
        for &x in &stream {
            bitmap[(x / 64) as usize] |= 1 << (x % 64);
        }
        let exact: u64 = bitmap.iter().map(|w| w.count_ones() as u64).sum();
        // exact, by a hash set of what was seen
        let (set, hs) = measure_retained(|| stream.iter().copied().collect::<HashSet<u64>>());
        assert_eq!(set.len() as u64, exact, "bitmap and set disagree");
        drop(set);
        let mut hll = HyperLogLog::new(p.p, p.hash_seed.hasher(p.hash, seeds))?;
        for &x in &stream {
            hll.insert(&x.to_le_bytes());
        }
        let before = hll.registers().clone();
        for &x in &stream {
            hll.insert(&x.to_le_bytes());
        }
        let changed = (0..hll.m())
            .filter(|&i| hll.registers().get(i) != before.get(i))
            .count() as u64;
        let est = hll.ertl();
        Ok(R {
            universe,
            stream_len: len,
            exact_distinct: exact,
            bitmap_bytes: universe.div_ceil(8),
            bitmap_bits_per_universe_value: (universe.div_ceil(64) * 64) as f64 / universe as f64,
            hashset_bytes: hs,
            hashset_bytes_per_distinct: hs.map(|b| b as f64 / exact.max(1) as f64),
            hll_bytes: hll.bytes_used(),
            hll_estimate: est,
            hll_rel_err: est / exact.max(1) as f64 - 1.0,
            registers_changed_by_duplicates: changed,
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let u = (1u64 << p.universe_bits) as f64;
        let len = u * p.stream;
        Some(Footprint::one(
            8.0 * len + u / 8.0 + table(len, 8.0) + hll_bytes(p.p),
            4.0 * len,
        ))
    }
}
