//! The chapter's Python `BloomFilter` (doc 000 §14.2), reproduced exactly so
//! the harness can show what the book's own code does:
//!
//! ```python
//! self.m = math.ceil(-expected_items * math.log(false_positive_rate) / (math.log(2) ** 2))
//! self.k = max(1, round(self.m / expected_items * math.log(2)))
//! self.bits = bytearray((self.m + 7) // 8)
//! h1, h2 = mmh3.hash64(item)          # signed 64-bit halves, seed 0
//! yield (h1 + i * h2) % self.m        # Python ints: no wrap, never negative
//! ```
//!
//! Items are `str` in the chapter; `mmh3.hash64(str)` hashes its UTF-8 bytes,
//! so [`ChapterBloom::add`] takes `&str` and [`ChapterBloom::add_bytes`] bytes.
//! The byte image [`ChapterBloom::bytes`] equals Python's `bytes(bf.bits)`
//! (tests/reference_filter.rs checks it against vectors made with mmh3 5.x).

use super::theory::{optimal_k_int, optimal_m};
use crate::hashing::double::Probes;
use crate::structures::{ParamError, invalid};

#[derive(Clone, Debug)]
pub struct ChapterBloom {
    m: u64,
    k: u32,
    bits: Vec<u8>,
}

impl ChapterBloom {
    /// `BloomFilter(expected_items, false_positive_rate)`.
    pub fn new(expected_items: u64, false_positive_rate: f64) -> Result<Self, ParamError> {
        if expected_items == 0 {
            // Python raises ZeroDivisionError computing k.
            return Err(invalid("expected_items", 0, "must be >= 1"));
        }
        if !(false_positive_rate > 0.0 && false_positive_rate < 1.0) {
            return Err(invalid(
                "false_positive_rate",
                false_positive_rate,
                "must be in (0, 1)",
            ));
        }
        let m = optimal_m(expected_items, false_positive_rate);
        Self::with_mk(m, optimal_k_int(m, expected_items))
    }

    /// The same class with `m` and `k` set directly (as in the chapter's
    /// m = 12, k = 3 diagram, which its constructor cannot produce).
    pub fn with_mk(m: u64, k: u32) -> Result<Self, ParamError> {
        if m == 0 || m > (1 << 62) {
            return Err(invalid("m", m, "must be in 1..=2^62"));
        }
        if k == 0 {
            return Err(invalid("k", k, "must be >= 1"));
        }
        Ok(ChapterBloom {
            m,
            k,
            bits: vec![0; m.div_ceil(8) as usize],
        })
    }

    pub fn m(&self) -> u64 {
        self.m
    }

    pub fn k(&self) -> u32 {
        self.k
    }

    /// `_positions(item)` for the item's UTF-8 bytes.
    pub fn positions(&self, item: &[u8]) -> Probes {
        let (h1, h2) = mur3::murmurhash3_x64_128(item, 0);
        Probes::signed(h1 as i64, h2 as i64, self.k, self.m)
    }

    pub fn add(&mut self, item: &str) {
        self.add_bytes(item.as_bytes())
    }

    pub fn add_bytes(&mut self, item: &[u8]) {
        for pos in self.positions(item) {
            self.bits[(pos / 8) as usize] |= 1 << (pos % 8);
        }
    }

    /// `item in bf`.
    pub fn contains(&self, item: &str) -> bool {
        self.contains_bytes(item.as_bytes())
    }

    pub fn contains_bytes(&self, item: &[u8]) -> bool {
        self.positions(item)
            .all(|pos| self.bits[(pos / 8) as usize] >> (pos % 8) & 1 == 1)
    }

    /// Python's `bytes(bf.bits)`.
    pub fn bytes(&self) -> &[u8] {
        &self.bits
    }

    pub fn count_ones(&self) -> u64 {
        self.bits.iter().map(|b| b.count_ones() as u64).sum()
    }

    /// Indices of set bits, ascending.
    pub fn ones(&self) -> Vec<u64> {
        (0..self.m)
            .filter(|&p| self.bits[(p / 8) as usize] >> (p % 8) & 1 == 1)
            .collect()
    }
}
