//! HyperLogLog++'s empirical bias correction (Heule, Nunkesser, Hall 2013,
//! §5.2–5.3), with bias tables this crate derives itself by simulation
//! ([`simulate_trial`], `sketchlab hllpp-bias`, written to
//! `data/hllpp_bias.csv` with how they were made), never copied.
//!
//! The estimate: E = the raw estimate; E′ = E − bias(E) when E ≤ 5m, where
//! bias(E) is the mean bias of the k = 6 table points whose mean raw estimate
//! is nearest E; if V > 0 registers are zero, H = linear counting m·ln(m/V),
//! else H = E′; the answer is H when H ≤ threshold(p), else E′. The
//! thresholds are the paper's (Table 3 / its appendix), which it chose
//! empirically as where linear counting stops beating the corrected estimate.

use super::{estimators, index_and_rank, theory};
use crate::error::Error;
use crate::hashing::splitmix64;
use std::sync::OnceLock;

/// Nearest neighbours averaged by [`BiasTable::bias`] (the paper's k = 6).
pub const K_NEIGHBOURS: usize = 6;

/// Table points per precision: n = ⌈5m·j/POINTS⌉, j = 1..=POINTS (deduplicated).
pub const POINTS: usize = 200;

/// The paper's linear-counting thresholds for p = 4..=18.
pub fn threshold(p: u32) -> f64 {
    const T: [f64; 15] = [
        10.0, 20.0, 40.0, 80.0, 220.0, 400.0, 900.0, 1800.0, 3100.0, 6500.0, 11500.0, 20000.0,
        50000.0, 120000.0, 350000.0,
    ];
    T[(p - 4) as usize]
}

/// The cardinalities a table holds for precision p.
pub fn checkpoints(p: u32) -> Vec<u64> {
    let five_m = 5u64 << p;
    let mut n: Vec<u64> = (1..=POINTS as u64)
        .map(|j| (five_m * j).div_ceil(POINTS as u64))
        .collect();
    n.dedup();
    n
}

/// One simulated sketch at precision p fed distinct ideal 64-bit hash words
/// (splitmix64 of a counter from the trial's own start, a bijection, so the
/// words are distinct): its raw estimate at each of [`checkpoints`].
pub fn simulate_trial(p: u32, seed: u64, trial: u64) -> Vec<f64> {
    let m = 1usize << p;
    let start = splitmix64(seed ^ splitmix64((p as u64) << 48 ^ trial));
    let mut reg = vec![0u8; m];
    let mut hist = vec![0u32; 66];
    hist[0] = m as u32;
    let mut i = 0u64;
    checkpoints(p)
        .into_iter()
        .map(|n| {
            while i < n {
                let (idx, rank) = index_and_rank(splitmix64(start.wrapping_add(i)), p);
                let old = reg[idx];
                if rank > old {
                    hist[old as usize] -= 1;
                    hist[rank as usize] += 1;
                    reg[idx] = rank;
                }
                i += 1;
            }
            estimators::raw(&hist, m)
        })
        .collect()
}

/// One row of a bias table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BiasPoint {
    pub p: u32,
    pub n: u64,
    /// Mean raw estimate over the trials.
    pub raw_mean: f64,
    /// raw_mean − n.
    pub bias: f64,
}

/// Averages trials (each the output of [`simulate_trial`] for `p`), in order.
pub fn table_points(p: u32, trials: &[Vec<f64>]) -> Vec<BiasPoint> {
    checkpoints(p)
        .into_iter()
        .enumerate()
        .map(|(j, n)| {
            let sum: f64 = trials.iter().map(|t| t[j]).sum();
            let raw_mean = sum / trials.len() as f64;
            BiasPoint {
                p,
                n,
                raw_mean,
                bias: raw_mean - n as f64,
            }
        })
        .collect()
}

/// The CSV a table is stored as: `#` lines saying how it was made, then
/// `p,n,raw_mean,bias`.
pub fn to_csv(points: &[BiasPoint], provenance: &[String]) -> String {
    let mut s = String::new();
    for line in provenance {
        s.push_str(&format!("# {line}\n"));
    }
    s.push_str("p,n,raw_mean,bias\n");
    for b in points {
        s.push_str(&format!("{},{},{},{}\n", b.p, b.n, b.raw_mean, b.bias));
    }
    s
}

/// Bias tables for every precision, each sorted by mean raw estimate.
#[derive(Clone, Debug)]
pub struct BiasTable {
    by_p: Vec<Vec<(f64, f64)>>,
}

impl BiasTable {
    /// Parses [`to_csv`]'s format; every p in 4..=18 must be present.
    pub fn parse(text: &str) -> crate::error::Result<Self> {
        let mut by_p: Vec<Vec<(f64, f64)>> = vec![Vec::new(); 15];
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        if lines.next() != Some("p,n,raw_mean,bias") {
            return Err(Error::input("bias table: missing header p,n,raw_mean,bias"));
        }
        for (i, line) in lines.enumerate() {
            let f: Vec<&str> = line.split(',').collect();
            let bad = || Error::input(format!("bias table line {}: {line:?}", i + 2));
            if f.len() != 4 {
                return Err(bad());
            }
            let p: u32 = f[0].parse().map_err(|_| bad())?;
            let raw: f64 = f[2].parse().map_err(|_| bad())?;
            let bias: f64 = f[3].parse().map_err(|_| bad())?;
            if !(4..=18).contains(&p) {
                return Err(bad());
            }
            by_p[(p - 4) as usize].push((raw, bias));
        }
        for (i, v) in by_p.iter_mut().enumerate() {
            if v.len() < K_NEIGHBOURS {
                return Err(Error::input(format!(
                    "bias table: p = {} has {} points",
                    i + 4,
                    v.len()
                )));
            }
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        Ok(BiasTable { by_p })
    }

    /// The table committed in `data/hllpp_bias.csv`.
    pub fn builtin() -> &'static BiasTable {
        static T: OnceLock<BiasTable> = OnceLock::new();
        T.get_or_init(|| {
            BiasTable::parse(include_str!("../../../data/hllpp_bias.csv"))
                .expect("data/hllpp_bias.csv is well formed (tested)")
        })
    }

    /// The mean bias of the k table points whose raw estimate is nearest `raw`.
    pub fn bias(&self, p: u32, raw: f64) -> f64 {
        let t = &self.by_p[(p - 4) as usize];
        // the k nearest form a window of the sorted points around `raw`
        let at = t.partition_point(|&(r, _)| r < raw);
        let (mut lo, mut hi) = (at, at);
        while hi - lo < K_NEIGHBOURS {
            let take_lo = match (lo > 0, hi < t.len()) {
                (true, true) => raw - t[lo - 1].0 <= t[hi].0 - raw,
                (l, _) => l,
            };
            if take_lo { lo -= 1 } else { hi += 1 }
        }
        t[lo..hi].iter().map(|&(_, b)| b).sum::<f64>() / K_NEIGHBOURS as f64
    }
}

/// The HyperLogLog++ estimate from the register histogram at precision p.
pub fn estimate(hist: &[u32], p: u32, table: &BiasTable) -> f64 {
    let m = 1usize << p;
    let e = estimators::raw(hist, m);
    let corrected = if e <= 5.0 * m as f64 {
        e - table.bias(p, e)
    } else {
        e
    };
    let v = hist.first().copied().unwrap_or(0) as usize;
    let h = if v > 0 {
        theory::linear_counting(m, v)
    } else {
        corrected
    };
    if h <= threshold(p) { h } else { corrected }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_neighbours_window() {
        let mut csv = String::from("p,n,raw_mean,bias\n");
        for p in 4..=18 {
            for j in 0..10 {
                csv.push_str(&format!("{p},{j},{},{}\n", j as f64 * 10.0, j as f64));
            }
        }
        let t = BiasTable::parse(&csv).unwrap();
        // nearest six to 1.0: raws 0,10,20,30,40,50 -> biases 0..5
        assert_eq!(t.bias(4, 1.0), 2.5);
        // nearest six to 1000: the last six, biases 4..9
        assert_eq!(t.bias(9, 1000.0), 6.5);
        // nearest six to 44: 20,30,40,50,60,70 -> 2..7 (tie 20 vs 70 broken low)
        assert_eq!(t.bias(18, 44.0), 4.5);
        assert!(BiasTable::parse("p,n,raw_mean,bias\n4,1,1,1\n").is_err());
    }

    #[test]
    fn the_committed_table_is_what_the_command_makes() {
        // regenerate p = 4..=9 with the committed provenance and compare the rows
        let text = include_str!("../../../data/hllpp_bias.csv");
        let get = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("# {key}: ")))
                .unwrap_or_else(|| panic!("provenance line {key}"))
                .parse::<u64>()
                .unwrap()
        };
        let (trials, seed) = (get("trials"), get("seed"));
        for p in 4..=9 {
            let runs: Vec<Vec<f64>> = (0..trials).map(|t| simulate_trial(p, seed, t)).collect();
            let rows = to_csv(&table_points(p, &runs), &[]);
            for line in rows.lines().skip(1) {
                assert!(
                    text.lines().any(|l| l == line),
                    "p = {p}: {line} is not in data/hllpp_bias.csv"
                );
            }
        }
        BiasTable::builtin();
    }

    #[test]
    fn correction_removes_the_raw_estimators_small_range_bias() {
        // p = 8, n = 1.5m: raw overestimates by several percent; hllpp is
        // unbiased to within 4 standard errors of the mean over 400 sketches
        let (p, n) = (8u32, 384u64);
        let m = 1usize << p;
        let (mut raw, mut pp) = (Vec::new(), Vec::new());
        for t in 0..400u64 {
            let start = splitmix64(0xfeed ^ t);
            let mut hist = vec![0u32; 66];
            let mut reg = vec![0u8; m];
            hist[0] = m as u32;
            for i in 0..n {
                let (idx, rank) = index_and_rank(splitmix64(start.wrapping_add(i)), p);
                if rank > reg[idx] {
                    hist[reg[idx] as usize] -= 1;
                    hist[rank as usize] += 1;
                    reg[idx] = rank;
                }
            }
            raw.push(estimators::raw(&hist, m) / n as f64 - 1.0);
            pp.push(estimate(&hist, p, BiasTable::builtin()) / n as f64 - 1.0);
        }
        let (mr, _) = crate::stats::mean_sd(&raw);
        let (mp, sp) = crate::stats::mean_sd(&pp);
        assert!(mr > 0.03, "raw bias at 1.5m: {mr}");
        assert!(mp.abs() < 4.0 * sp / 20.0, "hllpp bias {mp} (sd {sp})");
    }
}
