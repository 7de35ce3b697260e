//! What a key set does to a hash: distinct values against the birthday
//! expectation, bucket uniformity (χ²) at a few power-of-two table sizes,
//! and the longest probe of a linear-probing table, each beside a random
//! function's control so a reader sees at once whether the keys break the
//! hash (`sketchlab keys check`, the `key_hashing` kind).

/// Table sizes (log2) whose bucket counts are tested: a small cache, a
/// 2^16 table, a 2^20 one.
pub const CHI2_LOG2: [u32; 3] = [10, 16, 20];

/// z = (χ² − df)/√(2·df) of bucket counts against uniform: |z| ≤ 4 is what
/// a random function gives (a 6e-5 two-sided tail); z > 4: clustered;
/// z < −4: more even than chance (a structured map of structured keys).
pub fn chi2_z(counts: &[u32], n: u64) -> f64 {
    let e = n as f64 / counts.len() as f64;
    let chi2: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
    let df = (counts.len() - 1) as f64;
    (chi2 - df) / (2.0 * df).sqrt()
}

/// Expected colliding pairs among `n` values of a random `width`-bit
/// function: n(n−1)/2 / 2^width (the birthday expectation).
pub fn birthday_pairs(n: u64, width: u32) -> f64 {
    let nf = n as f64;
    nf * (nf - 1.0) / 2.0 / 2f64.powi(width as i32)
}

/// What [`check`] measures of one hash on one key set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HashCheck {
    pub keys: u64,
    pub distinct: u64,
    /// Keys whose full-width value an earlier key already had.
    pub collisions: u64,
    pub collisions_expected: f64,
    /// χ² z of the low bits (`h & (2^b − 1)`, what power-of-two tables use) per [`CHI2_LOG2`].
    pub low_z: [f64; 3],
    /// χ² z of the top 16 bits (what multiply-shift reduction uses).
    pub top16_z: f64,
    /// The fullest of 2^16 low-bit buckets.
    pub max_bucket_16: u32,
    /// The longest probe (slots read by the insert that read the most) in a
    /// linear-probing table of 2^⌈log2 2n⌉ slots indexed by the low bits.
    pub longest_probe: u64,
}

/// Measures `values` (one hash value per key, in the low `width` bits).
pub fn check(values: &[u128], width: u32) -> HashCheck {
    let n = values.len() as u64;
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let distinct = sorted.len() as u64;
    drop(sorted);
    let low_z = CHI2_LOG2.map(|b| {
        let mut counts = vec![0u32; 1 << b];
        values
            .iter()
            .for_each(|&v| counts[(v & ((1 << b) - 1)) as usize] += 1);
        chi2_z(&counts, n)
    });
    let mut low16 = vec![0u32; 1 << 16];
    let mut top16 = vec![0u32; 1 << 16];
    for &v in values {
        low16[(v & 0xffff) as usize] += 1;
        top16[((v >> (width - 16)) & 0xffff) as usize] += 1;
    }
    HashCheck {
        keys: n,
        distinct,
        collisions: n - distinct,
        collisions_expected: birthday_pairs(n, width),
        low_z,
        top16_z: chi2_z(&top16, n),
        max_bucket_16: low16.iter().copied().max().unwrap_or(0),
        longest_probe: longest_probe(values.iter().map(|&v| v as u64), n),
    }
}

/// The longest probe of a linear-probing table of 2^⌈log2 2n⌉ slots (load
/// ≤ ½) filled in order, each value at slot `v & mask`.
pub fn longest_probe(values: impl Iterator<Item = u64>, n: u64) -> u64 {
    let slots = (2 * n.max(1)).next_power_of_two();
    let mask = slots - 1;
    let mut used = vec![false; slots as usize];
    let mut longest = 0;
    for v in values {
        let mut i = v & mask;
        let mut probe = 1;
        while used[i as usize] {
            i = (i + 1) & mask;
            probe += 1;
        }
        used[i as usize] = true;
        longest = longest.max(probe);
    }
    longest
}

/// A random function's values for `n` keys (the control): splitmix64 of a
/// counter from `seed`, truncated to `width` bits.
pub fn random_values(n: u64, width: u32, seed: u64) -> Vec<u128> {
    let mask = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    (0..n)
        .map(|i| {
            let a = crate::hashing::splitmix64(seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let b = crate::hashing::splitmix64(a);
            ((a as u128) << 64 | b as u128) & mask
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_function_passes_and_a_constant_fails() {
        let r = check(&random_values(100_000, 64, 1), 64);
        assert_eq!(r.collisions, 0);
        assert!(r.low_z.iter().all(|z| z.abs() < 4.0), "{r:?}");
        assert!(r.top16_z.abs() < 4.0);
        // linear probing at load 1/2: the longest probe is O(log n)
        assert!(r.longest_probe < 60, "{r:?}");
        let c = check(&vec![7u128; 1000], 64);
        assert_eq!((c.distinct, c.collisions, c.longest_probe), (1, 999, 1000));
        assert!(c.low_z[0] > 100.0);
    }

    #[test]
    fn identity_of_sequential_ids_is_too_even() {
        let v: Vec<u128> = (0..(1u128 << 16)).collect();
        let r = check(&v, 64);
        assert_eq!(r.longest_probe, 1);
        assert!(
            r.low_z[1] < -4.0,
            "every 2^16 bucket holds exactly one: {r:?}"
        );
        assert!(r.top16_z > 100.0, "all in bucket 0 of the top bits");
    }

    #[test]
    fn birthday_expectation() {
        assert!((birthday_pairs(65_536, 32) - 0.5).abs() < 1e-3);
    }
}
