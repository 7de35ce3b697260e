//! Zipf-distributed streams: update i names key id r − 1 where r ~ Zipf(n, s)
//! (P(rank r) ∝ r^−s over 1..=n, `rand_distr`'s rejection sampler), seeded
//! from the trial, so a stream is a pure function of (n, s, seed). Ranks are
//! ids: id 0 is the heaviest key. Pair with [`super::KeyGen`] for the bytes.

use crate::error::Error;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand_distr::{Distribution, Zipf};

pub struct ZipfStream {
    dist: Zipf<f64>,
    rng: Xoshiro256PlusPlus,
}

impl ZipfStream {
    /// `n` ≥ 1 keys, exponent `s` > 0 (finite).
    pub fn new(n: u64, s: f64, seed: u64) -> Result<Self, Error> {
        if n == 0 {
            return Err(Error::input("zipf: n must be at least 1"));
        }
        if !(s > 0.0 && s.is_finite()) {
            return Err(Error::input(format!(
                "zipf: s = {s} must be a finite number > 0"
            )));
        }
        let dist = Zipf::new(n as f64, s).map_err(|e| Error::input(format!("zipf: {e}")))?;
        Ok(ZipfStream {
            dist,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        })
    }

    /// The next key id, in 0..n.
    #[inline]
    pub fn next_id(&mut self) -> u64 {
        self.dist.sample(&mut self.rng) as u64 - 1
    }
}

/// P(rank r) for Zipf(n, s): r^−s / H(n, s), with the generalised harmonic
/// number summed exactly.
pub fn probability(r: u64, n: u64, s: f64) -> f64 {
    let h: f64 = (1..=n).map(|k| (k as f64).powf(-s)).sum();
    (r as f64).powf(-s) / h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frequencies_follow_the_law() {
        let (n, s, draws) = (1000u64, 1.1, 200_000u64);
        let mut z = ZipfStream::new(n, s, 7).unwrap();
        let mut counts = vec![0u64; n as usize];
        for _ in 0..draws {
            counts[z.next_id() as usize] += 1;
        }
        for r in [1u64, 2, 10, 100] {
            let p = probability(r, n, s);
            let got = counts[r as usize - 1] as f64 / draws as f64;
            // 5 binomial standard errors
            let se = (p * (1.0 - p) / draws as f64).sqrt();
            assert!((got - p).abs() < 5.0 * se, "rank {r}: {got} vs {p}");
        }
        assert!(ZipfStream::new(10, 0.0, 1).is_err());
        assert!(ZipfStream::new(10, f64::NAN, 1).is_err());
        assert!(ZipfStream::new(0, 1.0, 1).is_err());
    }
}
