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

#[cfg(test)]
mod tests {
    #[test]
    fn an_8_bit_fingerprint_matches_one_key_in_256_and_sits_23_percent_over_the_limit() {
        assert_eq!(super::fpr(8), 1.0 / 256.0);
        assert_eq!(super::limit_bits_per_key(super::fpr(8)), 8.0);
        assert!((super::xor_bits_per_key(8) / 8.0 - 1.23).abs() < 1e-12);
    }
}
