//! Rank-and-select quotient filter (the `qfilter` crate): a key's
//! fingerprint is split into a quotient q (its home slot among 2^q) and an
//! r-bit remainder stored there. A key not in the set matches when some
//! stored key has its quotient and remainder; with load α = n / 2^q that
//! happens with probability 1 − e^(−α / 2^r) ≤ 2^−r.
//!
//! * P. Pandey, M. A. Bender, R. Johnson, R. Patro, "A General-Purpose
//!   Counting Filter: Making Every Bit Count", SIGMOD 2017 (the RSQF; its
//!   false-positive bound is 2^−r, 2.125 metadata bits per slot).

/// False-positive rate at load α with r remainder bits: 1 − e^(−α/2^r).
pub fn fpr(load: f64, remainder_bits: u32) -> f64 {
    -(-load / 2f64.powi(remainder_bits as i32)).exp_m1()
}

/// Bits per slot: the remainder plus 2.125 bits of metadata.
pub fn bits_per_slot(remainder_bits: u32) -> f64 {
    remainder_bits as f64 + 2.125
}

/// The (q, r) `qfilter` 0.3 chooses for `n` keys at rate `eps`
/// (`Filter::new`): 2^q slots, the smallest power of two (at least 64)
/// whose ⌈0.95·2^q⌉ holds n, and r = ⌈log2(1/ε)⌉ remainder bits (ε clamped
/// to [2^−64, 1/2]). `None` past 64 fingerprint bits.
pub fn qfilter_qr(n: u64, eps: f64) -> Option<(u32, u32)> {
    let mut slots = n.checked_next_power_of_two()?.max(64);
    while (slots.checked_mul(19)?).div_ceil(20) < n {
        slots = slots.checked_mul(2)?;
    }
    let r = (-eps.clamp(2f64.powi(-64), 0.5).log2()).ceil().max(1.0) as u32;
    let q = slots.trailing_zeros();
    (q + r <= 64).then_some((q, r))
}

/// Bytes of `qfilter`'s table for 2^q slots of r bits: blocks of 64 slots,
/// each 17 bytes of metadata and 8·r bytes of remainders, plus 8.
pub fn qfilter_bytes(q: u32, r: u32) -> u64 {
    ((1u64 << q) / 64) * (17 + 8 * r as u64) + 8
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rate_is_below_two_to_the_minus_r_and_near_load_over_two_to_the_r() {
        let p = super::fpr(0.9, 7);
        assert!(p < 2f64.powi(-7));
        assert!((p / (0.9 / 128.0) - 1.0).abs() < 0.01);
        assert_eq!(super::bits_per_slot(7), 9.125);
    }
}
