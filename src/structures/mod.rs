//! Probabilistic data structures, one folder per family. Each family has a
//! `theory.rs` of pure, documented formulas citing their source.

pub mod birthday;
pub mod bloom;

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

/// An approximate-membership filter: what the FPR studies measure.
pub trait Filter {
    fn insert(&mut self, key: &[u8]);
    fn contains(&self, key: &[u8]) -> bool;
    /// Fraction of the filter's bits (or slots) in use.
    fn fill_ratio(&self) -> f64;
}

impl<H: crate::hashing::KeyHasher> Filter for bloom::BloomFilter<H> {
    fn insert(&mut self, key: &[u8]) {
        bloom::BloomFilter::insert(self, key)
    }
    fn contains(&self, key: &[u8]) -> bool {
        bloom::BloomFilter::contains(self, key)
    }
    fn fill_ratio(&self) -> f64 {
        bloom::BloomFilter::fill_ratio(self)
    }
}

impl<H: crate::hashing::KeyHasher> Filter for bloom::IndependentBloom<H> {
    fn insert(&mut self, key: &[u8]) {
        bloom::IndependentBloom::insert(self, key)
    }
    fn contains(&self, key: &[u8]) -> bool {
        bloom::IndependentBloom::contains(self, key)
    }
    fn fill_ratio(&self) -> f64 {
        bloom::IndependentBloom::fill_ratio(self)
    }
}

impl Filter for bloom::reference::ChapterBloom {
    fn insert(&mut self, key: &[u8]) {
        self.add_bytes(key)
    }
    fn contains(&self, key: &[u8]) -> bool {
        self.contains_bytes(key)
    }
    fn fill_ratio(&self) -> f64 {
        self.count_ones() as f64 / self.m() as f64
    }
}
