//! The rank-and-select quotient filter of the `qfilter` crate, fed with the
//! study's [`KeyHasher`]: a key's 64-bit hash (its first half) is the
//! fingerprint, of which the filter keeps its low q + r bits. It inserts
//! and deletes after it is built, up to 95% of its 2^q slots.
//!
//! ```
//! use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId};
//! use sketchlab::structures::quotient::QuotientFilter;
//! use sketchlab::structures::{Deletion, Membership};
//!
//! let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
//! let mut f = QuotientFilter::with_rate(10_000, 0.01, h).unwrap();
//! f.insert(b"a").unwrap();
//! assert!(f.contains(b"a"));
//! f.remove(b"a").unwrap();
//! assert!(!f.contains(b"a"));
//! ```

pub mod theory;

use super::{DeleteError, Deletion, InsertError, Membership, ParamError, invalid};
use crate::hashing::KeyHasher;

/// A quotient filter sized for `capacity` keys at a rate bound.
pub struct QuotientFilter<H: KeyHasher> {
    filter: qfilter::Filter,
    hasher: H,
    slots: u64,
}

impl<H: KeyHasher> QuotientFilter<H> {
    /// A filter for `capacity` keys whose rate is at most `fpr` when full.
    pub fn with_rate(capacity: u64, fpr: f64, hasher: H) -> Result<Self, ParamError> {
        if !(fpr > 0.0 && fpr < 1.0) {
            return Err(invalid("fpr", fpr, "a rate in (0, 1)"));
        }
        let filter = qfilter::Filter::new(capacity, fpr).map_err(|_| {
            invalid(
                "capacity",
                capacity,
                "at most qfilter's MAX_CAPACITY, with q + r ≤ 64 bits",
            )
        })?;
        // capacity() is ceil(0.95 · 2^q): the slots are the power of two below capacity / 0.95
        let slots = 1u64 << (filter.capacity() as f64 / 0.95).log2().floor() as u32;
        Ok(QuotientFilter {
            filter,
            hasher,
            slots,
        })
    }

    /// Slots 2^q.
    pub fn slots(&self) -> u64 {
        self.slots
    }

    /// Remainder bits r (the fingerprint is q + r bits).
    pub fn remainder_bits(&self) -> u32 {
        self.filter.fingerprint_size() as u32 - self.slots.trailing_zeros()
    }

    /// The most keys `qfilter` accepts in this table (its own rule, read
    /// from the crate: ⌈0.95·2^q⌉ in 0.3).
    pub fn capacity(&self) -> u64 {
        self.filter.capacity()
    }

    /// Keys held.
    pub fn len(&self) -> u64 {
        self.filter.len()
    }

    pub fn is_empty(&self) -> bool {
        self.filter.is_empty()
    }

    fn fingerprint(&self, key: &[u8]) -> u64 {
        self.hasher.hash128(key).0
    }
}

impl<H: KeyHasher> Membership for QuotientFilter<H> {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        let fp = self.fingerprint(key);
        self.filter
            .insert_fingerprint(true, fp)
            .map(|_| ())
            .map_err(|e| {
                InsertError::Full(format!("quotient filter with {} slots: {e}", self.slots))
            })
    }
    fn contains(&self, key: &[u8]) -> bool {
        self.filter.contains_fingerprint(self.fingerprint(key))
    }
    fn fill_ratio(&self) -> f64 {
        self.fill().rate
    }
    fn fill(&self) -> crate::stats::Proportion {
        crate::stats::Proportion::new(self.filter.len().min(self.slots), self.slots)
    }
    fn bytes(&self) -> usize {
        self.filter.memory_usage()
    }
}

impl<H: KeyHasher> Deletion for QuotientFilter<H> {
    fn remove(&mut self, key: &[u8]) -> Result<(), DeleteError> {
        let fp = self.fingerprint(key);
        if self.filter.remove_fingerprint(fp) {
            Ok(())
        } else {
            Err(DeleteError::NotPresent)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
    use crate::stats::Proportion;

    #[test]
    fn a_quotient_filter_at_capacity_meets_its_load_and_remainder_theory() {
        let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7));
        let n = 20_000u64;
        let mut f = QuotientFilter::with_rate(n, 0.01, h).unwrap();
        for i in 0..n {
            f.insert(&i.to_le_bytes()).unwrap();
        }
        assert!((0..n).all(|i| f.contains(&i.to_le_bytes())));
        let queries = 400_000u64;
        let fp = (n..n + queries)
            .filter(|i| f.contains(&i.to_le_bytes()))
            .count() as u64;
        let p = Proportion::at(fp, queries, 0.999);
        let load = n as f64 / f.slots() as f64;
        let theory = theory::fpr(load, f.remainder_bits());
        assert!(
            p.lo <= theory && theory <= p.hi,
            "{fp}/{queries} [{}, {}] vs {theory} (α = {load}, r = {})",
            p.lo,
            p.hi,
            f.remainder_bits()
        );
        assert!(theory <= 0.01, "the bound the filter was sized for");
        // deletes take, and a key never inserted is refused
        f.remove(&0u64.to_le_bytes()).unwrap();
        assert_eq!(f.len(), n - 1);
        assert_eq!(
            f.remove(b"never inserted, surely"),
            Err(DeleteError::NotPresent)
        );
    }

    #[test]
    fn a_quotient_filter_past_its_slots_says_it_is_full() {
        let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7));
        let mut f = QuotientFilter::with_rate(100, 0.01, h).unwrap();
        let cap = f.slots();
        let first_failure = (0..cap * 2).find(|i| f.insert(&i.to_le_bytes()).is_err());
        let at = first_failure.expect("no insert failed past twice the slots");
        assert!(
            at >= (cap * 19).div_ceil(20) && at <= cap,
            "failed at {at} of {cap} slots"
        );
        assert!(
            QuotientFilter::with_rate(
                100,
                0.0,
                HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7))
            )
            .is_err()
        );
    }
}
