use crate::hashing::{KeyHasher, splitmix64};
use crate::structures::{DeleteError, InsertError, ParamError, invalid};
use rand::{RngExt, SeedableRng};

/// The slot table: fingerprints of up to 16 bits in `u16`s (half the
/// memory, so a table of 2^20 slots stays in a 2 MB L2 rather than 4 MB),
/// wider ones in `u32`s. 0 marks an empty slot.
#[derive(Clone, Debug)]
enum Slots {
    U16(Vec<u16>),
    U32(Vec<u32>),
}

macro_rules! on_slots {
    ($slots:expr, $v:ident => $body:expr) => {
        match $slots {
            Slots::U16($v) => $body,
            Slots::U32($v) => $body,
        }
    };
}

// the macro expands one body for u16 and u32 slots: the u32 casts are no-ops
#[allow(clippy::unnecessary_cast)]
impl Slots {
    fn new(n: usize, f: u32) -> Self {
        if f <= 16 {
            Slots::U16(vec![0; n])
        } else {
            Slots::U32(vec![0; n])
        }
    }

    /// Whether slots `at..at + b` hold `fp`.
    #[inline]
    fn holds(&self, at: usize, b: usize, fp: u32) -> bool {
        on_slots!(self, v => v[at..at + b].iter().any(|&s| s as u32 == fp))
    }

    /// Puts `fp` in the first empty slot of `at..at + b`, if any.
    #[inline]
    fn put(&mut self, at: usize, b: usize, fp: u32) -> bool {
        on_slots!(self, v => match v[at..at + b].iter_mut().find(|s| **s == 0) {
            Some(s) => {
                *s = fp as _;
                true
            }
            None => false,
        })
    }

    /// Replaces slot `s` by `fp`; returns what it held.
    #[inline]
    fn swap(&mut self, s: usize, fp: u32) -> u32 {
        on_slots!(self, v => std::mem::replace(&mut v[s], fp as _) as u32)
    }

    /// Empties the first slot of `at..at + b` holding `fp`, if any.
    fn take(&mut self, at: usize, b: usize, fp: u32) -> bool {
        on_slots!(self, v => match v[at..at + b].iter_mut().find(|s| **s as u32 == fp) {
            Some(s) => {
                *s = 0;
                true
            }
            None => false,
        })
    }
}

#[derive(Clone, Debug)]
pub struct CuckooFilter<H> {
    slots: Slots,
    buckets: usize,
    b: usize,
    f: u32,
    max_kicks: u32,
    victim: Option<(usize, u32)>,
    items: u64,
    kicks: u64,
    rng: rand::rngs::Xoshiro256PlusPlus,
    hasher: H,
}

impl<H: KeyHasher> CuckooFilter<H> {
    /// `buckets` (a power of two) × `b` slots of `f`-bit fingerprints; the
    /// eviction walk is seeded by `kick_seed` (reproducible).
    pub fn new(
        buckets: usize,
        b: usize,
        f: u32,
        max_kicks: u32,
        kick_seed: u64,
        hasher: H,
    ) -> Result<Self, ParamError> {
        if !buckets.is_power_of_two() || !(2..=1 << 32).contains(&buckets) {
            return Err(invalid(
                "buckets",
                buckets,
                "must be a power of two in 2..=2^32",
            ));
        }
        if !(1..=64).contains(&b) {
            return Err(invalid("bucket_size", b, "must be in 1..=64"));
        }
        if !(4..=32).contains(&f) {
            return Err(invalid("fingerprint_bits", f, "must be in 4..=32"));
        }
        Ok(CuckooFilter {
            slots: Slots::new(buckets * b, f),
            buckets,
            b,
            f,
            max_kicks,
            victim: None,
            items: 0,
            kicks: 0,
            rng: rand::rngs::Xoshiro256PlusPlus::seed_from_u64(kick_seed),
            hasher,
        })
    }

    #[inline]
    fn mask(&self) -> usize {
        self.buckets - 1
    }

    /// Fingerprint and first bucket of a key. The fingerprint is uniform over
    /// the 2^f − 1 non-zero values (0 marks an empty slot): the top 32 bits of
    /// the second half reduced mod 2^f − 1, a bias below 2^(f−32). (Mapping 0
    /// to 1 instead would give one value twice the weight: +3% FPR at f = 6.)
    #[inline]
    fn locate(&self, key: &[u8]) -> (u32, usize) {
        let (h1, h2) = self.hasher.hash128(key);
        let values = (1u64 << self.f) - 1;
        let fp = ((h2 >> 32) % values + 1) as u32;
        (fp, h1 as usize & self.mask())
    }

    /// The other bucket: i XOR hash(fingerprint), an involution.
    #[inline]
    pub fn alternate(&self, i: usize, fp: u32) -> usize {
        (i ^ splitmix64(fp as u64) as usize) & self.mask()
    }

    fn bucket_holds(&self, i: usize, fp: u32) -> bool {
        self.slots.holds(i * self.b, self.b, fp)
    }

    fn try_put(&mut self, i: usize, fp: u32) -> bool {
        self.slots.put(i * self.b, self.b, fp)
    }

    pub fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        if self.victim.is_some() {
            return Err(InsertError::Full(format!(
                "{} items at load {:.3}; the victim slot is taken",
                self.items,
                self.load_factor()
            )));
        }
        let (fp, i1) = self.locate(key);
        let i2 = self.alternate(i1, fp);
        if self.try_put(i1, fp) || self.try_put(i2, fp) {
            self.items += 1;
            return Ok(());
        }
        let mut i = if self.rng.random_bool(0.5) { i1 } else { i2 };
        let mut fp = fp;
        for _ in 0..self.max_kicks {
            let s = i * self.b + self.rng.random_range(0..self.b);
            fp = self.slots.swap(s, fp);
            self.kicks += 1;
            i = self.alternate(i, fp);
            if self.try_put(i, fp) {
                self.items += 1;
                return Ok(());
            }
        }
        // out of kicks: keep the evicted fingerprint, so nothing is lost
        self.victim = Some((i, fp));
        self.items += 1;
        Ok(())
    }

    pub fn contains(&self, key: &[u8]) -> bool {
        let (fp, i1) = self.locate(key);
        let i2 = self.alternate(i1, fp);
        self.bucket_holds(i1, fp)
            || self.bucket_holds(i2, fp)
            || self
                .victim
                .is_some_and(|(vi, vf)| vf == fp && (vi == i1 || vi == i2))
    }

    /// Removes one copy of the key's fingerprint from its two buckets (or the
    /// victim slot); then the victim, if any, gets a chance to move back in.
    pub fn remove(&mut self, key: &[u8]) -> Result<(), DeleteError> {
        let (fp, i1) = self.locate(key);
        let i2 = self.alternate(i1, fp);
        let b = self.b;
        let mut removed = false;
        for i in [i1, i2] {
            if self.slots.take(i * b, b, fp) {
                removed = true;
                break;
            }
        }
        if !removed {
            match self.victim {
                Some((vi, vf)) if vf == fp && (vi == i1 || vi == i2) => {
                    self.victim = None;
                    self.items -= 1;
                    return Ok(());
                }
                _ => return Err(DeleteError::NotPresent),
            }
        }
        self.items -= 1;
        if let Some((vi, vf)) = self.victim.take() {
            let alt = self.alternate(vi, vf);
            if !(self.try_put(vi, vf) || self.try_put(alt, vf)) {
                self.victim = Some((vi, vf));
            }
        }
        Ok(())
    }

    /// Whether the last insert ran out of kicks (the table is full).
    pub fn is_full(&self) -> bool {
        self.victim.is_some()
    }

    pub fn items(&self) -> u64 {
        self.items
    }

    pub fn capacity(&self) -> u64 {
        (self.buckets * self.b) as u64
    }

    pub fn load_factor(&self) -> f64 {
        self.items as f64 / self.capacity() as f64
    }

    /// Bits of the table when fingerprints are packed (f bits per slot).
    pub fn table_bits(&self) -> u64 {
        self.capacity() * self.f as u64
    }

    /// Bytes the table occupies in memory: slots of 2 bytes (f ≤ 16) or 4.
    pub fn memory_bytes(&self) -> u64 {
        self.capacity() * if self.f <= 16 { 2 } else { 4 }
    }

    pub fn kicks(&self) -> u64 {
        self.kicks
    }

    /// Distinct 64-byte lines a query reads in a packed table: the lines
    /// spanned by bucket i1 and bucket i2.
    pub fn cache_lines(&self, key: &[u8]) -> u32 {
        let (fp, i1) = self.locate(key);
        let i2 = self.alternate(i1, fp);
        let bucket_bits = (self.b as u64) * self.f as u64;
        let lines = |i: usize| {
            let (start, end) = (i as u64 * bucket_bits, (i as u64 + 1) * bucket_bits - 1);
            (start / 512, end / 512)
        };
        let (a, b) = (lines(i1), lines(i2));
        let own = |x: (u64, u64)| (x.1 - x.0 + 1) as u32;
        if b.0 > a.1 || a.0 > b.1 {
            own(a) + own(b)
        } else {
            (a.1.max(b.1) - a.0.min(b.0) + 1) as u32
        }
    }
}

impl<H: KeyHasher> crate::structures::Membership for CuckooFilter<H> {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        CuckooFilter::insert(self, key)
    }
    fn contains(&self, key: &[u8]) -> bool {
        CuckooFilter::contains(self, key)
    }
    fn fill_ratio(&self) -> f64 {
        self.load_factor()
    }
    fn fill(&self) -> crate::stats::Proportion {
        crate::stats::Proportion::new(self.items.min(self.capacity()), self.capacity())
    }
    fn bytes(&self) -> usize {
        self.table_bits().div_ceil(8) as usize
    }
}

impl<H: KeyHasher> crate::structures::Deletion for CuckooFilter<H> {
    fn remove(&mut self, key: &[u8]) -> Result<(), DeleteError> {
        CuckooFilter::remove(self, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};

    fn filter(buckets: usize, b: usize, f: u32) -> CuckooFilter<HashStrategy> {
        CuckooFilter::new(
            buckets,
            b,
            f,
            500,
            9,
            HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(5)),
        )
        .unwrap()
    }

    #[test]
    fn alternate_is_an_involution() {
        let c = filter(1 << 10, 4, 12);
        for i in [0usize, 5, 1023] {
            for fp in [1u32, 77, 4095] {
                assert_eq!(c.alternate(c.alternate(i, fp), fp), i);
            }
        }
    }

    #[test]
    fn filling_to_failure_loses_nothing() {
        let mut c = filter(1 << 8, 4, 16);
        let mut inserted = Vec::new();
        for i in 0u32.. {
            let k = i.to_le_bytes();
            if c.insert(&k).is_err() {
                break;
            }
            inserted.push(k);
        }
        assert!(c.is_full() && c.load_factor() > 0.85, "{}", c.load_factor());
        assert!(
            inserted.iter().all(|k| c.contains(k)),
            "a member was dropped"
        );
        // deleting members eventually frees a slot in one of the victim's
        // buckets, and it moves back in; the rest stay present throughout
        let mut removed = 0;
        while c.is_full() {
            c.remove(&inserted[removed]).unwrap();
            removed += 1;
        }
        assert!(removed < inserted.len());
        assert!(inserted[removed..].iter().all(|k| c.contains(k)));
        assert_eq!(c.items(), (inserted.len() - removed) as u64);
        for (name, r) in [
            (
                "buckets",
                CuckooFilter::new(
                    1000,
                    4,
                    12,
                    1,
                    1,
                    HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(5)),
                ),
            ),
            (
                "f",
                CuckooFilter::new(
                    1024,
                    4,
                    3,
                    1,
                    1,
                    HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(5)),
                ),
            ),
            (
                "b",
                CuckooFilter::new(
                    1024,
                    0,
                    12,
                    1,
                    1,
                    HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(5)),
                ),
            ),
        ] {
            assert!(r.is_err(), "{name}");
        }
    }
}
