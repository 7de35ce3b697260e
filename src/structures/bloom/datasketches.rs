//! Apache DataSketches' Bloom filter (`datasketches` 0.6, feature `bloom`)
//! behind [`Membership`]: a peer, fed the same key bytes as sketchlab's
//! filters through its own hash (XXHash64 of the raw bytes, seeded) and its
//! own sizing (`with_accuracy(n, ε)`: m = ⌈−n·ln ε/(ln 2)²⌉ rounded up to
//! whole 64-bit words, k = ⌈(m/n)·ln 2⌉), as a user of that crate gets it.
//!
//! ```
//! use sketchlab::structures::bloom::datasketches::DataSketchesBloom;
//! use sketchlab::structures::Membership;
//!
//! let mut f = DataSketchesBloom::with_rate(10_000, 0.01, 7).unwrap();
//! f.insert(b"a").unwrap();
//! assert!(f.contains(b"a"));
//! assert_eq!(f.k(), 7);
//! ```

use crate::structures::{InsertError, Membership, ParamError, invalid};
use datasketches::bloom::{BloomFilter, BloomFilterBuilder};
use datasketches::hash::value::raw_bytes;

/// A DataSketches Bloom filter sized for `n` keys at rate `ε`.
pub struct DataSketchesBloom(BloomFilter);

impl DataSketchesBloom {
    pub fn with_rate(n: u64, fpr: f64, seed: u64) -> Result<Self, ParamError> {
        BloomFilterBuilder::with_accuracy(n, fpr)
            .seed(seed)
            .build()
            .map(DataSketchesBloom)
            .map_err(|_| {
                invalid(
                    "fpr",
                    fpr,
                    "a rate in (0, 1] with n > 0 (DataSketches' limits)",
                )
            })
    }

    /// A filter of `m` bits (whole 64-bit words) and `k` probes: what
    /// `with_rate` builds when (m, k) are its sizing's (`with_size`).
    pub fn with_shape(m: u64, k: u32, seed: u64) -> Result<Self, ParamError> {
        let k16 = u16::try_from(k).map_err(|_| invalid("k", k, "at most 32767 probes"))?;
        BloomFilterBuilder::with_size(m, k16)
            .seed(seed)
            .build()
            .map(DataSketchesBloom)
            .map_err(|_| invalid("m", m, "DataSketches' limits on bits and probes"))
    }

    /// Bits m (whole 64-bit words).
    pub fn m(&self) -> u64 {
        self.0.capacity() as u64
    }

    /// Probes k.
    pub fn k(&self) -> u32 {
        self.0.num_hashes() as u32
    }
}

impl Membership for DataSketchesBloom {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        self.0.insert(raw_bytes::from_slice(key));
        Ok(())
    }
    fn contains(&self, key: &[u8]) -> bool {
        self.0.contains(&raw_bytes::from_slice(key))
    }
    fn fill_ratio(&self) -> f64 {
        self.0.load_factor()
    }
    fn fill(&self) -> crate::stats::Proportion {
        crate::stats::Proportion::new(self.0.bits_used(), self.m())
    }
    fn bytes(&self) -> usize {
        self.0.estimated_size()
    }
}
