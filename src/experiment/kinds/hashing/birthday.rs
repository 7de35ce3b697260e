//! `birthday`: keys drawn until the first collision of a hash truncated to
//! `bits`, repeated over independent key sets, next to the birthday bound.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::kinds::footprint::table;
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{KeyHasher, StrategyId};
use crate::stats::{self, Estimate, Proportion};
use crate::structures::birthday as bd;
use crate::table::Interval;
use crate::workload::{KeyGen, KeyType};

pub struct Birthday;

crate::params! {
    pub struct P {
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        bits: u32 [bits] = common::int(8, 40, Def::Int(32), "keep the low `bits` bits of the hash"),
        searches: u64 [count] = common::count(Def::Int(200), "independent key sets, each drawn until its first collision"),
        keys: KeyType = KEYS,
    }
}

/// P(collision) is reported at these multiples of √N (the row's `p_at_*` fields).
pub(crate) const AT: [(&str, f64); 7] = [
    ("0_25", 0.25),
    ("0_5", 0.5),
    ("1", 1.0),
    ("1_177", 1.177_410_022_515_474_6),
    ("1_5", 1.5),
    ("2", 2.0),
    ("3", 3.0),
];

crate::row! {
    pub struct R {
        n_values: f64 [Same, count],
        /// Median keys at the first collision, with its order-statistic interval.
        first_collision_median: Estimate [Median, count],
        median_theory: f64 [Same, count],
        /// Mean, with its Student-t interval.
        first_collision_mean: Interval [count],
        mean_theory: f64 [Same, count],
        log2_median: Estimate [Median, bits],
        half_bits: f64 [Same, bits],
        tb_of_1mb_files_at_median: Estimate [Median, terabytes],
        p_at_0_25: Proportion [fraction],
        p_at_0_25_theory: f64 [Same, fraction],
        p_at_0_5: Proportion [fraction],
        p_at_0_5_theory: f64 [Same, fraction],
        p_at_1: Proportion [fraction],
        p_at_1_theory: f64 [Same, fraction],
        p_at_1_177: Proportion [fraction],
        p_at_1_177_theory: f64 [Same, fraction],
        p_at_1_5: Proportion [fraction],
        p_at_1_5_theory: f64 [Same, fraction],
        p_at_2: Proportion [fraction],
        p_at_2_theory: f64 [Same, fraction],
        p_at_3: Proportion [fraction],
        p_at_3_theory: f64 [Same, fraction],
        pairs_at_median: f64 [count],
        searches_done: usize [Same, count],
        keys_hashed: u64 [Sum, count],
        width: u32 [Same, bits],
    }
}

impl Measure for Birthday {
    type P = P;
    type R = R;
    const NAME: &'static str = "birthday";
    const ABOUT: &'static str =
        "keys until the first collision of a hash truncated to n bits, vs the birthday bound";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let h = p.hash_seed.hasher(p.hash, seeds);
        let bits = p.bits;
        let mask: u128 = (1u128 << bits) - 1;
        let n = 2f64.powi(bits as i32);
        let mut counts: Vec<u64> = Vec::with_capacity(p.searches as usize);
        // membership only (its hasher changes no answer): foldhash, not SipHash
        let mut seen: foldhash::HashSet<u64> = foldhash::HashSet::with_capacity_and_hasher(
            (4.0 * n.sqrt()) as usize,
            Default::default(),
        );
        let mut hashed = 0u64;
        for s in 0..p.searches {
            let mut keys = KeyGen::new(p.keys, seeds.derive_nth("keys", s));
            seen.clear();
            let mut id = 0u64;
            loop {
                id += 1;
                // ids are distinct, so keys are distinct: a repeat is a hash collision
                if !seen.insert((h.native(keys.key(id)) & mask) as u64) {
                    break;
                }
            }
            hashed += id;
            counts.push(id);
        }
        counts.sort_unstable();
        let sorted: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
        let median = Estimate::median(&sorted);
        let mean = stats::mean_interval(&sorted, stats::PLOT_CONFIDENCE);
        // a search that stopped at c keys has a collision among the first `at` keys iff c <= at
        let at = |q: f64| {
            let hit = counts.partition_point(|&c| (c as f64) <= q * n.sqrt()) as u64;
            (
                Proportion::new(hit, counts.len() as u64),
                bd::p_collision_approx(q * n.sqrt(), n),
            )
        };
        let [a0, a1, a2, a3, a4, a5, a6] = AT.map(|(_, q)| at(q));
        let m = median.value;
        Ok(R {
            n_values: n,
            first_collision_median: median,
            median_theory: bd::median_first_collision(n),
            first_collision_mean: mean,
            mean_theory: bd::mean_first_collision(n),
            log2_median: median.map(f64::log2),
            half_bits: bits as f64 / 2.0,
            tb_of_1mb_files_at_median: median.map(|x| x * 1e-6),
            p_at_0_25: a0.0,
            p_at_0_25_theory: a0.1,
            p_at_0_5: a1.0,
            p_at_0_5_theory: a1.1,
            p_at_1: a2.0,
            p_at_1_theory: a2.1,
            p_at_1_177: a3.0,
            p_at_1_177_theory: a3.1,
            p_at_1_5: a4.0,
            p_at_1_5_theory: a4.1,
            p_at_2: a5.0,
            p_at_2_theory: a5.1,
            p_at_3: a6.0,
            p_at_3_theory: a6.1,
            pairs_at_median: m * (m - 1.0) / 2.0,
            searches_done: counts.len(),
            keys_hashed: hashed,
            width: h.width(),
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        // a collision is certain within 2^bits + 1 keys (ids start at 1)
        Some((1u64 << p.bits) + 2)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let expected = (2f64.powi(p.bits as i32) * std::f64::consts::FRAC_PI_2).sqrt();
        Some(Footprint::one(
            table(4.0 * 2f64.powf(p.bits as f64 / 2.0), 8.0),
            p.searches as f64 * expected,
        ))
    }
}
