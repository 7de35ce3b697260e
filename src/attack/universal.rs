//! Universal hashing, and what a constant seed does to it.
//!
//! A family is universal when, for every pair of distinct keys, a function
//! drawn at random from it maps them to one bucket with probability at most
//! 1/m. Carter and Wegman's `((a·x + b) mod p) mod m` (p prime, `a ∈ [1, p)`,
//! `b ∈ [0, p)`) is (Carter & Wegman 1979; CLRS Theorem 11.5);
//! Dietzfelbinger's multiply-shift `(a·x mod 2^w) >> (w − l)` (a odd) is
//! within 2/m. The guarantee is over the draw: once the function is fixed
//! (a constant seed), an attacker finds colliding keys by trying keys, m
//! tries per key on average, and every pair so found collides.

use crate::hashing::{HashStrategy, KeyHasher, Seed, StrategyId};
use rand::{Rng, RngExt};

/// The Mersenne prime 2^61 − 1: Carter–Wegman's modulus for 64-bit keys
/// (keys are drawn below it).
pub const P61: u64 = (1 << 61) - 1;

/// `x mod (2^61 − 1)` for `x < 2^122`, by folding the high bits.
fn mod_p61(x: u128) -> u64 {
    let r = (x as u64 & P61) + (x >> 61) as u64;
    let r = (r & P61) + (r >> 61);
    if r >= P61 { r - P61 } else { r }
}

crate::closed_set! {
    /// The families a study can draw from.
    pub enum Family {
        CarterWegman = "carter_wegman",
        MultiplyShift = "multiply_shift",
        /// XXH3-64 with a 64-bit seed: a seeded hash, not a proven universal family.
        Xxh3 = "xxh3_64",
        /// SipHash-1-3 with a 128-bit key: a keyed PRF.
        Sip13 = "sip13",
    }
}

impl Family {
    /// A function drawn at random from the family, for `m = 2^bits` buckets.
    pub fn draw(self, bits: u32, rng: &mut impl Rng) -> Function {
        let f = match self {
            Family::CarterWegman => Kind::CarterWegman {
                a: rng.random_range(1..P61),
                b: rng.random_range(0..P61),
            },
            Family::MultiplyShift => Kind::MultiplyShift {
                a: rng.random::<u64>() | 1,
            },
            Family::Xxh3 => Kind::Hash(StrategyId::Xxh3_64.build(Seed::fixed(rng.random()))),
            Family::Sip13 => Kind::Hash(StrategyId::Sip13.build(Seed {
                lo: rng.random(),
                hi: rng.random(),
            })),
        };
        Function { f, bits }
    }
}

enum Kind {
    CarterWegman { a: u64, b: u64 },
    MultiplyShift { a: u64 },
    Hash(HashStrategy),
}

/// One drawn function into `2^bits` buckets.
pub struct Function {
    f: Kind,
    bits: u32,
}

impl Function {
    /// A seeded hash into `2^bits` buckets (its low bits).
    pub fn hash(h: HashStrategy, bits: u32) -> Function {
        Function {
            f: Kind::Hash(h),
            bits,
        }
    }

    /// A key of the function's universe (below p for Carter–Wegman).
    pub fn key(&self, rng: &mut impl Rng) -> u64 {
        match self.f {
            Kind::CarterWegman { .. } => rng.random_range(0..P61),
            _ => rng.random(),
        }
    }

    pub fn bucket(&self, x: u64) -> u64 {
        let mask = (1u64 << self.bits) - 1;
        match &self.f {
            Kind::CarterWegman { a, b } => mod_p61(*a as u128 * x as u128 + *b as u128) & mask,
            Kind::MultiplyShift { a } => {
                if self.bits == 0 {
                    0
                } else {
                    a.wrapping_mul(x) >> (64 - self.bits)
                }
            }
            Kind::Hash(h) => h.native(&x.to_le_bytes()) as u64 & mask,
        }
    }
}

/// Pairs of distinct keys crafted to collide under `f`: for each, a random
/// key, then random keys until one shares its bucket. Returns the pairs and
/// the keys tried in the search (about m per pair).
pub fn craft_pairs(f: &Function, pairs: usize, rng: &mut impl Rng) -> (Vec<(u64, u64)>, u64) {
    let mut tries = 0u64;
    let out = (0..pairs)
        .map(|_| {
            let x = f.key(rng);
            let bx = f.bucket(x);
            loop {
                tries += 1;
                let y = f.key(rng);
                if y != x && f.bucket(y) == bx {
                    return (x, y);
                }
            }
        })
        .collect();
    (out, tries)
}

/// The fullest bucket when every key of the universe `0..universe` goes
/// through `f`.
pub fn max_load(f: &Function, universe: u64) -> u64 {
    let mut loads = vec![0u64; 1 << f.bits];
    for x in 0..universe {
        loads[f.bucket(x) as usize] += 1;
    }
    loads.into_iter().max().unwrap_or(0)
}

/// An exhaustive check of universality on a small universe: for every pair
/// of distinct keys of `0..universe`, the share of the `functions` (each
/// mapping a key to one of `m` buckets) under which they collide. Returns
/// (largest share, mean share, number of functions).
pub fn exhaustive(
    universe: usize,
    functions: impl Iterator<Item = Box<dyn Fn(u64) -> u64>>,
    m: usize,
) -> (f64, f64, u64) {
    let mut counts = vec![0u32; universe * universe];
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); m];
    let mut nf = 0u64;
    for f in functions {
        nf += 1;
        buckets.iter_mut().for_each(Vec::clear);
        for x in 0..universe {
            buckets[f(x as u64) as usize].push(x);
        }
        for b in &buckets {
            for (i, &x) in b.iter().enumerate() {
                for &y in &b[i + 1..] {
                    counts[x * universe + y] += 1;
                }
            }
        }
    }
    let (mut max, mut sum, mut pairs) = (0u32, 0u64, 0u64);
    for x in 0..universe {
        for y in x + 1..universe {
            let c = counts[x * universe + y];
            max = max.max(c);
            sum += c as u64;
            pairs += 1;
        }
    }
    let nf_f = nf as f64;
    (max as f64 / nf_f, sum as f64 / pairs as f64 / nf_f, nf)
}

/// The small Carter–Wegman family checked exhaustively: p = 127, m = 8.
pub const CW_SMALL: (u64, usize) = (127, 8);
/// The small multiply-shift family checked exhaustively: w = 8 bits, m = 8.
pub const MS_SMALL: (u32, usize) = (8, 8);

/// Every function of Carter–Wegman with p = 127 into 8 buckets.
pub fn cw_small() -> impl Iterator<Item = Box<dyn Fn(u64) -> u64>> {
    let (p, m) = CW_SMALL;
    (1..p).flat_map(move |a| {
        (0..p).map(move |b| {
            Box::new(move |x: u64| (a * x + b) % p % m as u64) as Box<dyn Fn(u64) -> u64>
        })
    })
}

/// Every function of multiply-shift on 8-bit keys into 8 buckets.
pub fn ms_small() -> impl Iterator<Item = Box<dyn Fn(u64) -> u64>> {
    let (w, m) = MS_SMALL;
    let shift = w - m.trailing_zeros();
    (1..1u64 << w).step_by(2).map(move |a| {
        Box::new(move |x: u64| ((a * x) & ((1 << w) - 1)) >> shift) as Box<dyn Fn(u64) -> u64>
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn mersenne_reduction_matches_the_remainder() {
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(1);
        for _ in 0..10_000 {
            let (a, x, b) = (
                rng.random_range(0..P61),
                rng.random_range(0..P61),
                rng.random_range(0..P61),
            );
            let v = a as u128 * x as u128 + b as u128;
            assert_eq!(mod_p61(v) as u128, v % P61 as u128);
        }
        assert_eq!(mod_p61(P61 as u128), 0);
        assert_eq!(mod_p61((P61 as u128) * (P61 as u128)), 0);
    }

    #[test]
    fn carter_wegman_is_universal_and_multiply_shift_within_two() {
        let (max, mean, nf) = exhaustive(CW_SMALL.0 as usize, cw_small(), CW_SMALL.1);
        assert_eq!(nf, 126 * 127);
        assert!(max <= 1.0 / 8.0 + 1e-12, "{max}");
        assert!(mean > 0.1, "{mean}");
        let (max, _, nf) = exhaustive(256, ms_small(), MS_SMALL.1);
        assert_eq!(nf, 128);
        assert!(max > 1.0 / 8.0 && max <= 2.0 / 8.0, "{max}");
    }

    #[test]
    fn crafted_pairs_collide_under_their_function_only() {
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(2);
        for fam in [Family::CarterWegman, Family::Xxh3] {
            let f = fam.draw(6, &mut rng);
            let (pairs, tries) = craft_pairs(&f, 50, &mut rng);
            assert!(
                pairs
                    .iter()
                    .all(|&(x, y)| x != y && f.bucket(x) == f.bucket(y))
            );
            assert!(tries >= 50);
            // another draw: they collide about 1/64 of the time, not always
            let g = fam.draw(6, &mut rng);
            let hits = pairs
                .iter()
                .filter(|&&(x, y)| g.bucket(x) == g.bucket(y))
                .count();
            assert!(hits < 10, "{hits}");
        }
    }

    #[test]
    fn pigeonhole_fills_some_bucket() {
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(3);
        let f = Family::MultiplyShift.draw(4, &mut rng);
        assert!(max_load(&f, 1000) >= 1000_u64.div_ceil(16));
    }
}
