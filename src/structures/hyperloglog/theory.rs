//! HyperLogLog formulas.
//!
//! Reference: P. Flajolet, É. Fusy, O. Gandouet, F. Meunier, "HyperLogLog: the
//! analysis of a near-optimal cardinality estimation algorithm", AofA 2007.

/// The bias constant α_m: 0.673, 0.697, 0.709 for m = 16, 32, 64, and
/// 0.7213/(1 + 1.079/m) for m ≥ 128 (Flajolet et al. 2007, Fig. 3; the
/// chapter's "α_m ≈ 0.7213 / (1 + 1.079/m)").
pub fn alpha(m: usize) -> f64 {
    match m {
        16 => 0.673,
        32 => 0.697,
        64 => 0.709,
        _ => 0.7213 / (1.0 + 1.079 / m as f64),
    }
}

/// The exact α_m = (m·∫₀^∞ log2((2 + u)/(1 + u))^m du)^−1 (Flajolet et al.
/// 2007, Theorem 1), by Simpson's rule over t = m·u ∈ [0, 200] (the
/// integrand is below 10^−15 beyond for m ≥ 16).
pub fn alpha_exact(m: usize) -> f64 {
    let mf = m as f64;
    let f = |t: f64| {
        let u = t / mf;
        ((2.0 + u) / (1.0 + u)).log2().powf(mf)
    };
    let (t_max, steps) = (200.0, 200_000usize);
    let h = t_max / steps as f64;
    let mut sum = f(0.0) + f(t_max);
    for i in 1..steps {
        sum += f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
    }
    1.0 / (sum * h / 3.0)
}

/// The raw estimate α_m·m²/Σ2^(−M[i]) from the register sum.
pub fn raw_estimate(m: usize, sum_inv_pow2: f64) -> f64 {
    let mf = m as f64;
    alpha(m) * mf * mf / sum_inv_pow2
}

/// Linear counting m·ln(m/V) with V registers zero.
pub fn linear_counting(m: usize, zeros: usize) -> f64 {
    let mf = m as f64;
    mf * (mf / zeros as f64).ln()
}

/// The HIP estimator's standard error 0.833/√m (Ting 2014; Ertl 2017).
pub fn hip_standard_error(m: usize) -> f64 {
    0.833 / (m as f64).sqrt()
}

/// The standard error 1.04/√m (doc 000: "Standard error is 1.04/√m").
pub fn standard_error(m: usize) -> f64 {
    1.04 / (m as f64).sqrt()
}

/// The registers the formula 1.04/√m needs for a standard error `e`:
/// (1.04/e)² (doc 002: "1% to 0.1% costs 100x").
pub fn registers_for_error(e: f64) -> f64 {
    (1.04 / e).powi(2)
}

/// The smallest precision p (m = 2^p registers) whose 1.04/√m is at most `e`:
/// what a real sketch must use, registers coming in powers of two.
pub fn precision_for_error(e: f64) -> u32 {
    registers_for_error(e).log2().ceil().max(0.0) as u32
}

/// The registers HIP's 0.833/√m needs for a standard error `e`: (0.833/e)²
/// (Ting 2014; Ertl 2017). Only for a sketch that is never merged.
pub fn hip_registers_for_error(e: f64) -> f64 {
    (0.833 / e).powi(2)
}

/// The smallest precision p whose HIP error 0.833/√(2^p) is at most `e`.
pub fn hip_precision_for_error(e: f64) -> u32 {
    hip_registers_for_error(e).log2().ceil().max(0.0) as u32
}

/// How much one freak register moves an estimate: `m` registers at `base`,
/// one of them raised to `freak`. Returns the relative change of the
/// harmonic-mean (raw HyperLogLog) estimate α·m²/Σ2^(−M) and of an
/// arithmetic-mean estimate ∝ Σ2^M (doc 000: "the harmonic mean suppresses
/// the influence of a single large outlier").
pub fn freak_register_shift(m: usize, base: u8, freak: u8) -> (f64, f64) {
    let mf = m as f64;
    let (b, f) = (2f64.powi(base as i32), 2f64.powi(freak as i32));
    let harmonic = raw_estimate(m, (mf - 1.0) / b + 1.0 / f) / raw_estimate(m, mf / b) - 1.0;
    let arithmetic = ((mf - 1.0) * b + f) / (mf * b) - 1.0;
    (harmonic, arithmetic)
}

/// The smallest memory-variance product (bits of state × relative
/// variance) a distinct-count sketch can have: H₀/I₀ ≈ 1.98 for mergeable
/// ("linearizable") sketches, reached by Fishmonger (S. Pettie, D. Wang,
/// "Information theoretic limits of cardinality estimation: Fisher meets
/// Shannon", STOC 2021), and H₀/2 ≈ 1.63 for estimators that use the
/// sketch's history (HIP, the Martingale transform), which no merge keeps
/// (S. Pettie, D. Wang, L. Yin, "Non-mergeable sketching for cardinality
/// estimation", ICALP 2021). HyperLogLog with 6-bit registers and its
/// 1.04/√m error has 6 × 1.04² ≈ 6.49.
pub fn mvp_lower_bound(mergeable: bool) -> f64 {
    if mergeable { 1.98 } else { 1.63 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenfold_accuracy_and_the_freak_register() {
        // 1% -> 0.1%: the formula's registers grow 100x; real sketches go
        // from p = 14 to p = 21, 128x
        let r = registers_for_error(0.001) / registers_for_error(0.01);
        assert!((r - 100.0).abs() < 1e-9, "{r}");
        assert_eq!(
            (precision_for_error(0.01), precision_for_error(0.001)),
            (14, 21)
        );
        // one register of 16,384 at 20 among registers at 6: the harmonic
        // mean moves by (1 - 2^-14)/16,384 ~ 0.006%, the arithmetic one doubles
        let (h, a) = freak_register_shift(16_384, 6, 20);
        let expect_h = 1.0 / (1.0 - (1.0 - 2f64.powi(-14)) / 16_384.0) - 1.0;
        assert!((h - expect_h).abs() < 1e-12, "{h} {expect_h}");
        assert!(
            (a - (2f64.powi(20) - 64.0) / (16_384.0 * 64.0)).abs() < 1e-12,
            "{a}"
        );
    }

    /// 1% needs 10,816 registers by 1.04/√m (p = 14, Redis's 16,384) and
    /// 6,939 by HIP's 0.833/√m (p = 13).
    #[test]
    fn hip_sizing() {
        assert!((hip_registers_for_error(0.01) - 6_938.89).abs() < 1e-6);
        assert_eq!(hip_precision_for_error(0.01), 13);
        assert_eq!(precision_for_error(0.01), 14);
    }

    #[test]
    fn documents_numbers() {
        // doc 000: m = 16,384 -> 0.81%
        assert!((standard_error(16_384) - 0.008125).abs() < 1e-12);
        assert!((alpha(16_384) - 0.7213 / (1.0 + 1.079 / 16_384.0)).abs() < 1e-15);
        assert_eq!(alpha(16), 0.673);
        // the exact constants round to the paper's 0.673, 0.697, 0.709, and
        // tend to 1/(2 ln 2) = 0.72135
        for (m, a) in [(16, 0.673), (32, 0.697), (64, 0.709)] {
            assert!(
                (alpha_exact(m) - a).abs() < 5e-4,
                "m = {m}: {}",
                alpha_exact(m)
            );
        }
        assert!((alpha_exact(1 << 18) - 0.5 / std::f64::consts::LN_2).abs() < 1e-5);
        // an empty sketch: all m registers zero -> 0
        assert_eq!(linear_counting(1024, 1024), 0.0);
    }
}
