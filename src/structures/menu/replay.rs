//! A register sketch fed Poisson(n) distinct uniform hash words without
//! drawing them: only the words that can change its state, in the order a
//! stream would bring them, so its path-dependent estimators (HIP, the
//! martingale) see exactly what they would see on the stream.
//!
//! A word falls in one cell (register i, level v) with probability
//! q_v/m, and only the first word of a cell can change a register sketch
//! (a later one repeats what it saw). With the stream Poissonized (its
//! words a Poisson process of rate n over [0, 1]), the cells' counts are
//! independent Poisson(n·q_v/m) (Poisson splitting), and a cell that
//! holds c words first sees one at the minimum of c uniforms,
//! 1 − U^(1/c). Drawing each cell's count and first time, and replaying
//! the first words sorted by time, is the stream's state path exactly;
//! the cells' counts add up to the stream's own distinct count N, which
//! an estimate is compared with (not n, whose Poisson spread of 1/√n
//! would add to the error at large lg_k).
//!
//! Cost: one uniform per cell and a Poisson draw per non-empty cell,
//! about m·(log2(n/m) + 2) of them, whatever n is.

use super::{Counter, Sketch};
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use rand::{Rng, RngExt};
use rand_distr::{Distribution, Poisson};

/// The stream's words that reach the sketch, in stream order, and the
/// stream's distinct count N.
pub struct Replay {
    pub words: Vec<u64>,
    pub distinct: f64,
}

/// A Poisson(λ) draw given that it is at least 1.
fn positive_poisson<R: Rng>(lambda: f64, rng: &mut R) -> f64 {
    if lambda > 0.5 {
        let d = Poisson::new(lambda).expect("λ finite and positive");
        loop {
            let k: f64 = d.sample(rng);
            if k >= 1.0 {
                return k;
            }
        }
    }
    // inversion from k = 1: P(k) = λ^k e^−λ / (k! (1 − e^−λ))
    let u = rng.random::<f64>();
    let mut p = lambda * (-lambda).exp() / -(-lambda).exp_m1();
    let (mut k, mut cdf) = (1.0, p);
    while u > cdf && p > 0.0 {
        k += 1.0;
        p *= lambda / k;
        cdf += p;
    }
    k
}

/// The first word of every cell of 2^p registers × `levels` (level v has
/// probability `levels[v]`, summing to 1) among Poisson(`n`) distinct
/// uniform words, sorted by arrival; `word(i, v)` is a word that lands in
/// register i at level v.
pub fn first_words<R: Rng>(
    p: u32,
    n: f64,
    levels: &[f64],
    word: impl Fn(u64, usize) -> u64,
    rng: &mut R,
) -> Replay {
    let m = 1u64 << p;
    let rate: Vec<f64> = levels.iter().map(|q| n * q / m as f64).collect();
    let empty: Vec<f64> = rate.iter().map(|l| (-l).exp()).collect();
    let (mut arrivals, mut distinct) = (Vec::new(), 0.0);
    for i in 0..m {
        for (v, &lambda) in rate.iter().enumerate() {
            if rng.random::<f64>() < empty[v] {
                continue;
            }
            let c = positive_poisson(lambda, rng);
            distinct += c;
            // the first of c uniform arrival times: 1 − U^(1/c)
            let u = rng.random::<f64>().max(f64::MIN_POSITIVE);
            let first = -(u.ln() / c).exp_m1();
            arrivals.push((first, word(i, v)));
        }
    }
    arrivals.sort_by(|a, b| a.0.total_cmp(&b.0));
    Replay {
        words: arrivals.into_iter().map(|(_, w)| w).collect(),
        distinct,
    }
}

/// sketchlab's HyperLogLog at precision p ([`index_and_rank`]: the index
/// in the low p bits, the rank one more than the trailing zeros of the
/// rest, capped at 65 − p).
///
/// [`index_and_rank`]: crate::structures::hyperloglog::index_and_rank
pub fn hll<R: Rng>(p: u32, n: f64, rng: &mut R) -> Replay {
    let cap = 65 - p as usize;
    let levels: Vec<f64> = (1..=cap)
        .map(|r| 2f64.powi(-(r.min(cap - 1) as i32)))
        .collect();
    first_words(
        p,
        n,
        &levels,
        |i, v| {
            let rank = v + 1;
            if rank < cap {
                i | 1u64 << (p as usize + rank - 1)
            } else {
                i
            }
        },
        rng,
    )
}

/// The `ultraloglog` crate's layout at precision p: the index in the top
/// p bits, the level the leading zeros j of the other q = 64 − p bits
/// (probability 2^−(j+1), and 2^−q for all q zero).
pub fn ultraloglog<R: Rng>(p: u32, n: f64, rng: &mut R) -> Replay {
    let q = 64 - p as usize;
    let levels: Vec<f64> = (0..=q)
        .map(|j| 2f64.powi(-((j + 1).min(q) as i32)))
        .collect();
    first_words(
        p,
        n,
        &levels,
        |i, j| (i << q) | if j < q { 1u64 << (q - 1 - j) } else { 0 },
        rng,
    )
}

impl Sketch {
    /// Whether [`Sketch::replayed`] can feed this sketch: those fed the
    /// study's own hash words (DataSketches hashes the keys itself).
    pub fn replays(self) -> bool {
        matches!(self, Sketch::Hll6 | Sketch::Hll8 | Sketch::UltraLogLog)
    }

    /// The sketch at 2^lg_k after Poisson(`n`) distinct uniform words,
    /// replayed ([`first_words`]), and that stream's distinct count; None
    /// for a sketch that hashes keys itself.
    pub fn replayed<R: Rng>(
        self,
        lg_k: u32,
        n: f64,
        rng: &mut R,
    ) -> Option<anyhow::Result<(Counter<HashStrategy>, f64)>> {
        if !self.replays() {
            return None;
        }
        let hasher = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(0));
        let mut c = match self.build(lg_k, hasher) {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        let r = match c {
            Counter::Ull { .. } => ultraloglog(lg_k, n, rng),
            _ => hll(lg_k, n, rng),
        };
        for &w in &r.words {
            match &mut c {
                Counter::Hll { sketch, .. } => {
                    sketch.insert_word(w);
                }
                Counter::Ull {
                    sketch, martingale, ..
                } => {
                    sketch.add_with_observer(w, Some(martingale));
                }
                _ => unreachable!("replays() admits register sketches only"),
            }
        }
        Some(Ok((c, r.distinct)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structures::Cardinality;
    use crate::structures::hyperloglog::index_and_rank;
    use rand::SeedableRng;

    #[test]
    fn levels_sum_to_one_and_words_land_in_their_cell() {
        let p = 6;
        let cap = 65 - p as usize;
        let total: f64 = (1..=cap).map(|r| 2f64.powi(-(r.min(cap - 1) as i32))).sum();
        assert!((total - 1.0).abs() < 1e-15);
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(1);
        let r = hll(p, 1e6, &mut rng);
        // every register's first word at rank 1 arrives: 64 registers
        let ranks: Vec<(usize, u8)> = r.words.iter().map(|&w| index_and_rank(w, p)).collect();
        assert!(ranks.iter().all(|&(i, k)| i < 64 && (1..=59).contains(&k)));
        assert_eq!(ranks.iter().filter(|&&(_, k)| k == 1).count(), 64);
        assert!((r.distinct / 1e6 - 1.0).abs() < 5e-3, "{}", r.distinct);
        // and the zero-truncated Poisson has its mean λ/(1 − e^−λ)
        for lambda in [1e-9, 0.1, 0.5, 3.0] {
            let k: f64 = (0..200_000)
                .map(|_| positive_poisson(lambda, &mut rng))
                .sum::<f64>()
                / 200_000.0;
            let mean: f64 = lambda / -(-lambda).exp_m1();
            let var = mean * (1.0 + lambda - mean);
            assert!(
                (k - mean).abs() < 5.0 * (var / 2e5).sqrt() + 1e-12,
                "λ = {lambda}: {k} vs {mean}"
            );
        }
    }

    /// Replayed and streamed sketches err alike, path-dependent estimators
    /// included: sketchlab's HLL (HIP, Ertl) and UltraLogLog (martingale,
    /// FGRA) at 2^8 registers and n = 3,000, 600 sketches each way, every
    /// estimator's RSE inside the other's 99.9% chi-square interval range
    /// (the two intervals overlap) and its mean error within 4.5 standard
    /// errors of the difference.
    #[test]
    fn replayed_sketches_err_as_streamed_ones() {
        let (p, n, reps) = (8u32, 3_000u64, 600);
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(9);
        for (s, ests) in [
            (Sketch::Hll6, &["hip", "ertl"][..]),
            (Sketch::UltraLogLog, &["martingale", "fgra"][..]),
        ] {
            let (mut sim, mut real) = (vec![Vec::new(); 2], vec![Vec::new(); 2]);
            for t in 0..reps {
                let (c, d) = s.replayed(p, n as f64, &mut rng).unwrap().unwrap();
                let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(t));
                let mut streamed = s.build(p, h).unwrap();
                for i in 0..n {
                    streamed.insert(&i.to_le_bytes());
                }
                for (k, e) in ests.iter().enumerate() {
                    sim[k].push(c.estimate(e).unwrap() / d - 1.0);
                    real[k].push(streamed.estimate(e).unwrap() / n as f64 - 1.0);
                }
            }
            for (k, e) in ests.iter().enumerate() {
                let ((ma, sa), (mb, sb)) = (
                    crate::stats::mean_sd(&sim[k]),
                    crate::stats::mean_sd(&real[k]),
                );
                let (ia, ib) = (
                    crate::stats::sd_interval(sa, reps as usize, 0.999),
                    crate::stats::sd_interval(sb, reps as usize, 0.999),
                );
                assert!(
                    ia.lo <= ib.hi && ib.lo <= ia.hi,
                    "{} {e}: replayed sd {sa} vs streamed {sb}",
                    s.name()
                );
                let se = ((sa * sa + sb * sb) / reps as f64).sqrt();
                assert!(
                    (ma - mb).abs() < 4.5 * se,
                    "{} {e}: mean {ma} vs {mb}",
                    s.name()
                );
            }
        }
    }
}
