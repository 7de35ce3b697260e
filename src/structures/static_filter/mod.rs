//! Static filters from the `xorf` crate: Xor8/16/32 and BinaryFuse8/16/32,
//! built once from the whole key set. Keys are hashed to 64 bits by the
//! study's [`KeyHasher`] (its first 64-bit half), deduplicated, and handed to
//! the crate; a query hashes the same way.
//!
//! The crate is built without its default `uniform-random` feature, which
//! fills the table's unused entries from the OS's thread RNG: with it no two
//! builds of the same keys are the same filter, and no FPR row would be
//! reproducible. Without it those entries are 0: an absent key whose
//! entries are all unused (about u³ of them, u ≈ 0.19 of a xor table's
//! entries unused) is then a false positive exactly when its fingerprint is
//! 0, which happens with probability 2^−f as it would against random
//! entries, so the rate stays 2^−f; what changes is only which absent keys
//! carry it (those with fingerprint 0 carry more).
//!
//! A static filter cannot take a key after it is built: [`Membership::insert`]
//! refuses with [`InsertError::Static`] rather than answering wrongly later.
//!
//! ```
//! use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId};
//! use sketchlab::structures::static_filter::{StaticFilter, StaticKind};
//! use sketchlab::structures::{InsertError, Membership};
//!
//! let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
//! let keys: Vec<Vec<u8>> = (0u64..10_000).map(|i| i.to_le_bytes().to_vec()).collect();
//! let mut f = StaticFilter::build(StaticKind::BinaryFuse8, h, keys.iter().map(|k| k.as_slice())).unwrap();
//! assert!(f.contains(&5u64.to_le_bytes()));
//! assert!(matches!(f.insert(b"late"), Err(InsertError::Static(_))));
//! ```

pub mod theory;

use super::{InsertError, Membership};
use crate::hashing::KeyHasher;
use xorf::{BinaryFuse8, BinaryFuse16, BinaryFuse32, Filter, Xor8, Xor16, Xor32};

/// Which `xorf` filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticKind {
    Xor8,
    Xor16,
    Xor32,
    BinaryFuse8,
    BinaryFuse16,
    BinaryFuse32,
}

impl StaticKind {
    pub const ALL: [StaticKind; 6] = [
        StaticKind::Xor8,
        StaticKind::Xor16,
        StaticKind::Xor32,
        StaticKind::BinaryFuse8,
        StaticKind::BinaryFuse16,
        StaticKind::BinaryFuse32,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StaticKind::Xor8 => "xor8",
            StaticKind::Xor16 => "xor16",
            StaticKind::Xor32 => "xor32",
            StaticKind::BinaryFuse8 => "binary_fuse8",
            StaticKind::BinaryFuse16 => "binary_fuse16",
            StaticKind::BinaryFuse32 => "binary_fuse32",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }

    /// Fingerprint bits f (the false-positive rate is 2^−f).
    pub fn fingerprint_bits(self) -> u32 {
        match self {
            StaticKind::Xor8 | StaticKind::BinaryFuse8 => 8,
            StaticKind::Xor16 | StaticKind::BinaryFuse16 => 16,
            StaticKind::Xor32 | StaticKind::BinaryFuse32 => 32,
        }
    }
}

enum Table {
    Xor8(Xor8),
    Xor16(Xor16),
    Xor32(Xor32),
    BinaryFuse8(BinaryFuse8),
    BinaryFuse16(BinaryFuse16),
    BinaryFuse32(BinaryFuse32),
}

/// A built xor or binary fuse filter.
pub struct StaticFilter<H: KeyHasher> {
    kind: StaticKind,
    hasher: H,
    table: Table,
    keys: u64,
}

/// Why a static filter could not be built.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("{kind} could not be built from {keys} distinct key hashes: {reason}")]
pub struct BuildError {
    pub kind: &'static str,
    pub keys: usize,
    pub reason: &'static str,
}

impl<H: KeyHasher> StaticFilter<H> {
    /// Builds the filter from every key it will ever hold.
    pub fn build<'a>(
        kind: StaticKind,
        hasher: H,
        keys: impl IntoIterator<Item = &'a [u8]>,
    ) -> Result<Self, BuildError> {
        Self::build_each(kind, hasher, |add| keys.into_iter().for_each(add))
    }

    /// Builds the filter from the keys `each` hands to its argument, one at
    /// a time: for keys generated into one reused buffer (a
    /// [`KeyGen`](crate::workload::KeyGen)), which no iterator can lend.
    pub fn build_each(
        kind: StaticKind,
        hasher: H,
        each: impl FnOnce(&mut dyn FnMut(&[u8])),
    ) -> Result<Self, BuildError> {
        let mut hashes: Vec<u64> = Vec::new();
        each(&mut |k| hashes.push(hasher.hash128(k).0));
        // equal hashes are one key to the filter (and break construction)
        hashes.sort_unstable();
        hashes.dedup();
        let err = |reason| BuildError {
            kind: kind.name(),
            keys: hashes.len(),
            reason,
        };
        let h = hashes.as_slice();
        let table = match kind {
            StaticKind::Xor8 => Table::Xor8(Xor8::from(h)),
            StaticKind::Xor16 => Table::Xor16(Xor16::from(h)),
            StaticKind::Xor32 => Table::Xor32(Xor32::from(h)),
            StaticKind::BinaryFuse8 => Table::BinaryFuse8(BinaryFuse8::try_from(h).map_err(err)?),
            StaticKind::BinaryFuse16 => {
                Table::BinaryFuse16(BinaryFuse16::try_from(h).map_err(err)?)
            }
            StaticKind::BinaryFuse32 => {
                Table::BinaryFuse32(BinaryFuse32::try_from(h).map_err(err)?)
            }
        };
        Ok(StaticFilter {
            kind,
            hasher,
            table,
            keys: hashes.len() as u64,
        })
    }

    pub fn kind(&self) -> StaticKind {
        self.kind
    }

    /// Fingerprint slots in the table.
    pub fn slots(&self) -> usize {
        match &self.table {
            Table::Xor8(f) => f.fingerprints.len(),
            Table::Xor16(f) => f.fingerprints.len(),
            Table::Xor32(f) => f.fingerprints.len(),
            Table::BinaryFuse8(f) => f.fingerprints.len(),
            Table::BinaryFuse16(f) => f.fingerprints.len(),
            Table::BinaryFuse32(f) => f.fingerprints.len(),
        }
    }

    /// Table bits per distinct key.
    pub fn bits_per_key(&self) -> f64 {
        (self.slots() as f64 * self.kind.fingerprint_bits() as f64) / self.keys.max(1) as f64
    }
}

impl<H: KeyHasher> Membership for StaticFilter<H> {
    fn insert(&mut self, _key: &[u8]) -> Result<(), InsertError> {
        Err(InsertError::Static(self.kind.name()))
    }
    fn contains(&self, key: &[u8]) -> bool {
        let h = self.hasher.hash128(key).0;
        match &self.table {
            Table::Xor8(f) => f.contains(&h),
            Table::Xor16(f) => f.contains(&h),
            Table::Xor32(f) => f.contains(&h),
            Table::BinaryFuse8(f) => f.contains(&h),
            Table::BinaryFuse16(f) => f.contains(&h),
            Table::BinaryFuse32(f) => f.contains(&h),
        }
    }
    /// Keys over slots (a xor filter's table is about 1.23 n slots).
    fn fill_ratio(&self) -> f64 {
        self.fill().rate
    }
    fn fill(&self) -> crate::stats::Proportion {
        let slots = self.slots() as u64;
        crate::stats::Proportion::new(self.keys.min(slots), slots)
    }
    fn bytes(&self) -> usize {
        (self.slots() * self.kind.fingerprint_bits() as usize).div_ceil(8)
    }
}

#[cfg(test)]
mod tests;
