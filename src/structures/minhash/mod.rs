//! MinHash signatures (Broder 1997): the Jaccard similarity of two sets from
//! their hashes' minima, without comparing the sets.
//!
//! # Properties
//! * For one random hash function, P(min h(A) = min h(B)) = J(A, B) exactly
//!   (the minimum of A ∪ B is equally likely to be any of its elements, and
//!   the minima agree iff it lies in A ∩ B), assuming no hash collisions.
//! * [`MinHash`]: k independently seeded hash functions, one minimum each;
//!   the estimate is the share of agreeing minima, standard error
//!   √(J(1 − J)/k).
//! * [`BottomK`]: one hash function, the k smallest values (Broder's
//!   bottom-k, one permutation): J ≈ |S_k(A ∪ B) ∩ S_k(A) ∩ S_k(B)| / k where
//!   S_k is the k smallest; k times cheaper to build, nearly the same error
//!   (sampling without replacement).
//! * Both are mergeable: the signature of A ∪ B is the element-wise minimum
//!   (k-hash) or the k smallest of the union (bottom-k).
//!
//! # Usage
//! ```
//! use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId};
//! use sketchlab::structures::minhash::MinHash;
//! let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7));
//! let (mut a, mut b) = (MinHash::new(256, &h).unwrap(), MinHash::new(256, &h).unwrap());
//! for i in 0..1000u32 { a.insert(&i.to_le_bytes()); }
//! for i in 500..1500u32 { b.insert(&i.to_le_bytes()); }
//! let j = a.jaccard(&b).unwrap(); // exact: 500 / 1500
//! assert!((j - 1.0 / 3.0).abs() < 4.0 * (1.0f64 / 3.0 * 2.0 / 3.0 / 256.0).sqrt());
//! ```
//!
//! # References
//! * A. Z. Broder, "On the resemblance and containment of documents", 1997.
//! * A. Z. Broder, M. Charikar, A. Frieze, M. Mitzenmacher, "Min-wise
//!   independent permutations", STOC 1998.

pub mod theory;

use super::{MergeError, ParamError, invalid};
use crate::hashing::KeyHasher;

/// The 64-bit hash word of a key (the low half of a 128-bit output).
#[inline]
fn word<H: KeyHasher>(h: &H, key: &[u8]) -> u64 {
    h.native(key) as u64
}

/// Signatures of different k cannot be compared or merged.
fn same_k(a: usize, b: usize) -> Result<(), MergeError> {
    if a == b {
        Ok(())
    } else {
        Err(MergeError::Shape(format!("k {a} vs {b}")))
    }
}

/// k minima of k independently seeded hash functions.
#[derive(Clone, Debug)]
pub struct MinHash<H> {
    hashers: Vec<H>,
    mins: Vec<u64>,
}

impl<H: KeyHasher> MinHash<H> {
    /// k ≥ 1 functions derived from `hasher` (`KeyHasher::derive(i)`).
    pub fn new(k: usize, hasher: &H) -> Result<Self, ParamError> {
        if k == 0 {
            return Err(invalid("k", k, "must be at least 1"));
        }
        Ok(MinHash {
            hashers: (0..k as u64).map(|i| hasher.derive(i)).collect(),
            mins: vec![u64::MAX; k],
        })
    }

    pub fn insert(&mut self, key: &[u8]) {
        for (h, m) in self.hashers.iter().zip(self.mins.iter_mut()) {
            *m = (*m).min(word(h, key));
        }
    }

    pub fn signature(&self) -> &[u64] {
        &self.mins
    }

    /// The share of agreeing minima; an error when k differs.
    pub fn jaccard(&self, other: &Self) -> Result<f64, MergeError> {
        same_k(self.mins.len(), other.mins.len())?;
        Ok(self.agreements(other) as f64 / self.mins.len() as f64)
    }

    /// Agreeing minima (the count behind [`MinHash::jaccard`]).
    pub fn agreements(&self, other: &Self) -> usize {
        self.mins
            .iter()
            .zip(&other.mins)
            .filter(|(a, b)| a == b)
            .count()
    }

    /// The signature of the union: element-wise minimum.
    pub fn merge(&mut self, other: &Self) -> Result<(), MergeError> {
        same_k(self.mins.len(), other.mins.len())?;
        for (a, b) in self.mins.iter_mut().zip(&other.mins) {
            *a = (*a).min(*b);
        }
        Ok(())
    }
}

/// The k smallest hash values of one function (bottom-k).
#[derive(Clone, Debug)]
pub struct BottomK<H> {
    k: usize,
    hasher: H,
    /// Sorted ascending, distinct, at most k.
    values: Vec<u64>,
}

impl<H: KeyHasher> BottomK<H> {
    pub fn new(k: usize, hasher: H) -> Result<Self, ParamError> {
        if k == 0 {
            return Err(invalid("k", k, "must be at least 1"));
        }
        Ok(BottomK {
            k,
            hasher,
            values: Vec::with_capacity(k + 1),
        })
    }

    pub fn insert(&mut self, key: &[u8]) {
        let v = word(&self.hasher, key);
        if self.values.len() == self.k && v >= *self.values.last().expect("k ≥ 1") {
            return;
        }
        if let Err(at) = self.values.binary_search(&v) {
            self.values.insert(at, v);
            self.values.truncate(self.k);
        }
    }

    pub fn values(&self) -> &[u64] {
        &self.values
    }

    /// |S_k(A ∪ B) ∩ S_k(A) ∩ S_k(B)| / |S_k(A ∪ B)|.
    pub fn jaccard(&self, other: &Self) -> Result<f64, MergeError> {
        let mut union = self.clone();
        union.merge(other)?;
        if union.values.is_empty() {
            return Ok(1.0);
        }
        let both = union
            .values
            .iter()
            .filter(|v| {
                self.values.binary_search(v).is_ok() && other.values.binary_search(v).is_ok()
            })
            .count();
        Ok(both as f64 / union.values.len() as f64)
    }

    /// The k smallest of the union.
    pub fn merge(&mut self, other: &Self) -> Result<(), MergeError> {
        same_k(self.k, other.k)?;
        let mut all: Vec<u64> = self.values.iter().chain(&other.values).copied().collect();
        all.sort_unstable();
        all.dedup();
        all.truncate(self.k);
        self.values = all;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};

    fn h() -> HashStrategy {
        HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(3))
    }

    #[test]
    fn identical_sets_give_one_and_disjoint_sets_zero() {
        let (mut a, mut b, mut c) = (
            MinHash::new(64, &h()).unwrap(),
            MinHash::new(64, &h()).unwrap(),
            MinHash::new(64, &h()).unwrap(),
        );
        let (mut ba, mut bb, mut bc) = (
            BottomK::new(64, h()).unwrap(),
            BottomK::new(64, h()).unwrap(),
            BottomK::new(64, h()).unwrap(),
        );
        for i in 0..500u32 {
            a.insert(&i.to_le_bytes());
            b.insert(&i.to_le_bytes());
            c.insert(&(i + 10_000).to_le_bytes());
            ba.insert(&i.to_le_bytes());
            bb.insert(&i.to_le_bytes());
            bc.insert(&(i + 10_000).to_le_bytes());
        }
        assert_eq!(a.jaccard(&b).unwrap(), 1.0);
        assert_eq!(a.jaccard(&c).unwrap(), 0.0);
        assert_eq!(ba.jaccard(&bb).unwrap(), 1.0);
        assert_eq!(ba.jaccard(&bc).unwrap(), 0.0);
        assert!(a.jaccard(&MinHash::new(32, &h()).unwrap()).is_err());
        assert!(MinHash::new(0, &h()).is_err() && BottomK::new(0, h()).is_err());
    }

    #[test]
    fn merge_is_the_signature_of_the_union() {
        let (mut a, mut b, mut u) = (
            MinHash::new(32, &h()).unwrap(),
            MinHash::new(32, &h()).unwrap(),
            MinHash::new(32, &h()).unwrap(),
        );
        let (mut ba, mut bb, mut bu) = (
            BottomK::new(32, h()).unwrap(),
            BottomK::new(32, h()).unwrap(),
            BottomK::new(32, h()).unwrap(),
        );
        for i in 0..2_000u32 {
            let k = i.to_le_bytes();
            if i % 3 == 0 {
                a.insert(&k);
                ba.insert(&k);
            } else {
                b.insert(&k);
                bb.insert(&k);
            }
            u.insert(&k);
            bu.insert(&k);
        }
        a.merge(&b).unwrap();
        ba.merge(&bb).unwrap();
        assert_eq!(a.signature(), u.signature());
        assert_eq!(ba.values(), bu.values());
    }
}
