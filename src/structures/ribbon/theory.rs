//! Standard ribbon filters (w = 128, r result bits): a key's r-bit result
//! row is the GF(2) dot product of its 128-bit coefficient row with the
//! solution, which for an absent key matches the stored result with
//! probability 2^−r; the table needs only a few percent more slots than
//! keys, so the space sits close to the limit log2(1/ε).
//!
//! * P. C. Dillinger, S. Walzer, "Ribbon filter: practically smaller than
//!   Bloom and Xor", arXiv:2103.02515, 2021 (§4: standard ribbon,
//!   FPR 2^−r; the overhead ratio for w = 128).
//! * The sizing rule is the reference code's (`fastfilter_cpp`'s
//!   `ribbon_impl.h`, RocksDB-derived, `GetBestOverheadFactor` and
//!   `RoundUpNumSlots`) as the `pleat` crate transcribes it: slots =
//!   ⌊(1 + (4 + r/4)/128)·n⌋ rounded up to whole 128-slot blocks, at least
//!   two blocks; the solution holds r bits per slot.

/// Coefficient width w (bits of a coefficient row; slots per block).
pub const W: u64 = 128;

/// The widest result row `pleat` offers.
pub const MAX_R: u32 = 32;

/// False-positive rate of r result bits: 2^−r.
pub fn fpr(r: u32) -> f64 {
    2f64.powi(-(r as i32))
}

/// The fewest result bits with 2^−r ≤ ε, or `None` past [`MAX_R`].
pub fn result_bits(eps: f64) -> Option<u32> {
    (1..=MAX_R).find(|&r| fpr(r) <= eps)
}

/// Slots over keys the reference chooses for w = 128 and r result bits:
/// 1 + (4 + r/4)/128 (about 1.045 at r = 7).
pub fn overhead(r: u32) -> f64 {
    1.0 + (4.0 + r as f64 * 0.25) / (8.0 * 16.0)
}

/// Slots of a standard w = 128 ribbon filter for `n` keys at r result bits.
pub fn slots(n: u64, r: u32) -> u64 {
    let raw = (overhead(r) * n as f64) as u64;
    let mut s = raw.div_ceil(W) * W;
    if s == W {
        s += W;
    }
    s.max(2 * W)
}

/// Bytes of its solution: r bits per slot (r 128-bit words per block).
pub fn bytes(n: u64, r: u32) -> u64 {
    solution_bytes(slots(n, r), r)
}

/// Bytes of the solution of `slots` slots at r result bits.
pub fn solution_bytes(slots: u64, r: u32) -> u64 {
    slots / W * r as u64 * 16
}

#[cfg(test)]
mod tests {
    /// The reference's overhead at r = 7 (1 + 5.75/128) and the blocks it
    /// rounds to: 10^6 keys take 8,164 blocks, 914,368 bytes (7.31 bits
    /// per key against the limit 7).
    #[test]
    fn a_million_keys_at_r_7_take_8164_blocks() {
        assert!((super::overhead(7) - (1.0 + 5.75 / 128.0)).abs() < 1e-15);
        assert_eq!(super::slots(1_000_000, 7), 8_164 * 128);
        assert_eq!(super::bytes(1_000_000, 7), 914_368);
        // tiny sets take the two-block minimum
        assert_eq!(super::slots(10, 7), 256);
        assert_eq!(super::result_bits(0.01), Some(7));
        assert_eq!(super::result_bits(1e-3), Some(10));
        assert_eq!(super::result_bits(1e-10), None);
    }
}
