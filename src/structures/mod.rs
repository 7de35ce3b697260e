//! Probabilistic data structures, one folder per family. Each family has a
//! `theory.rs` of pure, documented formulas citing their source, and
//! implements the family traits below, which studies, attacks, peers and
//! benches are written against.

pub mod birthday;
pub mod bloom;
pub mod count_min;
pub mod counting_bloom;
pub mod cuckoo;
pub mod hyperloglog;
pub mod menu;
pub mod minhash;
pub mod quotient;
pub mod ribbon;
pub mod scalable_bloom;
pub mod space_saving;
pub mod static_filter;
pub mod tdigest;

use thiserror::Error;

/// A structure was asked for with parameters it cannot have.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ParamError {
    #[error("{name} = {value}: {allowed}")]
    Invalid {
        name: &'static str,
        value: String,
        allowed: &'static str,
    },
}

pub(crate) fn invalid(
    name: &'static str,
    value: impl ToString,
    allowed: &'static str,
) -> ParamError {
    ParamError::Invalid {
        name,
        value: value.to_string(),
        allowed,
    }
}

/// Why an insert did not take (a full cuckoo table, a saturated counter).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum InsertError {
    #[error("the structure is full: {0}")]
    Full(String),
    /// A static filter (xor, binary fuse) holds exactly the keys it was
    /// built from: a later insert would be silently missing from it.
    #[error(
        "{0} is a static filter: it is built once from all its keys and cannot insert after build (rebuild it with the new key set)"
    )]
    Static(&'static str),
}

/// Why a delete did not take.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DeleteError {
    #[error("the key is not present")]
    NotPresent,
    #[error("the structure cannot delete this key safely: {0}")]
    Unsafe(String),
}

/// Why two sketches cannot be merged.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MergeError {
    #[error("shapes differ: {0}")]
    Shape(String),
    #[error("hash seeds differ: merging would mix two hash functions")]
    Seed,
}

/// Approximate membership: what the filter studies, attacks and benches are
/// written against. `insert` may fail (a cuckoo table that cannot place a
/// fingerprint); a plain Bloom filter never does.
pub trait Membership {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError>;
    fn contains(&self, key: &[u8]) -> bool;
    /// Fraction of the filter's bits (or slots) in use.
    fn fill_ratio(&self) -> f64;
    /// Bits (or slots) in use, of all: the fill as a proportion.
    fn fill(&self) -> crate::stats::Proportion;
    /// Memory of the structure's table, in bytes.
    fn bytes(&self) -> usize;
}

/// Membership that can forget a key (counting Bloom, cuckoo). Deleting a key
/// that was never inserted corrupts such structures: the caller's contract.
pub trait Deletion: Membership {
    fn remove(&mut self, key: &[u8]) -> Result<(), DeleteError>;
}

/// A distinct-count sketch: registers updated per key, and estimators that
/// read the registers (several can be computed from one state, as in
/// datasketches' `hll`).
pub trait Cardinality {
    /// The estimators this sketch offers, by name.
    fn estimators(&self) -> &'static [&'static str];
    fn insert(&mut self, key: &[u8]);
    /// The estimate by `estimator` (one of [`Cardinality::estimators`]).
    fn estimate(&self, estimator: &str) -> Option<f64>;
}

/// A frequency sketch (Count-Min and its variants).
pub trait Frequency {
    fn update(&mut self, key: &[u8], count: u64);
    fn estimate(&self, key: &[u8]) -> u64;
    /// Total count of all updates (the N of the error bound).
    fn total(&self) -> u64;
}

/// A quantile sketch (t-digest and its peers).
pub trait Quantiles {
    fn add(&mut self, x: f64);
    /// The estimated `q`-quantile, `q` in [0, 1]; `None` when empty.
    fn quantile(&self, q: f64) -> Option<f64>;
    fn count(&self) -> u64;
}

/// Sketches whose union is computed from two states alone.
pub trait Mergeable: Sized {
    fn merge(&mut self, other: &Self) -> Result<(), MergeError>;
}

impl<H: crate::hashing::KeyHasher> Membership for bloom::BloomFilter<H> {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        bloom::BloomFilter::insert(self, key);
        Ok(())
    }
    fn contains(&self, key: &[u8]) -> bool {
        bloom::BloomFilter::contains(self, key)
    }
    fn fill_ratio(&self) -> f64 {
        bloom::BloomFilter::fill_ratio(self)
    }
    fn fill(&self) -> crate::stats::Proportion {
        crate::stats::Proportion::new(self.bits().count_ones(), self.m())
    }
    fn bytes(&self) -> usize {
        bloom::BloomFilter::bytes(self)
    }
}

impl<H: crate::hashing::KeyHasher> Membership for bloom::IndependentBloom<H> {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        bloom::IndependentBloom::insert(self, key);
        Ok(())
    }
    fn contains(&self, key: &[u8]) -> bool {
        bloom::IndependentBloom::contains(self, key)
    }
    fn fill_ratio(&self) -> f64 {
        bloom::IndependentBloom::fill_ratio(self)
    }
    fn fill(&self) -> crate::stats::Proportion {
        crate::stats::Proportion::new(self.count_ones(), self.m())
    }
    fn bytes(&self) -> usize {
        self.m().div_ceil(8) as usize
    }
}

impl Membership for bloom::reference::ChapterBloom {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        self.add_bytes(key);
        Ok(())
    }
    fn contains(&self, key: &[u8]) -> bool {
        self.contains_bytes(key)
    }
    fn fill_ratio(&self) -> f64 {
        self.count_ones() as f64 / self.m() as f64
    }
    fn fill(&self) -> crate::stats::Proportion {
        crate::stats::Proportion::new(self.count_ones(), self.m())
    }
    fn bytes(&self) -> usize {
        self.m().div_ceil(8) as usize
    }
}
