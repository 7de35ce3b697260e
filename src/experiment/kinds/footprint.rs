//! Building blocks for [`Footprint`] estimates: what a structure or a
//! buffer will occupy, from parameters alone, before anything is allocated.
//! The allocator model is glibc's (a chunk is the request plus 8 bytes,
//! rounded up to 16, at least 32) and hashbrown's (buckets the next power of
//! two above 8/7 of the entries, one control byte each).

use super::Footprint;
use crate::structures::bloom::theory;
use crate::workload::KeyType;

/// Bytes of one key of the type (decimal keys `key-<n>`: about 11).
pub fn key_len(k: KeyType) -> f64 {
    match k {
        KeyType::U32 => 4.0,
        KeyType::U64 => 8.0,
        KeyType::Url100 => 100.0,
        KeyType::Blob2k => 2048.0,
        KeyType::Decimal => 11.0,
        KeyType::Bytes16 => 16.0,
        KeyType::File(i) => crate::workload::file::get(i).mean_len(),
    }
}

/// The heap chunk of one allocation of `len` bytes.
pub fn chunk(len: f64) -> f64 {
    ((len + 8.0) / 16.0).ceil().max(2.0) * 16.0
}

/// A hashbrown table holding `n` entries of `slot` bytes.
pub fn table(n: f64, slot: f64) -> f64 {
    if n <= 0.0 {
        return 0.0;
    }
    let buckets = if n < 4.0 {
        4.0
    } else if n < 8.0 {
        8.0
    } else {
        (n * 8.0 / 7.0).ceil().log2().ceil().exp2()
    };
    chunk(buckets * slot + buckets + 16.0)
}

/// An exact set of `n` keys of the type, stored the natural way (integers
/// inline, strings and blobs as owned heap buffers).
pub fn exact_set(n: f64, k: KeyType) -> f64 {
    match k {
        KeyType::U32 => table(n, 4.0),
        KeyType::U64 => table(n, 8.0),
        KeyType::Bytes16 => table(n, 16.0),
        _ => table(n, 24.0) + n * chunk(key_len(k)),
    }
}

/// A set of `n` boxed byte keys (`Box<[u8]>`: 16-byte slots).
pub fn boxed_set(n: f64, k: KeyType) -> f64 {
    table(n, 16.0) + n * chunk(key_len(k))
}

/// Bytes of an `m`-bit Bloom filter (64-bit words).
pub fn bloom_bytes(m_bits: f64) -> f64 {
    (m_bits / 64.0).ceil() * 8.0
}

/// Bits of a Bloom filter for `n` keys at rate `p` (the chapter's m).
pub fn bloom_bits(n: u64, p: f64) -> f64 {
    theory::optimal_m(n, p) as f64
}

/// 6-bit packed HyperLogLog registers at precision `p`.
pub fn hll_bytes(p: u32) -> f64 {
    (1u64 << p) as f64 * 6.0 / 8.0
}

impl Footprint {
    /// One structure of `bytes` that is also the trial's peak, costing `work` operations.
    pub fn one(bytes: f64, work: f64) -> Footprint {
        Footprint {
            structure_bytes: bytes,
            peak_bytes: bytes,
            work,
        }
    }

    /// The same, plus `bytes` more at the peak (buffers, ground truth, peers).
    pub fn plus(self, bytes: f64) -> Footprint {
        Footprint {
            peak_bytes: self.peak_bytes + bytes,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::alloc::measure_retained;
    use std::collections::HashSet;

    #[test]
    fn the_allocator_model_is_within_a_few_percent_when_counted() {
        // only meaningful where the counting allocator is installed (the binary,
        // the integration tests): here it checks the arithmetic
        assert_eq!(chunk(1.0), 32.0);
        assert_eq!(chunk(100.0), 112.0);
        assert_eq!(table(1000.0, 8.0), chunk(2048.0 * 9.0 + 16.0));
        let (set, bytes) = measure_retained(|| (0..100_000u64).collect::<HashSet<u64>>());
        drop(set);
        if let Some(b) = bytes {
            let est = exact_set(100_000.0, KeyType::U64);
            assert!((b as f64 / est - 1.0).abs() < 0.05, "{b} vs {est}");
        }
    }
}
