//! `heavy_hitters`: finding the most frequent keys of a Zipf stream in a
//! fixed number of bytes. Count-Min (plain, and with conservative update)
//! cannot list keys by itself: it is paired, as in practice, with the
//! `top` keys of highest estimate seen so far (16 bytes each, counted in
//! its budget; the rest is d = 4 rows of u32 counters). DataSketches'
//! frequent-items sketch (Misra–Gries with reverse purge) keeps its own
//! candidates in the largest power-of-two map the budget holds (26 bytes a
//! slot for u64 items). Each reports its `top` keys of highest estimate;
//! the true heavy hitters are the keys at least as frequent as the true
//! `top`-th. Recall and precision are proportions of those sets; the count
//! error is the mean |estimate − count|/count over the true hitters found.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Study;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::count_min::CountMin;
use crate::workload::zipf::ZipfStream;
use crate::workload::{KeyGen, KeyType};
use datasketches::frequencies::{ErrorType, FrequentItemsSketch};
use std::collections::HashMap;

pub struct HeavyHitters;

pub const STRUCTURES: &[&str] = &["count_min", "count_min_conservative", "frequent_items"];

/// Count-Min rows, and the bytes of one tracked candidate (key, estimate).
const DEPTH: u64 = 4;
const CANDIDATE_BYTES: u64 = 16;
/// Bytes of one frequent-items map slot for u64 items (Option<u64>, u64, u16).
const FI_SLOT_BYTES: u64 = 26;

crate::params! {
    pub struct P {
        structure: String = common::choice(STRUCTURES, Def::Required, "Count-Min with a top list (plain or conservative update), or DataSketches' frequent items"),
        bytes: u64 = common::int(1024, 1 << 30, Def::Int(32_768), "the memory budget every structure gets"),
        s: f64 = common::positive(10.0, Def::Float(1.1), "Zipf exponent"),
        n: u64 = common::count(Def::Int(1_000_000), "stream length (updates)"),
        universe: u64 = common::count(Def::Int(1_000_000), "distinct keys the stream draws from"),
        top: u64 = common::int(1, 100_000, Def::Int(100), "heavy hitters reported"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
    }
}

crate::row! {
    pub struct R {
        /// The structure's shape in words.
        config: String [Same],
        /// Bytes the structure takes (at most the budget).
        bytes_used: u64 [Same],
        /// True heavy hitters: keys at least as frequent as the true top-th.
        true_hitters: u64,
        /// Of the true hitters, the share among the reported.
        recall: Proportion,
        /// Of the reported, the share that are true hitters.
        precision: Proportion,
        /// Mean |estimate − count|/count over the true hitters reported.
        count_error: Option<f64>,
        /// The largest such error.
        count_error_max: Option<f64>,
    }
}

/// The `top` keys of highest estimate seen so far, beside a Count-Min.
struct TopList {
    k: usize,
    est: HashMap<u64, u64>,
    min: Option<(u64, u64)>,
}

impl TopList {
    fn offer(&mut self, key: u64, e: u64) {
        if let Some(v) = self.est.get_mut(&key) {
            *v = e;
            if self.min.is_some_and(|(_, k)| k == key) {
                self.min = None;
            }
        } else if self.est.len() < self.k {
            self.est.insert(key, e);
            self.min = None;
        } else {
            let (m, mk) = self.min.unwrap_or_else(|| self.lowest());
            if e > m {
                self.est.remove(&mk);
                self.est.insert(key, e);
                self.min = None;
            } else {
                self.min = Some((m, mk));
            }
        }
    }

    fn lowest(&self) -> (u64, u64) {
        self.est
            .iter()
            .map(|(&k, &v)| (v, k))
            .min()
            .unwrap_or((0, 0))
    }
}

impl Study for HeavyHitters {
    type P = P;
    type R = R;
    const NAME: &'static str = "heavy_hitters";
    const ABOUT: &'static str = "Count-Min (plain, conservative) with a top list vs frequent items at equal bytes: top-k recall, precision and count error on Zipf streams";

    fn validate(&self, p: &P) -> Result<(), (&'static str, String)> {
        let need = p.top * CANDIDATE_BYTES + DEPTH * 4 * 16;
        if p.bytes < need || p.bytes < 64 * FI_SLOT_BYTES {
            return Err((
                "bytes",
                format!(
                    "at least {} for top = {}",
                    need.max(64 * FI_SLOT_BYTES),
                    p.top
                ),
            ));
        }
        if p.top >= p.universe {
            return Err(("top", format!("below universe = {}", p.universe)));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let mut stream =
            ZipfStream::new(p.universe, p.s, seeds.derive("stream")).map_err(anyhow::Error::msg)?;
        let mut keys = KeyGen::new(KeyType::U64, seeds.derive("keys"));
        let mut truth = vec![0u64; p.universe as usize];
        let key_of = |keys: &mut KeyGen, id: u64| -> u64 {
            u64::from_le_bytes(keys.key(id).try_into().expect("u64 keys are 8 bytes"))
        };
        let (reported, config, bytes_used): (Vec<(u64, u64)>, String, u64) =
            if p.structure == "frequent_items" {
                let lg = (p.bytes / FI_SLOT_BYTES).ilog2();
                let mut fi = FrequentItemsSketch::<u64>::new(1 << lg)?;
                for _ in 0..p.n {
                    let id = stream.next_id();
                    truth[id as usize] += 1;
                    fi.update(key_of(&mut keys, id));
                }
                let mut rows: Vec<(u64, u64)> = fi
                    .frequent_items_with_threshold(ErrorType::NoFalseNegatives, 0)
                    .iter()
                    .map(|r| (*r.item(), r.estimate()))
                    .collect();
                rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                rows.truncate(p.top as usize);
                let bytes = FI_SLOT_BYTES << lg;
                (rows, format!("map of 2^{lg} slots"), bytes)
            } else {
                let w = (p.bytes - p.top * CANDIDATE_BYTES) / (DEPTH * 4);
                let hasher = p.hash_seed.hasher(p.hash, seeds);
                let mut cm = CountMin::<u32, _>::new(w, DEPTH, hasher)?;
                let conservative = p.structure == "count_min_conservative";
                let mut list = TopList {
                    k: p.top as usize,
                    est: HashMap::new(),
                    min: None,
                };
                for _ in 0..p.n {
                    let id = stream.next_id();
                    truth[id as usize] += 1;
                    let key = key_of(&mut keys, id);
                    let b = key.to_le_bytes();
                    if conservative {
                        cm.update_conservative(&b, 1);
                    } else {
                        cm.update(&b, 1);
                    }
                    list.offer(key, cm.estimate(&b));
                }
                let mut rows: Vec<(u64, u64)> = list.est.into_iter().collect();
                rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                let bytes = cm.bytes() + p.top * CANDIDATE_BYTES;
                (
                    rows,
                    format!("w = {w}, d = {DEPTH}, top list of {}", p.top),
                    bytes,
                )
            };
        // the true counts by key, and the count of the true top-th key
        let mut by_key: HashMap<u64, u64> = HashMap::new();
        let mut counts: Vec<u64> = Vec::with_capacity(truth.len());
        for (id, &c) in truth.iter().enumerate() {
            if c > 0 {
                by_key.insert(key_of(&mut keys, id as u64), c);
                counts.push(c);
            }
        }
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let cut = counts.get(p.top as usize - 1).copied().unwrap_or(1).max(1);
        let true_hitters = counts.iter().filter(|&&c| c >= cut).count() as u64;
        let errors: Vec<f64> = reported
            .iter()
            .filter_map(|(k, e)| {
                let c = *by_key.get(k)?;
                (c >= cut).then(|| (*e as f64 - c as f64).abs() / c as f64)
            })
            .collect();
        let found = errors.len() as u64;
        let mean = (!errors.is_empty()).then(|| errors.iter().sum::<f64>() / found as f64);
        Ok(R {
            config,
            bytes_used,
            true_hitters,
            recall: Proportion::new(found, true_hitters),
            precision: Proportion::new(found, reported.len() as u64),
            count_error: mean,
            count_error_max: errors.iter().copied().reduce(f64::max),
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        Some(Footprint::one(p.bytes as f64, 2.0 * p.n as f64).plus(24.0 * p.universe as f64))
    }
}
