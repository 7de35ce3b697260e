//! `hll_intuition`: the documents' coin and leading-zero arguments, measured.
//!
//! Parts (one per `part` value, each a curve over its own `x`):
//! * `leading_zeros`: x = k; the share of N hashes (the strategy layer's top
//!   64 bits) beginning with at least k zeros, vs 2^−k.
//! * `longest_run`: x = N distinct keys; the longest run of leading zeros
//!   among their hashes (mean over `streams` streams), vs its exact mean Σ_k 1 − (1 − 2^−k)^N and log2 N.
//! * `coin_wait`: x = r; fair-coin flips until the first run of r tails
//!   (the mean over `streams` runs per trial), vs
//!   2^(r+1) − 2 (the essay's "2^12 = 4,096 … how long you wait" is 2^r).
//! * `coin_longest`: x = r; the longest run of tails in 2^r flips (mean over
//!   `streams` sequences), vs its
//!   exact mean (a recursion over run lengths) and r.
//! * `lucky`: x = N; 1 when one element alone holds the maximum (removing it
//!   at least halves the one-register estimate 2^max), vs the exact chance
//!   Σ_k N·2^−(k+1)·(1 − 2^−k)^(N−1).
//! * `twenty_zeros`: x = 20; the share of sets of N = `n` hashes whose
//!   longest run is ≥ 20 (so 2^max reads as a million), vs 1 − (1 − 2^−20)^N;
//!   its shorthand column is 2^20, the estimate such a set gives.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{KeyHasher, StrategyId};
use crate::workload::{KeyGen, KeyType};
use rand::RngExt;

pub struct HllIntuition;

crate::closed_set! {
    /// The values of `part`.
    pub enum Part {
        LeadingZeros = "leading_zeros",
        LongestRun = "longest_run",
        CoinWait = "coin_wait",
        CoinLongest = "coin_longest",
        Lucky = "lucky",
        TwentyZeros = "twenty_zeros",
    }
}

crate::params! {
    pub struct P {
        part: Part = common::choice(Part::NAMES, Def::Required, "which argument"),
        n: u64 [count] = common::count(Def::Int(1_000_000), "hashes per trial (leading_zeros), the largest N (longest_run, lucky), sets per trial (twenty_zeros)"),
        max_x: u64 [count] = common::int(1, 64, Def::Int(24), "the largest k (leading_zeros) or r (coin_wait, coin_longest)"),
        set_size: u64 [count] = common::int(1, 1_000_000, Def::Int(10), "hashes per set (twenty_zeros)"),
        streams: u64 [count] = common::int(1, 1_000_000, Def::Int(50), "independent streams per trial, averaged (longest_run, lucky, coin_wait, coin_longest)"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R {
        /// k, N or r (see the part).
        x: u64 [Key, count],
        measured: f64 [Pitchfork, number],
        /// The exact value of what is measured.
        theory: f64 [Same, number],
        /// The documents' shorthand (2^−k, log2 N, 2^r, r), where it differs.
        shorthand: Option<f64> [Same, number],
    }
}

/// The hash word's leading zeros (the top 64 bits of a 128-bit output).
fn leading_zeros<H: KeyHasher>(h: &H, key: &[u8]) -> u32 {
    let v = h.native(key);
    let w = if h.width() == 128 {
        (v >> 64) as u64
    } else {
        (v as u64) << (64 - h.width())
    };
    w.leading_zeros().min(h.width().min(64))
}

/// E[max of N leading-zero counts], P(count ≥ k) = 2^−k: Σ_k 1 − (1 − 2^−k)^N.
pub fn expected_longest(n: u64) -> f64 {
    (1..=64)
        .map(|k| 1.0 - (1.0 - 2f64.powi(-k)).powf(n as f64))
        .sum()
}

/// P(the maximum of N counts is held by one element alone).
pub fn unique_max(n: u64) -> f64 {
    let nf = n as f64;
    (0..=64)
        .map(|k| nf * 2f64.powi(-(k + 1)) * (1.0 - 2f64.powi(-k)).powf(nf - 1.0))
        .sum()
}

/// E[longest run of tails in `flips` fair flips] = Σ_{l≥1} P(longest ≥ l),
/// with a(n) = P(no run of l tails in n flips) from the first head:
/// a(n) = Σ_{j=1..l} a(n − j)/2^j (a(n) = 1 for n < l), which telescopes
/// to a(n + 1) = a(n) − a(n − l)/2^(l+1). Memoised per `flips`.
pub fn expected_longest_run(flips: usize) -> f64 {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static MEMO: OnceLock<Mutex<HashMap<usize, f64>>> = OnceLock::new();
    let memo = MEMO.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(&v) = memo.lock().expect("memo").get(&flips) {
        return v;
    }
    let mut total = 0.0;
    let mut a = vec![1.0f64; flips + 1];
    for l in 1..=flips {
        a.iter_mut().for_each(|x| *x = 1.0);
        a[l] = 1.0 - 0.5f64.powi(l as i32);
        for n in l + 1..=flips {
            a[n] = a[n - 1] - a[n - 1 - l] * 0.5f64.powi(l as i32 + 1);
        }
        let tail = 1.0 - a[flips];
        total += tail;
        if tail < 1e-17 {
            break;
        }
    }
    memo.lock().expect("memo").insert(flips, total);
    total
}

impl Measure for HllIntuition {
    type P = P;
    type R = R;
    const NAME: &'static str = "hll_intuition";
    const ABOUT: &'static str = "The coin and leading-zero arguments measured: 2^-k, log2 N, waits for runs of tails, one lucky element";
    const MIN_REPLICATES: u32 = 5;

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let h = p.hash_seed.hasher(p.hash, seeds);
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let mut rng = seeds.rng("coin");
        let row = |x, measured, theory, shorthand| R {
            x,
            measured,
            theory,
            shorthand,
        };
        Ok(match p.part {
            Part::LeadingZeros => {
                let mut at_least = vec![0u64; 66];
                for id in 0..p.n {
                    at_least[leading_zeros(&h, keys.key(id)) as usize] += 1;
                }
                // at_least[k] = hashes with exactly k zeros -> suffix sums
                for k in (0..65).rev() {
                    at_least[k] += at_least[k + 1];
                }
                (1..=p.max_x)
                    .map(|k| {
                        let t = 2f64.powi(-(k as i32));
                        row(k, at_least[k as usize] as f64 / p.n as f64, t, None)
                    })
                    .collect()
            }
            Part::LongestRun | Part::Lucky => {
                let checkpoints = super::hll_range::checkpoints(p.n, 3);
                let streams = p.streams;
                // per checkpoint: the summed longest runs and how many streams have a unique maximum
                let mut longest = vec![0u64; checkpoints.len()];
                let mut unique = vec![0u64; checkpoints.len()];
                for s in 0..streams {
                    let (mut top, mut second) = (0u32, 0u32);
                    let mut i = 0u64;
                    for (c, &n) in checkpoints.iter().enumerate() {
                        while i < n {
                            let z = leading_zeros(&h, keys.key(s * p.n + i));
                            if z > top {
                                (top, second) = (z, top);
                            } else if z > second {
                                second = z;
                            }
                            i += 1;
                        }
                        unique[c] += (n == 1 || top > second) as u64;
                        longest[c] += top as u64;
                    }
                }
                checkpoints
                    .iter()
                    .enumerate()
                    .map(|(c, &n)| {
                        if p.part == Part::Lucky {
                            row(n, unique[c] as f64 / streams as f64, unique_max(n), None)
                        } else {
                            let log2 = (n as f64).log2();
                            let mean = longest[c] as f64 / streams as f64;
                            row(n, mean, expected_longest(n), Some(log2))
                        }
                    })
                    .collect()
            }
            Part::CoinWait => (1..=p.max_x)
                .map(|r| {
                    // the mean wait over `streams` independent runs
                    let mut total = 0u64;
                    for _ in 0..p.streams {
                        let (mut flips, mut run) = (0u64, 0u64);
                        while run < r {
                            flips += 1;
                            run = if rng.random_bool(0.5) { run + 1 } else { 0 };
                        }
                        total += flips;
                    }
                    let exact = 2f64.powi(r as i32 + 1) - 2.0;
                    let mean = total as f64 / p.streams as f64;
                    row(r, mean, exact, Some(2f64.powi(r as i32)))
                })
                .collect(),
            Part::CoinLongest => (1..=p.max_x)
                .map(|r| {
                    // the mean longest run over `streams` sequences of 2^r flips
                    let flips = 1usize << r;
                    let mut total = 0u64;
                    for _ in 0..p.streams {
                        let (mut best, mut run) = (0u64, 0u64);
                        for _ in 0..flips {
                            run = if rng.random_bool(0.5) { run + 1 } else { 0 };
                            best = best.max(run);
                        }
                        total += best;
                    }
                    let mean = total as f64 / p.streams as f64;
                    row(r, mean, expected_longest_run(flips), Some(r as f64))
                })
                .collect(),
            Part::TwentyZeros => {
                let mut hits = 0u64;
                let mut id = 0u64;
                for _ in 0..p.n {
                    let mut top = 0;
                    for _ in 0..p.set_size {
                        top = top.max(leading_zeros(&h, keys.key(id)));
                        id += 1;
                    }
                    hits += (top >= 20) as u64;
                }
                let exact = 1.0 - (1.0 - 2f64.powi(-20)).powf(p.set_size as f64);
                // the shorthand: what such a set's 2^max reads as
                vec![row(
                    20,
                    hits as f64 / p.n as f64,
                    exact,
                    Some(2f64.powi(20)),
                )]
            }
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(match p.part {
            Part::LeadingZeros => p.n,
            Part::LongestRun | Part::Lucky => p.streams.saturating_mul(p.n),
            Part::TwentyZeros => p.n.saturating_mul(p.set_size),
            _ => 0, // coin flips: no keys
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        Some(Footprint::one(4096.0, p.n as f64 * p.streams.max(1) as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_formulas() {
        // one count: E[max] = E[count] = Σ 2^−k = 1
        assert!((expected_longest(1) - 1.0).abs() < 1e-12);
        // longest run of tails in 2 flips: 0 (1/4), 1 (1/2), 2 (1/4) -> 1
        assert!((expected_longest_run(2) - 1.0).abs() < 1e-12);
        // 3 flips: 0:1/8, 1:4/8, 2:2/8, 3:1/8 -> 11/8
        assert!((expected_longest_run(3) - 11.0 / 8.0).abs() < 1e-12);
        // the telescoped recursion against brute force over all 2^10 sequences
        let brute: f64 = (0u32..1024)
            .map(|bits| {
                let (mut best, mut run) = (0, 0);
                for i in 0..10 {
                    run = if bits >> i & 1 == 1 { run + 1 } else { 0 };
                    best = best.max(run);
                }
                best as f64 / 1024.0
            })
            .sum();
        assert!((expected_longest_run(10) - brute).abs() < 1e-12);
        assert!((unique_max(1) - 1.0).abs() < 1e-12);
        // two counts: P(tie) = Σ P(L=k)^2 = Σ 4^-(k+1) = 1/3
        assert!((unique_max(2) - 2.0 / 3.0).abs() < 1e-12);
        // the large-N limit oscillates around 1/(2 ln 2) = 0.7213
        assert!((unique_max(1_000_000) - 0.7213).abs() < 0.01);
    }
}
