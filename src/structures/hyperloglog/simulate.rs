//! Exact-in-distribution HyperLogLog registers for cardinalities no stream
//! can reach (10^12 … 2^64): what a sketch at precision p holds after `d`
//! distinct uniform 64-bit hash words, drawn without inserting them.
//!
//! With Redis's layout (index = low p bits, rank = trailing zeros of the other
//! 64 − p bits plus one, capped at 65 − p), the words per register are
//! Multinomial(d; 1/m, …) — drawn as successive binomials — and the maximum
//! rank of c words has P(M ≤ k) = (1 − 2^−k)^c for k < 65 − p, so
//! M = ⌈−log2(1 − U^(1/c))⌉ for a uniform U, clamped to the cap.
//!
//! n distinct keys through a 64-bit hash give fewer distinct words:
//! E[d] = 2^64·(1 − e^(−n/2^64)) ([`expected_distinct_words`]); that loss is
//! what limits "any cardinality up to about 2^64", not the registers.

use rand::{Rng, RngExt};
use rand_distr::{Binomial, Distribution};

/// The register histogram (hist[k] = registers holding k) after `d` distinct
/// uniform words at precision p.
pub fn histogram_after<R: Rng>(p: u32, d: u64, rng: &mut R) -> Vec<u32> {
    let m = 1u64 << p;
    let cap = 65 - p;
    let mut hist = vec![0u32; 66];
    let mut left = d;
    for i in 0..m {
        let c = if i + 1 == m {
            left
        } else if left == 0 {
            0
        } else {
            Binomial::new(left, 1.0 / (m - i) as f64)
                .expect("probability in (0, 1]")
                .sample(rng)
        };
        left -= c;
        let rank = if c == 0 {
            0
        } else {
            let u: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
            // 1 − U^(1/c), computed without cancellation
            let tail = -(u.ln() / c as f64).exp_m1();
            ((-tail.log2()).ceil().max(1.0) as u32).min(cap)
        };
        hist[rank as usize] += 1;
    }
    hist
}

/// E[distinct 64-bit words] for n distinct keys under a uniform hash.
pub fn expected_distinct_words(n: f64) -> f64 {
    let space = 2f64.powi(64);
    -space * (-n / space).exp_m1()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::splitmix64;
    use crate::structures::hyperloglog::{estimators, index_and_rank};

    #[test]
    fn simulated_registers_match_inserted_ones_in_distribution() {
        // p = 6, d = 2,000: the mean histogram over 2,000 simulated sketches
        // against 2,000 sketches fed real distinct words, bin by bin within
        // 5 standard errors of the difference
        let (p, d, trials) = (6u32, 2_000u64, 2_000usize);
        let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(3);
        let (mut sim, mut real): (Vec<Vec<f64>>, Vec<Vec<f64>>) = (Vec::new(), Vec::new());
        for t in 0..trials {
            sim.push(
                histogram_after(p, d, &mut rng)
                    .iter()
                    .map(|&c| c as f64)
                    .collect(),
            );
            let mut reg = vec![0u8; 1 << p];
            for i in 0..d {
                let (idx, r) = index_and_rank(splitmix64((t as u64) << 32 | i), p);
                reg[idx] = reg[idx].max(r);
            }
            let mut h = vec![0f64; 66];
            reg.iter().for_each(|&r| h[r as usize] += 1.0);
            real.push(h);
        }
        for k in 0..66 {
            let a: Vec<f64> = sim.iter().map(|h| h[k]).collect();
            let b: Vec<f64> = real.iter().map(|h| h[k]).collect();
            let ((ma, sa), (mb, sb)) = (crate::stats::mean_sd(&a), crate::stats::mean_sd(&b));
            let se = ((sa * sa + sb * sb) / trials as f64).sqrt();
            assert!(
                (ma - mb).abs() <= 5.0 * se + 1e-9,
                "rank {k}: {ma} vs {mb} (se {se})"
            );
        }
        // and the estimate of a simulated sketch at n = 10^15 is near it
        let h = histogram_after(14, 1_000_000_000_000_000, &mut rng);
        let e = estimators::ertl(&h, 1 << 14, 50);
        assert!((e / 1e15 - 1.0).abs() < 5.0 * 0.0081, "{e}");
        assert_eq!(h.iter().sum::<u32>(), 1 << 14);
    }

    #[test]
    fn collisions_of_a_64_bit_hash() {
        assert!((expected_distinct_words(1e6) / 1e6 - 1.0).abs() < 1e-12);
        let at_2_64 = expected_distinct_words(2f64.powi(64)) / 2f64.powi(64);
        assert!((at_2_64 - (1.0 - (-1f64).exp())).abs() < 1e-12);
    }
}
