//! Cuckoo filter formulas (Fan et al. 2014, §4–5).

/// The false-positive rate at load α: a query compares its fingerprint with
/// the 2bα expected in its two buckets, each matching with probability
/// 1/(2^f − 1) (fingerprints are uniform over the non-zero values):
/// 1 − (1 − 1/(2^f − 1))^(2bα); the bound at α = 1 is ≈ 2b/2^f.
pub fn fpr(f: u32, b: usize, alpha: f64) -> f64 {
    let q = 1.0 / (2f64.powi(f as i32) - 1.0);
    -((2.0 * b as f64 * alpha) * (-q).ln_1p()).exp_m1()
}

/// The fingerprint length for a target rate ε with buckets of b: ⌈log2(2b/ε)⌉.
pub fn fingerprint_bits(epsilon: f64, b: usize) -> u32 {
    (2.0 * b as f64 / epsilon).log2().ceil() as u32
}

/// The load past which the reference implementation doubles its table:
/// Fan et al.'s `CuckooFilter(max_num_keys)` (efficient/cuckoofilter,
/// `src/cuckoofilter.h`) takes 2^⌈log2(n/4)⌉ buckets and doubles them only
/// when n/(4·buckets) > 0.96. (fastfilter_cpp's copy of that code doubles
/// past 0.94 today.)
pub const DOUBLE_PAST: f64 = 0.96;

/// The buckets of `b` slots the reference implementation allocates for `n`
/// keys: the power of two at or above ⌊n/b⌋ (at least 2: the alternate
/// bucket is an XOR), doubled when that would load it past
/// [`DOUBLE_PAST`]. Its load n/(b·buckets) lies between 0.48 and 0.96.
pub fn buckets_for(n: u64, b: usize) -> usize {
    let mut buckets = (n / b as u64).max(1).next_power_of_two().max(2);
    if n as f64 / (buckets * b as u64) as f64 > DOUBLE_PAST {
        buckets *= 2;
    }
    buckets as usize
}

/// Bits per item at load α with f-bit fingerprints: f/α; the paper's
/// (log2(1/ε) + 3)/α for b = 4 (and + 2 with semi-sorted buckets).
pub fn bits_per_item(f: f64, alpha: f64) -> f64 {
    f / alpha
}

/// The paper's space formula with continuous f: (log2(1/ε) + extra)/α;
/// extra = 3 for b = 4 (log2 2b), 2 with semi-sorting.
pub fn bits_per_item_formula(epsilon: f64, extra: f64, alpha: f64) -> f64 {
    ((1.0 / epsilon).log2() + extra) / alpha
}

/// The ε at which a cuckoo filter ((log2(1/ε) + extra)/α bits) and a Bloom
/// filter (1.44·log2(1/ε) bits) cost the same: below it, cuckoo is smaller.
pub fn crossover_epsilon(extra: f64, alpha: f64) -> f64 {
    // (L + extra)/α = 1.44·L  ⇒  L = extra/(1.44·α − 1), with L = log2(1/ε)
    let l = extra / (1.44 * alpha - 1.0);
    2f64.powf(-l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_sized_for_n_doubles_only_past_96_percent() {
        // the case: 10^6 keys fit 2^18 buckets at load 0.954
        assert_eq!(buckets_for(1_000_000, 4), 1 << 18);
        assert_eq!(buckets_for(10_000_000, 4), 1 << 22);
        assert_eq!(buckets_for(1, 4), 2);
        // just below and just past the doubling load
        let at = (0.96 * 4.0 * (1u64 << 20) as f64) as u64;
        assert_eq!(buckets_for(at, 4), 1 << 20);
        assert_eq!(buckets_for(at + 1, 4), 1 << 21);
        for n in [100u64, 12_345, 1 << 20, 3_000_001, 3_984_589] {
            let load = n as f64 / (buckets_for(n, 4) * 4) as f64;
            assert!(load <= 0.96 && load > 0.96 / 2.0, "n = {n}: load {load}");
        }
    }

    #[test]
    fn paper_numbers() {
        // b = 4, f = 8 at 95% load: ~ 2·4·0.95/256 = 2.9%
        assert!(
            (fpr(8, 4, 0.95) - 0.0293).abs() < 0.001,
            "{}",
            fpr(8, 4, 0.95)
        );
        assert_eq!(fingerprint_bits(0.01, 4), 10);
        // crossover with Bloom's 1.44 log2(1/ε): (L + 3)/α = 1.44 L
        let e = crossover_epsilon(3.0, 0.955);
        let l = (1.0 / e).log2();
        assert!(((l + 3.0) / 0.955 - 1.44 * l).abs() < 1e-9, "{e}");
        assert!(
            e < 0.01,
            "without semi-sorting the crossover is below 1%: {e}"
        );
        let semi = crossover_epsilon(2.0, 0.955);
        assert!(semi > 0.02 && semi < 0.03, "{semi}");
    }
}
