//! `heavy_hitters`: finding the most frequent keys of a Zipf stream in a
//! fixed number of bytes. A trial draws one stream and feeds it to each of
//! the four structures in turn (one row each, `structure` its key): the
//! structures are compared on the same stream, and the stream (0.4 s of
//! 10^7 Zipf draws, as long as a Count-Min pass) is drawn once rather than
//! four times. Count-Min (plain, and with conservative update) cannot list
//! keys by itself: it is paired, as in practice, with the
//! `top` keys of highest estimate seen so far (16 bytes each, counted in
//! its budget; the rest is d = 4 rows of u32 counters). DataSketches'
//! frequent-items sketch (Misra–Gries with reverse purge) keeps its own
//! candidates in the largest power-of-two map whose measured footprint
//! (`estimated_size`, 26 bytes a slot at load 0.75) fits the budget;
//! SpaceSaving (written here) keeps ⌊budget/24⌋ counters. Each reports its
//! `top` keys of highest estimate; the true heavy hitters are the keys at
//! least as frequent as the true `top`-th. Recall and precision are
//! proportions of those sets. The count error is over **every** true
//! hitter, each read through the structure's own point estimate (a key it
//! does not hold reads 0: a missed key counts with its error), beside the
//! largest additive error as a share of N and the structure's bound on it
//! (Count-Min e/w at δ = e^−d; DataSketches' 3.5/M; SpaceSaving's 1/k).

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::count_min::CountMin;
use crate::structures::count_min::top::TopList;
use crate::structures::space_saving::{self, SpaceSaving};
use crate::workload::zipf::ZipfStream;
use crate::workload::{KeyGen, KeyType};
use datasketches::frequencies::{ErrorType, FrequentItemsSketch};
// lookups only (no answer depends on their iteration order): foldhash, not SipHash
use foldhash::HashMap;

pub struct HeavyHitters;

/// Count-Min rows, and the bytes of one tracked candidate (key, estimate).
const DEPTH: u64 = 4;
const CANDIDATE_BYTES: u64 = 16;
/// Bytes of one frequent-items map slot for u64 items (Option<u64>, u64, u16).
const FI_SLOT_BYTES: u64 = 26;

crate::closed_set! {
    /// The values of `structure`.
    pub enum Structure {
        CountMin = "count_min",
        CountMinConservative = "count_min_conservative",
        FrequentItems = "frequent_items",
        SpaceSaving = "space_saving",
    }
}

crate::params! {
    pub struct P {
        bytes: u64 [bytes] = common::int(1024, 1 << 30, Def::Int(32_768), "the memory budget every structure gets"),
        s: f64 [number] = common::positive(10.0, Def::Float(1.1), "Zipf exponent"),
        n: u64 [count] = common::count(Def::Int(1_000_000), "stream length (updates)"),
        universe: u64 [count] = common::count(Def::Int(1_000_000), "distinct keys the stream draws from"),
        top: u64 [count] = common::int(1, 100_000, Def::Int(100), "heavy hitters reported"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
    }
}

crate::row! {
    pub struct R {
        /// The structure (every trial runs the four on its one stream):
        /// Count-Min with a top list (plain or conservative update),
        /// DataSketches' frequent items, or SpaceSaving.
        structure: String [Key],
        /// The structure's shape in words.
        config: String [Same],
        /// Bytes the structure takes (at most the budget).
        bytes_used: u64 [Same, bytes],
        /// True heavy hitters: keys at least as frequent as the true top-th.
        true_hitters: u64 [count],
        /// Of the true hitters, the share among the reported.
        recall: Proportion [higher, fraction],
        /// Of the reported, the share that are true hitters.
        precision: Proportion [higher, fraction],
        /// Mean |estimate − count|/count over every true hitter, each
        /// through the structure's point estimate (0 for a key it lacks).
        count_error: f64 [relative_error],
        /// The largest such error.
        count_error_max: f64 [relative_error],
        /// The mean over only the true hitters it reported (the old,
        /// flattering reading: a missed key does not count).
        count_error_found: Option<f64> [relative_error],
        /// The largest |estimate − count| over the true hitters, ÷ N.
        abs_error_share: f64 [fraction],
        /// The structure's bound on that error, ÷ N.
        bound_share: f64 [Same, fraction],
        /// Which bound: e/w, 3.5/M or 1/k.
        bound_rule: String [Same],
    }
}

impl Measure for HeavyHitters {
    type P = P;
    type R = R;
    const NAME: &'static str = "heavy_hitters";
    const ABOUT: &'static str = "Count-Min (plain, conservative) with a top list vs frequent items at equal bytes: top-k recall, precision and count error on Zipf streams";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        let need = p.top * CANDIDATE_BYTES + DEPTH * 4 * 16;
        if p.bytes < need || p.bytes < 64 * FI_SLOT_BYTES {
            return Err(crate::error::Error::invalid(
                "bytes",
                format!(
                    "at least {} for top = {}",
                    need.max(64 * FI_SLOT_BYTES),
                    p.top
                ),
            ));
        }
        if p.top >= p.universe {
            return Err(crate::error::Error::invalid(
                "top",
                format!("below universe = {}", p.universe),
            ));
        }
        Ok(())
    }

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let mut stream =
            ZipfStream::new(p.universe, p.s, seeds.derive("stream")).map_err(anyhow::Error::msg)?;
        let mut keys = KeyGen::new(KeyType::U64, seeds.derive("keys"));
        let mut truth = vec![0u64; p.universe as usize];
        let mut ids = Vec::with_capacity(p.n as usize);
        for _ in 0..p.n {
            let id = stream.next_id();
            truth[id as usize] += 1;
            ids.push(key_of(&mut keys, id));
        }
        // the true counts by key, and the count of the true top-th key
        let mut by_key: HashMap<u64, u64> = HashMap::default();
        let mut counts: Vec<u64> = Vec::with_capacity(truth.len());
        for (id, &c) in truth.iter().enumerate() {
            if c > 0 {
                by_key.insert(key_of(&mut keys, id as u64), c);
                counts.push(c);
            }
        }
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let cut = counts.get(p.top as usize - 1).copied().unwrap_or(1).max(1);
        let truth = Truth { by_key, cut };
        Structure::ALL
            .iter()
            .map(|&structure| measure(p, structure, &ids, &truth, seeds))
            .collect()
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // the stream's keys are kept (8 bytes each) for the structures, one
        // structure at a time
        Some(
            Footprint::one(
                p.bytes as f64,
                2.0 * p.n as f64 * Structure::ALL.len() as f64,
            )
            .plus(24.0 * p.universe as f64 + 8.0 * p.n as f64),
        )
    }
}

fn key_of(keys: &mut KeyGen, id: u64) -> u64 {
    u64::from_le_bytes(keys.key(id).try_into().expect("u64 keys are 8 bytes"))
}

/// The stream's true counts by key, and the count of its true top-th key.
struct Truth {
    by_key: HashMap<u64, u64>,
    cut: u64,
}

/// One structure fed the stream `ids` within the budget, and its answers
/// read against the truth.
fn measure(
    p: &P,
    structure: Structure,
    ids: &[u64],
    truth: &Truth,
    seeds: Seeds,
) -> anyhow::Result<R> {
    // each structure: its reported top list, its point estimate of any
    // key, its shape, state bytes and additive bound (÷ N)
    let top = p.top as usize;
    let sorted_top = |mut rows: Vec<(u64, u64)>| {
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        rows.truncate(top);
        rows
    };
    type Estimate<'a> = Box<dyn Fn(u64) -> u64 + 'a>;
    let (reported, estimate, config, bytes_used, bound, rule): (
        Vec<(u64, u64)>,
        Estimate,
        String,
        u64,
        f64,
        &str,
    ) = match structure {
        Structure::FrequentItems => {
            // the largest map whose measured footprint fits the budget
            let mut lg = (p.bytes / FI_SLOT_BYTES).ilog2();
            let fi = loop {
                let mut fi = FrequentItemsSketch::<u64>::new(1 << lg)?;
                ids.iter().for_each(|&k| fi.update(k));
                if fi.estimated_size() as u64 <= p.bytes || lg <= 3 {
                    break fi;
                }
                lg -= 1;
            };
            let rows = fi
                .frequent_items_with_threshold(ErrorType::NoFalseNegatives, 0)
                .iter()
                .map(|r| (*r.item(), r.estimate()))
                .collect();
            let bytes = fi.estimated_size() as u64;
            let eps = fi.epsilon();
            (
                sorted_top(rows),
                Box::new(move |k| fi.estimate(&k)),
                format!("map of 2^{lg} slots"),
                bytes,
                eps,
                "3.5/M (DataSketches)",
            )
        }
        Structure::SpaceSaving => {
            let k = (p.bytes / space_saving::COUNTER_BYTES) as usize;
            let mut ss = SpaceSaving::new(k)?;
            ids.iter().for_each(|&key| ss.insert(key));
            let rows = ss.top(top);
            let bytes = ss.bytes();
            (
                rows,
                Box::new(move |key| ss.estimate(key)),
                format!("{k} counters"),
                bytes,
                space_saving::theory::overestimate_share(k as u64),
                "1/k (SpaceSaving)",
            )
        }
        _ => {
            let w = (p.bytes - p.top * CANDIDATE_BYTES) / (DEPTH * 4);
            let hasher = p.hash_seed.hasher(p.hash, seeds);
            let mut cm = CountMin::<u32, _>::new(w, DEPTH, hasher)?;
            let conservative = structure == Structure::CountMinConservative;
            let mut list = TopList::new(top);
            for &key in ids {
                let b = key.to_le_bytes();
                if conservative {
                    cm.update_conservative(&b, 1);
                } else {
                    cm.update(&b, 1);
                }
                list.offer(key, cm.estimate(&b));
            }
            let rows = sorted_top(list.rows());
            let bytes = cm.bytes() + p.top * CANDIDATE_BYTES;
            (
                rows,
                Box::new(move |key| cm.estimate(&key.to_le_bytes())),
                format!("w = {w}, d = {DEPTH}, top list of {}", p.top),
                bytes,
                std::f64::consts::E / w as f64,
                "e/w (Count-Min, δ = e^−4)",
            )
        }
    };
    let (by_key, cut) = (&truth.by_key, truth.cut);
    let true_hitters = by_key.values().filter(|&&c| c >= cut).count() as u64;
    let found_errors: Vec<f64> = reported
        .iter()
        .filter_map(|(k, e)| {
            let c = *by_key.get(k)?;
            (c >= cut).then(|| (*e as f64 - c as f64).abs() / c as f64)
        })
        .collect();
    let found = found_errors.len() as u64;
    // every true hitter through the structure's own estimate
    let (mut rel, mut abs_max) = (Vec::new(), 0.0f64);
    for (&key, &c) in by_key.iter().filter(|&(_, &c)| c >= cut) {
        let d = (estimate(key) as f64 - c as f64).abs();
        rel.push(d / c as f64);
        abs_max = abs_max.max(d);
    }
    rel.sort_by(f64::total_cmp);
    Ok(R {
        structure: structure.as_str().into(),
        config,
        bytes_used,
        true_hitters,
        recall: Proportion::new(found, true_hitters),
        precision: Proportion::new(found, reported.len() as u64),
        count_error: rel.iter().sum::<f64>() / rel.len().max(1) as f64,
        count_error_max: rel.last().copied().unwrap_or(0.0),
        count_error_found: (!found_errors.is_empty())
            .then(|| found_errors.iter().sum::<f64>() / found as f64),
        abs_error_share: abs_max / p.n as f64,
        bound_share: bound,
        bound_rule: rule.into(),
    })
}
