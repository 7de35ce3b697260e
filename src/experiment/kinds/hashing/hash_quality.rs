//! `hash_quality`: SMHasher-style checks that run in seconds.
//!
//! * `avalanche`: flip each input bit of random keys; the probability each
//!   output bit flips should be ½. Bias = |2p − 1| per (input, output) bit;
//!   reported: the worst and the mean, next to the worst bias a perfect
//!   random function shows with the same samples (the noise floor).
//! * keysets (`sequential`, `high_bits`, `url_prefix`, `words`, `random`):
//!   chi-square uniformity over 2^16 buckets taken from the low 16 bits
//!   (what `h % 65536` uses) and from the top 16 bits of the output (what
//!   multiply-shift reduction uses), as z = (χ² − df)/√(2·df); and
//!   full-width collisions next to n²/2^(w+1).

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED};
use crate::experiment::kinds::footprint::table;
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{KeyHasher, StrategyId};
use crate::stats;
use crate::workload::keysets::{Keyset, KeysetGen};
use rand::RngExt;
use std::collections::HashSet;

pub struct HashQuality;

crate::closed_set! {
    /// The values of `test`.
    pub enum Test {
        Avalanche = "avalanche",
        Sequential = "sequential",
        HighBits = "high_bits",
        UrlPrefix = "url_prefix",
        Words = "words",
        Random = "random",
    }
}

crate::params! {
    pub struct P {
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        test: Test = common::choice(Test::NAMES, Def::Required, "avalanche, or a keyset for bucket uniformity"),
        samples: u64 [count] = common::count(Def::Int(20_000), "avalanche: random base keys"),
        key_bytes: usize [bytes] = common::int(1, 64, Def::Int(8), "avalanche: key length in bytes"),
        n: u64 [count] = common::count(Def::Int(1 << 20), "keyset: keys hashed (the words keyset has 104,334)"),
    }
}

crate::row! {
    pub struct R {
        width: u32 [Same, bits],
        avalanche_worst_bias: Option<f64> [fraction],
        avalanche_mean_bias: Option<f64> [fraction],
        avalanche_noise_floor: Option<f64> [Same, fraction],
        avalanche_cells_over_floor: Option<usize> [count],
        avalanche_matrix: Option<String> [Same],
        keys: Option<u64> [Same, count],
        chi2_low16_z: Option<f64> [sigmas],
        chi2_high16_z: Option<f64> [sigmas],
        chi2_low16_max_bucket: Option<u32> [count],
        chi2_expected_per_bucket: Option<f64> [Same, count],
        collisions: Option<u64> [count],
        collisions_expected: Option<f64> [Same, count],
        verdict: String,
    }
}

const BUCKETS: usize = 1 << 16;

/// The bias below which a perfect random function keeps all `cells` cells
/// with probability 99.9%: each cell's |2p − 1| is ≈ |N(0, 1/samples)|, so the
/// threshold is z/√samples with P(|Z| > z) = 0.001/cells (Bonferroni).
fn noise_floor(cells: usize, samples: u64) -> f64 {
    normal_upper_quantile(0.001 / cells as f64 / 2.0) / (samples as f64).sqrt()
}

/// z with P(Z > z) = q for a standard normal.
fn normal_upper_quantile(q: f64) -> f64 {
    stats::z(1.0 - 2.0 * q)
}

use crate::workload::check::chi2_z;

impl Measure for HashQuality {
    type P = P;
    type R = R;
    const NAME: &'static str = "hash_quality";
    const ABOUT: &'static str =
        "avalanche bias and bucket uniformity (chi-square over 2^16 buckets) on structured keysets";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let h = p.hash_seed.hasher(p.hash, seeds);
        let width = h.width() as usize;
        if p.test == Test::Avalanche {
            let (samples, len) = (p.samples, p.key_bytes);
            let inbits = len * 8;
            let mut counts = vec![0u32; inbits * width];
            let mut r = seeds.rng("avalanche");
            let mut key = vec![0u8; len];
            for _ in 0..samples {
                r.fill(&mut key[..]);
                let h0 = h.native(&key);
                for i in 0..inbits {
                    key[i / 8] ^= 1 << (i % 8);
                    let mut d = h0 ^ h.native(&key);
                    key[i / 8] ^= 1 << (i % 8);
                    while d != 0 {
                        let j = d.trailing_zeros() as usize;
                        counts[i * width + j] += 1;
                        d &= d - 1;
                    }
                }
            }
            let bias: Vec<f64> = counts
                .iter()
                .map(|&c| (2.0 * c as f64 / samples as f64 - 1.0).abs())
                .collect();
            let worst = bias.iter().copied().fold(0.0, f64::max);
            let floor = noise_floor(bias.len(), samples);
            return Ok(R {
                width: width as u32,
                avalanche_worst_bias: Some(worst),
                avalanche_mean_bias: Some(bias.iter().sum::<f64>() / bias.len() as f64),
                avalanche_noise_floor: Some(floor),
                avalanche_cells_over_floor: Some(bias.iter().filter(|&&b| b > floor).count()),
                avalanche_matrix: Some(crate::plot::heatmap::encode(inbits, width, &bias)),
                verdict: if worst <= floor { "pass" } else { "fail" }.into(),
                ..R::default()
            });
        }
        let set = Keyset::from_name(p.test.as_str()).expect("validated keyset");
        let n = p.n.min(set.max_ids());
        let mut g = KeysetGen::new(set, seeds.derive("keys"));
        let (mut low, mut high) = (vec![0u32; BUCKETS], vec![0u32; BUCKETS]);
        let mut seen: HashSet<u128> = HashSet::with_capacity(n as usize);
        let mut collisions = 0u64;
        for id in 0..n {
            let v = h.native(g.key(id));
            low[(v & 0xffff) as usize] += 1;
            high[(v >> (width - 16)) as usize & 0xffff] += 1;
            collisions += !seen.insert(v) as u64;
        }
        let (zl, zh) = (chi2_z(&low, n), chi2_z(&high, n));
        let nf = n as f64;
        let expected = nf * (nf - 1.0) / 2.0 / 2f64.powi(width as i32);
        // |z| <= 4 is consistent with uniform (a 6e-5 two-sided tail per test)
        let ok = zl.abs() <= 4.0
            && zh.abs() <= 4.0
            && (collisions as f64) <= expected + 4.0 * expected.sqrt() + 4.0;
        Ok(R {
            width: width as u32,
            keys: Some(n),
            chi2_low16_z: Some(zl),
            chi2_high16_z: Some(zh),
            chi2_low16_max_bucket: low.iter().copied().max(),
            chi2_expected_per_bucket: Some(nf / BUCKETS as f64),
            collisions: Some(collisions),
            collisions_expected: Some(expected),
            verdict: if ok { "pass" } else { "fail" }.into(),
            ..R::default()
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        Some(if p.test == Test::Avalanche {
            let bits = p.key_bytes as f64 * 8.0;
            Footprint::one(bits * 128.0 * 4.0, p.samples as f64 * (bits + 1.0))
        } else {
            Footprint::one(table(p.n as f64, 16.0), p.n as f64)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_tail_quantiles() {
        // P(Z > 3.0902) = 1e-3, P(Z > 5.1993) = 1e-7
        assert!((normal_upper_quantile(1e-3) - 3.0902).abs() < 0.02);
        assert!((normal_upper_quantile(1e-7) - 5.1993).abs() < 0.01);
    }

    #[test]
    fn chi2_of_uniform_counts() {
        assert!(chi2_z(&[4; 1 << 16], 1 << 18) < -100.0);
    }
}
