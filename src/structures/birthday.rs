//! Birthday-bound arithmetic (doc 002, "The arithmetic: the birthday bound
//! sizes all of it"). N equally likely values, m items drawn at random.

use std::f64::consts::{LN_2, PI};

/// P(at least one collision) ≈ 1 − e^(−m²/2N) (doc 002).
pub fn p_collision_approx(m: f64, n: f64) -> f64 {
    -(-m * m / (2.0 * n)).exp_m1()
}

/// The exact P(at least one collision) = 1 − ∏_{i<m} (1 − i/N), summed in
/// log space (m up to ~10^8 in reasonable time).
pub fn p_collision_exact(m: u64, n: f64) -> f64 {
    if m as f64 > n {
        return 1.0;
    }
    let log_none: f64 = (1..m).map(|i| (-(i as f64) / n).ln_1p()).sum();
    -log_none.exp_m1()
}

/// Expected number of colliding pairs, m(m−1)/2N ("you count items and the
/// arithmetic counts pairs").
pub fn expected_pairs(m: f64, n: f64) -> f64 {
    m * (m - 1.0) / (2.0 * n)
}

/// Items at which P(collision) reaches `p`: √(2N·ln(1/(1−p))).
/// For p = ½ this is √(2 ln 2)·√N ≈ 1.177·√N (doc 002).
pub fn items_for_probability(p: f64, n: f64) -> f64 {
    (2.0 * n * -(-p).ln_1p()).sqrt()
}

/// Items at which one collision is expected: the m solving m(m−1)/2N = 1.
pub fn items_for_one_expected(n: f64) -> f64 {
    (1.0 + (1.0 + 8.0 * n).sqrt()) / 2.0
}

/// Median number of items drawn up to and including the first repeat,
/// ≈ √(2N ln 2) (77,163 for N = 2^32).
pub fn median_first_collision(n: f64) -> f64 {
    (2.0 * n * LN_2).sqrt()
}

/// Mean number of items up to the first repeat, ≈ √(πN/2) (Ramanujan's Q function).
pub fn mean_first_collision(n: f64) -> f64 {
    (PI * n / 2.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_three_people() {
        // doc 002: "Twenty-three people ... more likely than not ... 253 pairs"
        let p = p_collision_exact(23, 365.0);
        assert!(p > 0.5 && (p - 0.5073).abs() < 1e-4, "{p}");
        assert_eq!(23 * 22 / 2, 253);
        assert!(p_collision_exact(22, 365.0) < 0.5);
    }

    #[test]
    fn thirty_two_bits() {
        // doc 002: "1.177 · √N" and "Seventy-seven thousand"
        let n = 2f64.powi(32);
        assert!((items_for_probability(0.5, n) / n.sqrt() - 1.1774).abs() < 1e-4);
        assert!((median_first_collision(n) - 77_163.0).abs() < 1.0);
        assert!((mean_first_collision(n) - 82_137.0).abs() < 1.0);
        assert!((p_collision_approx(77_163.0, n) - 0.5).abs() < 1e-4);
    }

    #[test]
    fn uuid_arithmetic() {
        // doc 002: "2^61 is about 2.3 × 10^18 UUIDs, so at a billion per second you wait 73 years"
        let sqrt_n = 2f64.powi(61);
        assert!((sqrt_n / 1e18 - 2.306).abs() < 0.001);
        let years = sqrt_n / 1e9 / (365.25 * 86_400.0);
        assert!((years - 73.07).abs() < 0.01, "{years}");
    }

    #[test]
    fn approximations_agree_when_m_is_small() {
        let n = 1e12;
        for m in [10u64, 1000, 100_000] {
            let mf = m as f64;
            let e = p_collision_exact(m, n);
            // 1 - e^(-m(m-1)/2N) is the sharper form; m²/2N differs from it by m/(m-1)
            assert!(
                (e - -(-expected_pairs(mf, n)).exp_m1()).abs() / e < 1e-3,
                "{m}"
            );
            assert!(
                (p_collision_approx(mf, n) / e - mf / (mf - 1.0)).abs() < 1e-3,
                "{m}"
            );
        }
        assert!((items_for_one_expected(2f64.powi(32)) - 92_682.5).abs() < 1.0);
    }
}
