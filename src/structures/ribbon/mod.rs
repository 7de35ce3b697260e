//! Standard ribbon filters from the `pleat` crate (w = 128, r result bits
//! from 1 to 32, the RocksDB shape; its kernel is a port of
//! `fastfilter_cpp`'s ribbon, checked there against the reference's
//! vectors). Like the xor filters it is static: keys are hashed to 64 bits
//! by the study's [`KeyHasher`] (its first 64-bit half), deduplicated and
//! handed to the crate once; a query hashes the same way.
//!
//! Construction solves a banded linear system over GF(2) and retries with
//! the crate's next ordinal seed (up to 64) if one does not solve; the
//! result depends only on the key set, so a build is reproducible. The
//! crate's `parallel` feature is off: studies already run trials in
//! parallel.
//!
//! ```
//! use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId};
//! use sketchlab::structures::ribbon::RibbonFilter;
//! use sketchlab::structures::{InsertError, Membership};
//!
//! let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
//! let mut f = RibbonFilter::build_each(7, h, |add| {
//!     (0u64..10_000).for_each(|i| add(&i.to_le_bytes()))
//! })
//! .unwrap();
//! assert!(f.contains(&5u64.to_le_bytes()));
//! assert!(matches!(f.insert(b"late"), Err(InsertError::Static(_))));
//! ```

pub mod theory;

use super::{InsertError, Membership};
use crate::hashing::KeyHasher;
use pleat::filter::StdRibbon;

/// The solved table at one width r (a const parameter of the crate).
trait Table: Send + Sync {
    fn contains(&self, h: u64) -> bool;
    fn bytes(&self) -> usize;
}

impl<const R: usize> Table for StdRibbon<R> {
    fn contains(&self, h: u64) -> bool {
        StdRibbon::contains(self, h)
    }
    fn bytes(&self) -> usize {
        self.size_bytes()
    }
}

/// Why a ribbon filter could not be built.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum BuildError {
    #[error("a ribbon filter's result rows are 1 to 32 bits, not {0}")]
    Width(u32),
    #[error("no ribbon seed solved {0} distinct key hashes (pleat tries 64)")]
    Unsolved(usize),
}

/// A built standard ribbon filter.
pub struct RibbonFilter<H: KeyHasher> {
    r: u32,
    hasher: H,
    table: Box<dyn Table>,
    keys: u64,
}

fn solve(r: u32, h: &[u64]) -> Result<Box<dyn Table>, BuildError> {
    macro_rules! widths {
        ($($r:literal)*) => {
            match r {
                $($r => StdRibbon::<$r>::from_keys_pleated(h)
                    .map(|t| Box::new(t) as Box<dyn Table>)
                    .map_err(|_| BuildError::Unsolved(h.len())),)*
                _ => Err(BuildError::Width(r)),
            }
        };
    }
    widths!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
}

impl<H: KeyHasher> RibbonFilter<H> {
    /// Builds the filter with r result bits from the keys `each` hands to
    /// its argument, one at a time.
    pub fn build_each(
        r: u32,
        hasher: H,
        each: impl FnOnce(&mut dyn FnMut(&[u8])),
    ) -> Result<Self, BuildError> {
        let mut hashes: Vec<u64> = Vec::new();
        each(&mut |k| hashes.push(hasher.hash128(k).0));
        // equal hashes are one key to the filter
        hashes.sort_unstable();
        hashes.dedup();
        let table = solve(r, &hashes)?;
        Ok(RibbonFilter {
            r,
            hasher,
            table,
            keys: hashes.len() as u64,
        })
    }

    /// Result bits r (the false-positive rate is 2^−r).
    pub fn result_bits(&self) -> u32 {
        self.r
    }

    /// Slots of the solution (r bits each).
    pub fn slots(&self) -> u64 {
        self.table.bytes() as u64 * 8 / self.r as u64
    }
}

impl<H: KeyHasher> Membership for RibbonFilter<H> {
    fn insert(&mut self, _key: &[u8]) -> Result<(), InsertError> {
        Err(InsertError::Static("ribbon"))
    }
    fn contains(&self, key: &[u8]) -> bool {
        self.table.contains(self.hasher.hash128(key).0)
    }
    /// Keys over slots (about 1/1.045 at r = 7).
    fn fill_ratio(&self) -> f64 {
        self.fill().rate
    }
    fn fill(&self) -> crate::stats::Proportion {
        let slots = self.slots();
        crate::stats::Proportion::new(self.keys.min(slots), slots)
    }
    fn bytes(&self) -> usize {
        self.table.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
    use crate::stats::Proportion;

    /// At r = 1, 7, 10 and 16: no false negatives, the measured rate inside
    /// 2^−r's 99.9% Wilson interval, and the bytes the sizing rule says.
    #[test]
    fn every_width_holds_its_keys_meets_two_to_the_minus_r_and_its_size() {
        let (n, queries) = (20_000u64, 400_000u64);
        for r in [1u32, 7, 10, 16] {
            let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7));
            let f =
                RibbonFilter::build_each(r, h, |add| (0..n).for_each(|i| add(&i.to_le_bytes())))
                    .unwrap();
            assert!((0..n).all(|i| f.contains(&i.to_le_bytes())), "r = {r}");
            let fp = (n..n + queries)
                .filter(|i| f.contains(&i.to_le_bytes()))
                .count() as u64;
            let p = Proportion::at(fp, queries, 0.999);
            let t = theory::fpr(r);
            assert!(p.lo <= t && t <= p.hi, "r = {r}: {fp}/{queries} vs {t}");
            assert_eq!(f.bytes() as u64, theory::bytes(n, r), "r = {r}");
        }
    }

    #[test]
    fn a_width_outside_one_to_thirty_two_is_refused() {
        let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7));
        let e = RibbonFilter::build_each(33, h, |add| add(b"k")).err();
        assert_eq!(e, Some(BuildError::Width(33)));
    }
}
