//! Bloom-filter formulas. Sources: the textbook chapter (doc 000, §14.2) and
//! the essay (doc 002, "The trade"); both state the same formulas.

use std::f64::consts::LN_2;

/// False-positive probability of a filter with `m` bits and `k` hashes after
/// `n` insertions: p ≈ (1 − e^(−kn/m))^k (doc 000 §14.2; doc 002).
///
/// This is the standard approximation (it treats bit states as independent);
/// it is accurate for the sizes sketchlab measures, and the studies show how well.
pub fn fpr(n: f64, m: f64, k: f64) -> f64 {
    if n <= 0.0 {
        return 0.0;
    }
    (1.0 - (-k * n / m).exp()).powf(k)
}

/// The real-valued optimal number of hashes, k* = (m/n)·ln 2 (doc 000 §14.2).
pub fn optimal_k(m: f64, n: f64) -> f64 {
    m / n * LN_2
}

/// The integer k the chapter's code uses: `max(1, round((m/n)·ln 2))`, with
/// Python's `round` (halves to even).
pub fn optimal_k_int(m: u64, n: u64) -> u32 {
    let k = round_half_even(optimal_k(m as f64, n as f64));
    k.max(1.0) as u32
}

/// Bits needed for `n` keys at false-positive rate `p`:
/// m = ceil(−n·ln p / (ln 2)²) (doc 000's `BloomFilter.__init__`).
/// 9,585,059 bits for n = 10⁶, p = 1%.
pub fn optimal_m(n: u64, p: f64) -> u64 {
    (-(n as f64) * p.ln() / (LN_2 * LN_2)).ceil() as u64
}

/// Bits per element at the optimum: −log2(p)/ln 2 ≈ 1.44·log2(1/p)
/// (doc 000 "Space"; doc 002 "m/n = −1.44·log2(p)"). 9.585 for p = 1%.
pub fn bits_per_element(p: f64) -> f64 {
    -p.log2() / LN_2
}

/// The cost of one more decimal digit of accuracy: ln 10/(ln 2)² = 4.7925 bits
/// per element (the essay rounds it to 4.79; "1.44·log2(10)" with the rounded
/// 1.44 would be 4.784) (doc 002: "Each factor of ten in accuracy costs a flat 4.79 bits").
pub fn bits_per_decade() -> f64 {
    bits_per_element(0.1) - bits_per_element(1.0)
}

/// Expected fraction of bits set after `n` insertions: 1 − e^(−kn/m).
/// Exactly ½ at k = k* (doc 000: "the array is exactly half full").
pub fn expected_fill(n: f64, m: f64, k: f64) -> f64 {
    1.0 - (-k * n / m).exp()
}

/// Expected fill with k probes thrown uniformly and independently,
/// 1 − (1 − 1/m)^(kn): the exact mean for independent probes, used for tiny m
/// where e^(−kn/m) is a poor approximation.
pub fn expected_fill_exact(n: f64, m: f64, k: f64) -> f64 {
    1.0 - (1.0 - 1.0 / m).powf(k * n)
}

/// Probability that `draws` independent uniform probes into `m` slots cover
/// every slot (inclusion–exclusion). Used for the essay's "all sixteen bits
/// are ones within three inserts" with ten hashes.
pub fn prob_all_covered(m: u32, draws: u32) -> f64 {
    let mut total = 0.0;
    let mut binom = 1.0; // C(m, j)
    for j in 0..=m {
        let term = binom * (1.0 - j as f64 / m as f64).powi(draws as i32);
        total += if j % 2 == 0 { term } else { -term };
        binom = binom * (m - j) as f64 / (j + 1) as f64;
    }
    total.clamp(0.0, 1.0)
}

/// The false-positive rate of a blocked Bloom filter: m bits in blocks of B
/// bits, each key's k probes inside one block chosen by a hash. A block holds
/// Poisson(λ = nB/m) keys, and a query is a false positive with the standard
/// formula for that block: Σ_i P(i keys)·(1 − (1 − 1/B)^(k·i))^k (distinct
/// probes within the block).
///
/// Reference: F. Putze, P. Sanders, J. Singler, "Cache-, Hash- and
/// Space-Efficient Bloom Filters", WEA 2007, §3 (Eq. 3).
pub fn fpr_blocked(n: f64, m: f64, k: f64, block_bits: f64) -> f64 {
    poisson_mix(n * block_bits / m, |i| {
        (1.0 - (1.0 - 1.0 / block_bits).powf(k * i)).powf(k)
    })
}

/// Σ_i P(Poisson(λ) = i)·term(i), summed outward from the mode until the
/// terms vanish: the false-positive rate of a filter whose blocks hold
/// Poisson(λ) keys and answer `term(i)` when holding i.
fn poisson_mix(lambda: f64, term: impl Fn(f64) -> f64) -> f64 {
    let ln_p = |i: f64| -lambda + i * lambda.ln() - ln_gamma1(i);
    let mode = lambda.floor();
    let mut total = 0.0;
    let mut i = mode;
    loop {
        let p = ln_p(i).exp();
        total += p * term(i);
        if (p < 1e-18 && i > lambda) || i > mode + 100_000.0 {
            break;
        }
        i += 1.0;
    }
    let mut i = mode - 1.0;
    while i >= 0.0 {
        let p = ln_p(i).exp();
        total += p * term(i);
        if p < 1e-18 {
            break;
        }
        i -= 1.0;
    }
    total
}

/// The false-positive rate of Parquet's split block Bloom filter: `blocks`
/// blocks of eight 32-bit words; a key sets one bit in each word of one
/// block, so a block holding i keys answers a stranger with probability
/// (1 − (31/32)^i)^8. The spec's example: 1,024 blocks holding 26,214 keys
/// (10 bits per key) err "around 1.26%" (tested).
///
/// Reference: Apache Parquet, `BloomFilter.md` ("Sizing an SBBF").
pub fn fpr_split_block(n: f64, blocks: f64) -> f64 {
    poisson_mix(n / blocks, |i| (1.0 - (31.0f64 / 32.0).powf(i)).powi(8))
}

/// The bitset bytes Parquet writers (arrow-rs `parquet`, parquet-mr) give
/// an SBBF for `ndv` distinct values at `fpp`: ⌊−8·ndv / ln(1 − fpp^(1/8))⌋
/// bits (the formula of an unblocked filter with k = 8), in whole bytes,
/// clamped to [32 B, 128 MiB] and rounded up to a power of two.
pub fn split_block_bytes(ndv: u64, fpp: f64) -> u64 {
    let bits = (-8.0 * ndv as f64 / (1.0 - fpp.powf(1.0 / 8.0)).ln()) as u64;
    (bits / 8).clamp(32, 128 << 20).next_power_of_two()
}

/// The bits a blocked Bloom filter of `block_bits`-bit blocks needs to reach
/// `p` for `n` keys by its own formula ([`fpr_blocked`], k = round((m/n)·ln 2)):
/// the smallest whole number of blocks, searched upward in steps of 0.5%
/// from the standard filter's m; `None` when 7× that m (400 steps) does not
/// reach it (small blocks saturate at very low ε).
pub fn blocked_m_for(n: u64, p: f64, block_bits: u64) -> Option<u64> {
    let start = optimal_m(n.max(1), p) as f64;
    (0..400).find_map(|i| {
        let m = ((start * 1.005f64.powi(i)).ceil() as u64).div_ceil(block_bits) * block_bits;
        let k = optimal_k_int(m, n.max(1)) as f64;
        (fpr_blocked(n as f64, m as f64, k, block_bits as f64) <= p).then_some(m)
    })
}

/// ln(i!) for a non-negative integer-valued float: the exact sum up to
/// 1,000 (every block occupancy a sized filter has), Lanczos' ln Γ(i + 1)
/// beyond (a degenerate filter of one block and 10^6 keys would otherwise
/// take O(λ^1.5) logarithms).
fn ln_gamma1(i: f64) -> f64 {
    if i <= 1000.0 {
        (2..=i as u64).map(|j| (j as f64).ln()).sum()
    } else {
        statrs::function::gamma::ln_gamma(i + 1.0)
    }
}

/// Euler's totient φ(d).
fn totient(mut d: u64) -> u64 {
    let mut out = d;
    let mut f = 2;
    while f * f <= d {
        if d.is_multiple_of(f) {
            while d.is_multiple_of(f) {
                d /= f;
            }
            out -= out / f;
        }
        f += 1;
    }
    if d > 1 {
        out -= out / d;
    }
    out
}

/// The false-positive rate of double hashing `(h1 + i·h2) mod m` with h1, h2
/// uniform, at fill ρ = 1 − e^(−kn/m): a query whose step h2 mod m has order d
/// < k in Z_m tests only d distinct bits, and φ(d) of the m steps have order
/// d, so FPR = ρ^k + Σ_{d | m, d < k} φ(d)·(ρ^d − ρ^k)/m. The sum is the
/// excess over [`fpr`]: invisible at large m, ~2× at m = 2.4e5, k = 17. (It
/// neglects the smaller fill that short-order inserts leave, so it slightly
/// overstates the excess.)
///
/// Reference: P. C. Dillinger and P. Manolios, "Bloom Filters in
/// Probabilistic Verification", FMCAD 2004, §3 (the repeated-probe problem of
/// plain double hashing); Kirsch & Mitzenmacher (ESA 2006) prove the loss
/// vanishes as m → ∞.
pub fn fpr_double_hashing(n: f64, m: u64, k: u32) -> f64 {
    let rho = expected_fill(n, m as f64, k as f64);
    let base = rho.powi(k as i32);
    let mut excess = 0.0;
    let mut d = 1u64;
    while d < k as u64 && d <= m {
        if m.is_multiple_of(d) {
            excess += totient(d) as f64 * (rho.powi(d as i32) - base) / m as f64;
        }
        d += 1;
    }
    base + excess
}

/// Bits set by `inserts` keys under double hashing in a table of `m ≤ 20`
/// slots with h1, h2 uniform mod m, computed exactly by enumerating every
/// (h1, h2) per key: the mean number of bits set and P(all m set).
/// `None` when m is too large to enumerate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cover {
    pub mean_bits: f64,
    pub p_all: f64,
}

pub fn double_hashing_cover(m: u32, k: u32, inserts: u32) -> Option<Cover> {
    if m == 0 || m > 20 {
        return None;
    }
    let mu = m as u64;
    let masks: Vec<u32> = (0..mu * mu)
        .map(|hh| {
            let (h1, h2) = (hh / mu, hh % mu);
            crate::hashing::double::Probes::new(h1, h2, k, mu).fold(0u32, |acc, p| acc | 1 << p)
        })
        .collect();
    let mut dist = vec![0f64; 1 << m];
    dist[0] = 1.0;
    let w = 1.0 / masks.len() as f64;
    for _ in 0..inserts {
        let mut next = vec![0f64; 1 << m];
        for (state, &pr) in dist.iter().enumerate() {
            if pr > 0.0 {
                for &mk in &masks {
                    next[state | mk as usize] += pr * w;
                }
            }
        }
        dist = next;
    }
    let mean_bits = dist
        .iter()
        .enumerate()
        .map(|(s, pr)| pr * s.count_ones() as f64)
        .sum();
    Some(Cover {
        mean_bits,
        p_all: dist[(1usize << m) - 1],
    })
}

/// Fraction of lookups that reach the authoritative store behind a filter
/// with false-positive rate `p` at hit rate `h`: h + (1 − h)·p (doc 002,
/// "The economics").
pub fn store_traffic(h: f64, p: f64) -> f64 {
    h + (1.0 - h) * p
}

/// Python 3's `round()` for floats: nearest integer, halves to even.
pub fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_filters_pay_for_their_block_load() {
        // 10 bits per key, k = 7, 512-bit blocks: above the standard 0.82%,
        // by a factor that grows with m/n
        let std10 = fpr(1e6, 1e7, 7.0);
        let blk10 = fpr_blocked(1e6, 1e7, 7.0, 512.0);
        assert!(blk10 > std10 && blk10 < 1.5 * std10, "{blk10} vs {std10}");
        let (std20, blk20) = (fpr(1e6, 2e7, 14.0), fpr_blocked(1e6, 2e7, 14.0, 512.0));
        assert!(blk20 / std20 > blk10 / std10);
        // a huge block is the standard filter
        let big = fpr_blocked(1e3, 1e4, 7.0, 1e4);
        assert!((big / fpr(1e3, 1e4, 7.0) - 1.0).abs() < 0.05, "{big}");
    }

    #[test]
    fn double_hashing_theory() {
        assert_eq!(totient(1), 1);
        assert_eq!(totient(12), 4);
        assert_eq!(totient(16), 8);
        // a prime m has only d = 1 (step 0) below k: a 1/m term
        let (n, m, k) = (1000.0, 10_007u64, 7);
        let rho = expected_fill(n, m as f64, k as f64);
        let want = rho.powi(7) + (rho - rho.powi(7)) / m as f64;
        assert!((fpr_double_hashing(n, m, k) - want).abs() < 1e-15);
        // large m: no visible excess
        let big = fpr_double_hashing(1e6, 9_585_059, 7);
        assert!((big / fpr(1e6, 9_585_059.0, 7.0) - 1.0).abs() < 1e-5);
        // k = 1: every probe sequence is one bit; double hashing changes nothing
        let c = double_hashing_cover(16, 1, 2).unwrap();
        assert!((c.mean_bits - 16.0 * expected_fill_exact(2.0, 16.0, 1.0)).abs() < 1e-12);
        // m = 16, k = 10, 3 inserts: odd steps give 10 distinct bits, so the
        // bits set exceed the independent-probe expectation
        let c = double_hashing_cover(16, 10, 3).unwrap();
        assert!(c.mean_bits > 16.0 * expected_fill_exact(3.0, 16.0, 10.0));
        assert!(c.p_all > prob_all_covered(16, 30));
    }

    #[test]
    fn chapter_sizing_for_a_million_keys() {
        // doc 000's formulas; doc 002: "9.6 million bits and its seven hashes".
        assert_eq!(optimal_m(1_000_000, 0.01), 9_585_059);
        assert_eq!(optimal_k_int(9_585_059, 1_000_000), 7);
        // 1.2 MB (doc 002): 9,585,059 bits = 1,198,133 bytes.
        let mb = optimal_m(1_000_000, 0.01) as f64 / 8.0 / 1e6;
        assert!((mb - 1.198).abs() < 0.001, "{mb}");
    }

    #[test]
    fn bits_per_element_and_per_decade() {
        assert!((bits_per_element(0.01) - 9.585).abs() < 0.001);
        // "~1.44 × log2(1/p)" (doc 000)
        assert!(
            (bits_per_element(0.01) / (1.0f64 / 0.01).log2() - std::f64::consts::LOG2_E).abs()
                < 1e-12
        );
        // "a flat 4.79 bits per element" (doc 002)
        assert!(
            (bits_per_decade() - 4.79).abs() < 0.005,
            "{}",
            bits_per_decade()
        );
    }

    #[test]
    fn overfill_to_three_million_gives_43_6_percent() {
        // doc 002: "One million keys to three million took that filter from 1% to 43.6%".
        let m = optimal_m(1_000_000, 0.01) as f64;
        let at_cap = fpr(1e6, m, 7.0);
        assert!((at_cap - 0.01).abs() < 0.0001, "{at_cap}");
        let at_3m = fpr(3e6, m, 7.0);
        assert!((at_3m - 0.436).abs() < 0.0005, "{at_3m}");
    }

    #[test]
    fn half_full_at_optimal_k() {
        let (m, n) = (9_585_059.0, 1e6);
        assert!((expected_fill(n, m, optimal_k(m, n)) - 0.5).abs() < 1e-12);
        // with the integer k = 7 the code actually uses, slightly over half
        let f7 = expected_fill(n, m, 7.0);
        assert!(f7 > 0.5 && f7 < 0.52, "{f7}");
    }

    #[test]
    fn essay_economics_298_of_10000() {
        // doc 002: "Traffic to the database: 298 instead of 10,000."
        assert!((10_000.0 * store_traffic(0.02, 0.01) - 298.0).abs() < 1e-9);
        // and at 90% hits the filter removes about one query in ten
        assert!((1.0 - store_traffic(0.9, 0.01) - 0.099).abs() < 1e-9);
    }

    #[test]
    fn fpr_edges() {
        assert_eq!(fpr(0.0, 100.0, 3.0), 0.0);
        assert!(fpr(1e9, 100.0, 3.0) > 0.999_999);
    }

    #[test]
    fn coverage_probability() {
        assert!((prob_all_covered(1, 1) - 1.0).abs() < 1e-12);
        assert_eq!(prob_all_covered(16, 15), 0.0);
        // 2 slots, 2 draws: covered iff the draws differ: 1/2
        assert!((prob_all_covered(2, 2) - 0.5).abs() < 1e-12);
        let p = prob_all_covered(16, 30);
        assert!(p > 0.0 && p < 0.2, "{p}");
    }

    #[test]
    fn python_rounding() {
        assert_eq!(round_half_even(2.5), 2.0);
        assert_eq!(round_half_even(3.5), 4.0);
        assert_eq!(round_half_even(6.64), 7.0);
        assert_eq!(round_half_even(-0.4), -0.0);
    }
}
