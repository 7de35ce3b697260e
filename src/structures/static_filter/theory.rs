//! Xor and binary fuse filters: a key's f-bit fingerprint is the XOR of 3
//! (xor) or 3–4 (binary fuse) table slots, so a key not in the set matches
//! with probability 2^−f, whatever the load.
//!
//! * T. M. Graf, D. Lemire, "Xor Filters: Faster and Smaller Than Bloom and
//!   Cuckoo Filters", ACM JEA 25, 2020: 1.23·f bits per key.
//! * T. M. Graf, D. Lemire, "Binary Fuse Filters: Fast and Smaller Than Xor
//!   Filters", ACM JEA 27, 2022: about 1.125·f bits per key for large n
//!   (arity 3), more for small n.

/// False-positive rate of an f-bit fingerprint: 2^−f.
pub fn fpr(fingerprint_bits: u32) -> f64 {
    2f64.powi(-(fingerprint_bits as i32))
}

/// Bits per key of a xor filter: 1.23·f (its table has 1.23·n + 32 slots).
pub fn xor_bits_per_key(fingerprint_bits: u32) -> f64 {
    1.23 * fingerprint_bits as f64
}

/// The information-theoretic bits per key at rate ε: log2(1/ε).
pub fn limit_bits_per_key(fpr: f64) -> f64 {
    -fpr.log2()
}

/// Fingerprint slots `xorf` 0.13 allocates for a xor filter of `n` keys
/// (`src/prelude/xor.rs`, the port of Graf & Lemire's `xorfilter.go`):
/// ⌊1.23·n⌋ + 32, rounded down to a multiple of 3 (three equal blocks).
pub fn xor_slots(n: u64) -> u64 {
    ((1.23 * n as f64) as u64 + 32) / 3 * 3
}

/// The segment length of `xorf`'s arity-3 binary fuse filter for `n` keys
/// (`src/prelude/bfuse.rs`, after Graf & Lemire 2022, §4 and
/// `binaryfusefilter.go`): 2^⌊ln n/ln 3.33 + 2.25⌋, at most 2^18.
pub fn fuse_segment_length(n: u64) -> u64 {
    if n == 0 {
        return 4;
    }
    (1u64 << ((n as f64).ln() / 3.33f64.ln() + 2.25).floor() as u32).min(262_144)
}

/// The size factor of `xorf`'s arity-3 binary fuse filter for `n` keys:
/// max(1.125, 0.875 + 0.25·ln 10^6/ln n). It is 1.375 at n = 10^3 and
/// reaches the asymptotic 1.125 only from n = 10^6 up.
pub fn fuse_size_factor(n: u64) -> f64 {
    (0.875 + 0.25 * 1e6f64.ln() / (n as f64).ln()).max(1.125)
}

/// Fingerprint slots `xorf` 0.13 allocates for an arity-3 binary fuse
/// filter of `n` distinct keys: ⌈round(n·size factor)/L⌉ segments of length
/// L, of which the first arity − 1 only pad (at least one segment is kept),
/// so (segments + 2)·L slots.
pub fn binary_fuse_slots(n: u64) -> u64 {
    let length = fuse_segment_length(n);
    let capacity = if n > 1 {
        (n as f64 * fuse_size_factor(n)).round() as u64
    } else {
        0
    };
    let proposed = capacity.div_ceil(length);
    let segments = if proposed < 3 { 1 } else { proposed - 2 };
    (segments + 2) * length
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_8_bit_fingerprint_matches_one_key_in_256_and_sits_23_percent_over_the_limit() {
        assert_eq!(super::fpr(8), 1.0 / 256.0);
        assert_eq!(super::limit_bits_per_key(super::fpr(8)), 8.0);
        assert!((super::xor_bits_per_key(8) / 8.0 - 1.23).abs() < 1e-12);
    }

    /// The worked case: at n = 10^3 the size factor is 1.375 and a
    /// BinaryFuse8 takes 1,408 bytes (11 segments of 128), not 1.125·n.
    #[test]
    fn small_binary_fuse_filters_are_not_asymptotic() {
        assert!((super::fuse_size_factor(1000) - 1.375).abs() < 1e-12);
        assert_eq!(super::fuse_segment_length(1000), 128);
        assert_eq!(super::binary_fuse_slots(1000), 1408);
        assert_eq!(super::fuse_size_factor(10_000_000), 1.125);
        assert_eq!(super::xor_slots(1000), 1260);
    }
}
