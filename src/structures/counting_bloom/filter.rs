use crate::hashing::KeyHasher;
use crate::hashing::double::{MAX_SLOTS, Scheme};
use crate::structures::bloom::theory as bloom_theory;
use crate::structures::{DeleteError, InsertError, ParamError, invalid};

crate::closed_set! {
    /// What a decrement does to a counter that has saturated.
    pub enum Overflow {
        /// Decrement it like any other (the chapter: "thereafter decrements can
        /// take it below its true value").
        Decrement = "decrement",
        /// Leave it at the maximum forever (no false negatives; it never empties).
        Sticky = "sticky",
    }
}

/// m counters of `width` bits (4: two per byte; 8: one per byte), saturating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counters {
    data: Vec<u8>,
    len: u64,
    width: u32,
}

impl Counters {
    pub fn new(len: u64, width: u32) -> Result<Self, ParamError> {
        if width != 4 && width != 8 {
            return Err(invalid("counter_bits", width, "must be 4 or 8"));
        }
        let bytes = if width == 4 { len.div_ceil(2) } else { len };
        Ok(Counters {
            data: vec![0; bytes as usize],
            len,
            width,
        })
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The largest value a counter holds: 15 or 255.
    pub fn max(&self) -> u8 {
        if self.width == 4 { 15 } else { 255 }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    #[inline]
    pub fn get(&self, i: u64) -> u8 {
        if self.width == 8 {
            self.data[i as usize]
        } else {
            (self.data[(i >> 1) as usize] >> ((i & 1) * 4)) & 0xf
        }
    }

    #[inline]
    fn set(&mut self, i: u64, v: u8) {
        if self.width == 8 {
            self.data[i as usize] = v;
        } else {
            let b = &mut self.data[(i >> 1) as usize];
            let shift = (i & 1) * 4;
            *b = (*b & !(0xf << shift)) | ((v & 0xf) << shift);
        }
    }

    /// Adds one unless saturated; returns whether it was already at the maximum.
    #[inline]
    pub fn increment(&mut self, i: u64) -> bool {
        let v = self.get(i);
        if v == self.max() {
            return true;
        }
        self.set(i, v + 1);
        false
    }

    /// Subtracts one from a non-zero counter (a saturated one only under
    /// `Overflow::Decrement`).
    #[inline]
    pub fn decrement(&mut self, i: u64, policy: Overflow) {
        let v = self.get(i);
        if v == 0 || (v == self.max() && policy == Overflow::Sticky) {
            return;
        }
        self.set(i, v - 1);
    }

    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    /// Counters at the maximum.
    pub fn saturated(&self) -> u64 {
        (0..self.len).filter(|&i| self.get(i) == self.max()).count() as u64
    }

    pub fn nonzero(&self) -> u64 {
        (0..self.len).filter(|&i| self.get(i) > 0).count() as u64
    }

    /// Every counter, in order (for worked examples and tests).
    pub fn values(&self) -> Vec<u8> {
        (0..self.len).map(|i| self.get(i)).collect()
    }
}

/// A counting Bloom filter: m saturating counters, k probes by double hashing.
#[derive(Clone, Debug)]
pub struct CountingBloom<H> {
    counters: Counters,
    k: u32,
    hasher: H,
    overflow: Overflow,
    scheme: Scheme,
    /// Increments that found their counter already saturated.
    overflow_events: u64,
}

impl<H: KeyHasher> CountingBloom<H> {
    pub fn new(
        m: u64,
        k: u32,
        counter_bits: u32,
        overflow: Overflow,
        hasher: H,
    ) -> Result<Self, ParamError> {
        if m == 0 || m > MAX_SLOTS {
            return Err(invalid("m", m, "must be in 1..=2^63"));
        }
        if k == 0 {
            return Err(invalid("k", k, "must be >= 1"));
        }
        Ok(CountingBloom {
            counters: Counters::new(m, counter_bits)?,
            k,
            hasher,
            overflow,
            scheme: Scheme::KirschMitzenmacher,
            overflow_events: 0,
        })
    }

    /// Sized for `n` keys at rate `p` by the chapter's formulas (the same m and
    /// k as [`crate::structures::bloom::BloomFilter::with_rate`]).
    pub fn with_rate(
        n: u64,
        p: f64,
        counter_bits: u32,
        overflow: Overflow,
        hasher: H,
    ) -> Result<Self, ParamError> {
        if n == 0 {
            return Err(invalid("n", n, "must be >= 1"));
        }
        if !(p > 0.0 && p < 1.0) {
            return Err(invalid("p", p, "must be in (0, 1)"));
        }
        let m = bloom_theory::optimal_m(n, p);
        Self::new(
            m,
            bloom_theory::optimal_k_int(m, n),
            counter_bits,
            overflow,
            hasher,
        )
    }

    pub fn m(&self) -> u64 {
        self.counters.len()
    }

    pub fn k(&self) -> u32 {
        self.k
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    fn probes(&self, key: &[u8]) -> impl Iterator<Item = u64> + use<H> {
        let (h1, h2) = self.hasher.hash128(key);
        self.scheme.probes(h1, h2, self.k, self.counters.len())
    }

    pub fn insert(&mut self, key: &[u8]) {
        for i in self.probes(key) {
            if self.counters.increment(i) {
                self.overflow_events += 1;
            }
        }
    }

    pub fn contains(&self, key: &[u8]) -> bool {
        self.probes(key).all(|i| self.counters.get(i) > 0)
    }

    /// Deletes a key: refused (and nothing changes) when a probed counter is
    /// zero, since then the key is certainly absent. A key that was never
    /// inserted but is a false positive passes this check and corrupts the
    /// filter: the caller's contract is to delete only what it inserted.
    pub fn remove(&mut self, key: &[u8]) -> Result<(), DeleteError> {
        if !self.contains(key) {
            return Err(DeleteError::NotPresent);
        }
        self.remove_unchecked(key);
        Ok(())
    }

    /// Decrements every non-zero probed counter of `key`, present or not: what a
    /// filter without the membership check does with a bogus delete.
    pub fn remove_unchecked(&mut self, key: &[u8]) {
        for i in self.probes(key) {
            self.counters.decrement(i, self.overflow);
        }
    }

    /// Counters at their maximum now.
    pub fn saturated_counters(&self) -> u64 {
        self.counters.saturated()
    }

    /// Increments that were lost to saturation since the filter was built.
    pub fn overflow_events(&self) -> u64 {
        self.overflow_events
    }

    pub fn fill_ratio(&self) -> f64 {
        self.counters.nonzero() as f64 / self.m() as f64
    }

    pub fn bytes(&self) -> usize {
        self.counters.bytes()
    }
}

impl<H: KeyHasher> crate::structures::Membership for CountingBloom<H> {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        CountingBloom::insert(self, key);
        Ok(())
    }
    fn contains(&self, key: &[u8]) -> bool {
        CountingBloom::contains(self, key)
    }
    fn fill_ratio(&self) -> f64 {
        CountingBloom::fill_ratio(self)
    }
    fn fill(&self) -> crate::stats::Proportion {
        crate::stats::Proportion::new(self.counters.nonzero(), self.m())
    }
    fn bytes(&self) -> usize {
        CountingBloom::bytes(self)
    }
}

impl<H: KeyHasher> crate::structures::Deletion for CountingBloom<H> {
    fn remove(&mut self, key: &[u8]) -> Result<(), DeleteError> {
        CountingBloom::remove(self, key)
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
    fn four_bit_counters_pack_two_per_byte_and_saturate() {
        let mut c = Counters::new(5, 4).unwrap();
        assert_eq!(c.bytes(), 3);
        for _ in 0..20 {
            c.increment(1);
        }
        assert_eq!(
            c.values(),
            vec![0, 15, 0, 0, 0],
            "saturates at 15, neighbour untouched"
        );
        c.increment(0);
        assert_eq!(c.get(0), 1);
        c.decrement(1, Overflow::Sticky);
        assert_eq!(c.get(1), 15);
        c.decrement(1, Overflow::Decrement);
        assert_eq!(c.get(1), 14);
        c.decrement(4, Overflow::Decrement);
        assert_eq!(c.get(4), 0, "never below zero");
        assert!(Counters::new(5, 5).is_err());
        let c8 = Counters::new(5, 8).unwrap();
        assert_eq!((c8.bytes(), c8.max()), (5, 255));
    }

    #[test]
    fn delete_restores_the_prior_state() {
        let mut f = CountingBloom::new(1000, 5, 4, Overflow::Decrement, h()).unwrap();
        for i in 0..50u32 {
            f.insert(&i.to_le_bytes());
        }
        let before = f.counters().clone();
        f.insert(b"extra");
        f.remove(b"extra").unwrap();
        assert_eq!(f.counters(), &before);
        assert_eq!(
            f.remove(b"never-there-and-not-a-false-positive-zzz")
                .is_err(),
            !f.contains(b"never-there-and-not-a-false-positive-zzz")
        );
    }
}
