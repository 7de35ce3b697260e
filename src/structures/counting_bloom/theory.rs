//! Counting Bloom filter formulas.
//!
//! A counter's true count after n insertions of k probes into m counters is
//! Binomial(nk, 1/m) ≈ Poisson(λ = nk/m); at the optimal k, λ = ln 2.

/// P(Poisson(λ) ≥ c), summed in log space (accurate far into the tail, where
/// 1 − CDF would cancel to 0).
pub fn poisson_tail(lambda: f64, c: u32) -> f64 {
    if c == 0 {
        return 1.0;
    }
    // ln P(X = j) = −λ + j ln λ − ln j!
    let mut ln_term = -lambda + c as f64 * lambda.ln() - ln_factorial(c);
    let mut total = 0.0;
    let mut j = c;
    loop {
        let t = ln_term.exp();
        total += t;
        j += 1;
        ln_term += lambda.ln() - (j as f64).ln();
        if t < total * 1e-17 || j > c + 10_000 {
            break;
        }
    }
    total.min(1.0)
}

fn ln_factorial(n: u32) -> f64 {
    (2..=n).map(|i| (i as f64).ln()).sum()
}

/// P(at least one of m counters has a true count above `max`) after n keys of
/// k probes: 1 − (1 − P(Poisson(nk/m) ≥ max + 1))^m, counters treated as
/// independent (they are negatively correlated, so this slightly overstates).
pub fn p_any_overflow(n: f64, m: f64, k: f64, max: u32) -> f64 {
    let q = poisson_tail(n * k / m, max + 1);
    -(m * (-q).ln_1p()).exp_m1()
}

/// Expected number of counters whose true count exceeds `max`: m·P(X ≥ max + 1).
pub fn expected_overflowed_counters(n: f64, m: f64, k: f64, max: u32) -> f64 {
    m * poisson_tail(n * k / m, max + 1)
}

/// Fan et al.'s bound at the optimal k: P(any counter ≥ i) ≤ m·(e·ln 2 / i)^i
/// (Summary Cache, 2000, §V.C: "4 bits per counter are amply sufficient").
pub fn fan_bound(m: f64, i: u32) -> f64 {
    (m * (std::f64::consts::E * std::f64::consts::LN_2 / i as f64).powi(i as i32)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_against_direct_sums() {
        // P(Poisson(1) >= 2) = 1 - 2/e
        assert!((poisson_tail(1.0, 2) - (1.0 - 2.0 / std::f64::consts::E)).abs() < 1e-15);
        assert_eq!(poisson_tail(3.0, 0), 1.0);
        // deep tail: P(Poisson(ln 2) >= 16) = e^-ln2 (ln 2)^16 / 16! (1 + ...)
        let l = std::f64::consts::LN_2;
        let first = 0.5 * l.powi(16) / (2..=16).map(|i| i as f64).product::<f64>();
        let t = poisson_tail(l, 16);
        assert!(t > first && t < first * 1.05, "{t} vs {first}");
    }

    #[test]
    fn the_chapters_design_point_is_vanishingly_rare() {
        // n = 1e6 at 1%: m = 9,585,059, k = 7
        let p = p_any_overflow(1e6, 9_585_059.0, 7.0, 15);
        assert!(p < 1e-8, "{p}");
        assert!(p <= fan_bound(9_585_059.0, 16));
        // overfilled 4x it is not
        assert!(p_any_overflow(4e6, 9_585_059.0, 7.0, 15) > 0.1);
    }
}
