//! HyperLogLog registers (Flajolet, Fusy, Gandouet, Meunier 2007).
//!
//! # Properties
//! * m = 2^p registers; a w-bit hash word gives the register index (its top p
//!   bits) and a rank (leading zeros of the remaining w − p bits, plus one);
//!   each register keeps the largest rank seen.
//! * Duplicates are free: the same key gives the same word.
//! * Estimators read the register histogram ([`estimators`]): raw, the 2007
//!   paper's linear-counting switch, and Ertl's 2017 estimator. [`redis`] is a
//!   Redis-compatible sketch (6-bit packed registers, PFADD/PFCOUNT), checked
//!   against a real redis-server in `tests/redis.rs`.
//!
//! # Usage
//! ```
//! use sketchlab::structures::hyperloglog::Registers;
//! let mut r = Registers::new(14, 64);
//! for i in 0..10_000u64 {
//!     r.insert_word(sketchlab::hashing::splitmix64(i));
//! }
//! let e = r.linear_or_raw();
//! assert!((e / 10_000.0 - 1.0).abs() < 5.0 * 1.04 / 128.0);
//!
//! // the sketch's fast path: XXH3-64 under this process's random key
//! let mut h = sketchlab::structures::hyperloglog::HyperLogLog::with_precision(14).unwrap();
//! for i in 0..10_000u64 {
//!     h.insert(&i.to_le_bytes());
//! }
//! assert!((h.ertl() / 10_000.0 - 1.0).abs() < 5.0 * 1.04 / 128.0);
//! ```
//!
//! # References
//! * P. Flajolet, É. Fusy, O. Gandouet, F. Meunier, "HyperLogLog: the analysis
//!   of a near-optimal cardinality estimation algorithm", AofA 2007.

pub mod estimators;
pub mod hllpp;
pub mod redis;
pub mod simulate;
mod sketch;
pub mod theory;

pub use sketch::{HyperLogLog, P_MAX, Packed6, index_and_rank};

/// Dense registers (one byte each) over `wbits`-bit hash words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registers {
    p: u32,
    wbits: u32,
    reg: Vec<u8>,
}

impl Registers {
    /// `p` index bits (4..=18), words of `wbits` bits (p < wbits <= 64).
    pub fn new(p: u32, wbits: u32) -> Self {
        assert!(
            (4..=18).contains(&p) && p < wbits && wbits <= 64,
            "p = {p}, wbits = {wbits}"
        );
        Registers {
            p,
            wbits,
            reg: vec![0; 1 << p],
        }
    }

    pub fn m(&self) -> usize {
        self.reg.len()
    }

    /// Adds one hash word (its low `wbits` bits).
    #[inline]
    pub fn insert_word(&mut self, w: u64) {
        let rest = self.wbits - self.p;
        let idx = (w >> rest) as usize & (self.reg.len() - 1);
        let tail = if rest == 64 {
            w
        } else {
            w & ((1u64 << rest) - 1)
        };
        let rank = if tail == 0 {
            rest + 1
        } else {
            tail.leading_zeros() - (64 - rest) + 1
        };
        self.reg[idx] = self.reg[idx].max(rank as u8);
    }

    pub fn registers(&self) -> &[u8] {
        &self.reg
    }

    /// hist[k] = registers holding k.
    pub fn histogram(&self) -> Vec<u32> {
        let mut h = vec![0u32; self.wbits as usize - self.p as usize + 2];
        for &r in &self.reg {
            h[r as usize] += 1;
        }
        h
    }

    /// Ertl's improved estimator over these registers.
    pub fn ertl(&self) -> f64 {
        estimators::ertl(&self.histogram(), self.m(), (self.wbits - self.p) as usize)
    }

    /// The raw estimate α_m·m²/Σ2^(−M[i]).
    pub fn raw(&self) -> f64 {
        let sum: f64 = self.reg.iter().map(|&r| 2f64.powi(-(r as i32))).sum();
        theory::raw_estimate(self.m(), sum)
    }

    /// Registers still zero.
    pub fn zeros(&self) -> usize {
        self.reg.iter().filter(|&&r| r == 0).count()
    }

    /// The raw estimate, switched to linear counting m·ln(m/V) when it is
    /// at most 2.5·m and V > 0 registers are zero (Flajolet et al. 2007).
    pub fn linear_or_raw(&self) -> f64 {
        let raw = self.raw();
        let (m, v) = (self.m() as f64, self.zeros());
        if raw <= 2.5 * m && v > 0 {
            theory::linear_counting(self.m(), v)
        } else {
            raw
        }
    }
}

impl super::Mergeable for Registers {
    /// The union: the register-wise maximum.
    fn merge(&mut self, other: &Self) -> Result<(), super::MergeError> {
        if (self.p, self.wbits) != (other.p, other.wbits) {
            return Err(super::MergeError::Shape(format!(
                "p {} vs {}, word bits {} vs {}",
                self.p, other.p, self.wbits, other.wbits
            )));
        }
        for (a, b) in self.reg.iter_mut().zip(&other.reg) {
            *a = (*a).max(*b);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structures::Mergeable;

    #[test]
    fn rank_and_index_from_the_word() {
        let mut r = Registers::new(4, 64);
        // index 0b1010, then 3 zeros and a one: rank 4
        r.insert_word(0b1010 << 60 | 1 << 56);
        assert_eq!(r.registers()[0b1010], 4);
        // an all-zero tail: rank = 60 + 1
        r.insert_word(0b0001 << 60);
        assert_eq!(r.registers()[1], 61);
        // 32-bit words
        let mut s = Registers::new(4, 32);
        s.insert_word(0b0110 << 28 | 1 << 27);
        assert_eq!(s.registers()[0b0110], 1);
    }

    #[test]
    fn merge_is_the_union() {
        let (mut a, mut b, mut u) = (
            Registers::new(8, 64),
            Registers::new(8, 64),
            Registers::new(8, 64),
        );
        for i in 0..5_000u64 {
            let w = crate::hashing::splitmix64(i);
            if i % 3 == 0 {
                a.insert_word(w)
            } else {
                b.insert_word(w)
            }
            u.insert_word(w);
        }
        a.merge(&b).unwrap();
        assert_eq!(a, u);
        assert!(a.merge(&Registers::new(9, 64)).is_err());
    }
}
