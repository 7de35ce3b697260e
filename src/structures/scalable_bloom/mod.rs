//! Scalable Bloom filters (Almeida, Baquero, Preguiça, Hutchison 2007).
//!
//! # Properties
//! * A chain of Bloom filters: filter i holds up to n0·s^i keys at rate
//!   P0·r^i; when the newest is full, a larger, stricter one is added.
//! * A query asks every filter, so the false-positive rate is at most
//!   Σ P0·r^i = P0/(1 − r) however many keys arrive ([`theory::bound`]).
//! * Memory grows with the keys, ~log_s(n/n0) filters; no false negatives.
//!
//! # Usage
//! ```
//! use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId};
//! use sketchlab::structures::scalable_bloom::ScalableBloom;
//!
//! let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
//! let mut f = ScalableBloom::new(1_000, 0.001, 2.0, 0.9, h).unwrap();
//! for i in 0..10_000u32 {
//!     f.insert(&i.to_le_bytes());
//! }
//! assert!(f.filters() >= 4 && f.contains(&7u32.to_le_bytes()));
//! ```
//!
//! # References
//! * P. S. Almeida, C. Baquero, N. Preguiça, D. Hutchison, "Scalable Bloom
//!   Filters", Information Processing Letters 101(6), 2007.

pub mod theory;

use crate::hashing::KeyHasher;
use crate::structures::bloom::BloomFilter;
use crate::structures::{InsertError, ParamError, invalid};

#[derive(Clone, Debug)]
pub struct ScalableBloom<H> {
    stages: Vec<(BloomFilter<H>, u64)>,
    counts: Vec<u64>,
    n0: u64,
    p0: f64,
    growth: f64,
    ratio: f64,
    hasher: H,
}

impl<H: KeyHasher> ScalableBloom<H> {
    /// First stage for `n0` keys at rate `p0`; each next stage `growth`× larger
    /// at `ratio`× the rate.
    pub fn new(n0: u64, p0: f64, growth: f64, ratio: f64, hasher: H) -> Result<Self, ParamError> {
        if n0 == 0 {
            return Err(invalid("initial_capacity", n0, "must be >= 1"));
        }
        if !(p0 > 0.0 && p0 < 1.0) {
            return Err(invalid("p0", p0, "must be in (0, 1)"));
        }
        if !(growth > 1.0 && growth.is_finite()) {
            return Err(invalid("growth", growth, "must be > 1"));
        }
        if !(ratio > 0.0 && ratio < 1.0) {
            return Err(invalid("ratio", ratio, "must be in (0, 1)"));
        }
        let mut f = ScalableBloom {
            stages: Vec::new(),
            counts: Vec::new(),
            n0,
            p0,
            growth,
            ratio,
            hasher,
        };
        f.add_stage()?;
        Ok(f)
    }

    fn add_stage(&mut self) -> Result<(), ParamError> {
        let i = self.stages.len() as i32;
        let cap = (self.n0 as f64 * self.growth.powi(i)).ceil() as u64;
        let p = self.p0 * self.ratio.powi(i);
        self.stages
            .push((BloomFilter::with_rate(cap, p, self.hasher.clone())?, cap));
        self.counts.push(0);
        Ok(())
    }

    pub fn insert(&mut self, key: &[u8]) {
        let last = self.stages.len() - 1;
        if self.counts[last] >= self.stages[last].1 {
            // parameters were validated at construction; a stage cannot fail to build
            self.add_stage().expect("validated stage parameters");
        }
        let last = self.stages.len() - 1;
        self.stages[last].0.insert(key);
        self.counts[last] += 1;
    }

    pub fn contains(&self, key: &[u8]) -> bool {
        // hash once: every stage shares the hasher
        let h = self.hasher.hash128(key);
        self.stages.iter().any(|(f, _)| f.contains_hash(h))
    }

    pub fn filters(&self) -> usize {
        self.stages.len()
    }

    pub fn bytes(&self) -> usize {
        self.stages.iter().map(|(f, _)| f.bytes()).sum()
    }

    /// Each stage's (m, k, keys held).
    pub fn stage_shapes(&self) -> Vec<(u64, u32, u64)> {
        self.stages
            .iter()
            .zip(&self.counts)
            .map(|((f, _), &c)| (f.m(), f.k(), c))
            .collect()
    }

    /// The rate bound P0/(1 − r).
    pub fn bound(&self) -> f64 {
        theory::bound(self.p0, self.ratio)
    }
}

impl<H: KeyHasher> crate::structures::Membership for ScalableBloom<H> {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        ScalableBloom::insert(self, key);
        Ok(())
    }
    fn contains(&self, key: &[u8]) -> bool {
        ScalableBloom::contains(self, key)
    }
    fn fill_ratio(&self) -> f64 {
        let (ones, m) = self.stages.iter().fold((0u64, 0u64), |(o, m), (f, _)| {
            (o + f.bits().count_ones(), m + f.m())
        });
        ones as f64 / m as f64
    }
    fn fill(&self) -> crate::stats::Proportion {
        let (ones, m) = self.stages.iter().fold((0u64, 0u64), |(o, m), (f, _)| {
            (o + f.bits().count_ones(), m + f.m())
        });
        crate::stats::Proportion::new(ones, m)
    }
    fn bytes(&self) -> usize {
        ScalableBloom::bytes(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};

    #[test]
    fn grows_by_stages_and_keeps_members() {
        let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(4));
        let mut f = ScalableBloom::new(100, 0.01, 2.0, 0.5, h.clone()).unwrap();
        for i in 0..700u32 {
            f.insert(&i.to_le_bytes());
        }
        // 100 + 200 + 400 = 700 keys: exactly three stages
        assert_eq!(f.filters(), 3);
        assert_eq!(
            f.stage_shapes().iter().map(|s| s.2).collect::<Vec<_>>(),
            vec![100, 200, 400]
        );
        assert!((0..700u32).all(|i| f.contains(&i.to_le_bytes())));
        assert!((f.bound() - 0.02).abs() < 1e-15);
        for (g, r) in [(1.0, 0.5), (2.0, 1.0), (2.0, 0.0)] {
            assert!(
                ScalableBloom::new(100, 0.01, g, r, h.clone()).is_err(),
                "{g} {r}"
            );
        }
    }
}
