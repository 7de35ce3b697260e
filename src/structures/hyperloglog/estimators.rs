//! Cardinality estimators, all computed from the register histogram
//! (hist[k] = number of registers holding k), so one sketch reports them side
//! by side.

use super::theory;

/// The raw estimate α_m·m²/Σ_k hist[k]·2^(−k) (Flajolet et al. 2007).
pub fn raw(hist: &[u32], m: usize) -> f64 {
    let sum: f64 = hist
        .iter()
        .enumerate()
        .map(|(k, &c)| c as f64 * 2f64.powi(-(k as i32)))
        .sum();
    theory::raw_estimate(m, sum)
}

/// The raw estimate, switched to linear counting m·ln(m/V) when it is at most
/// 2.5·m and V = hist[0] > 0 registers are still zero (Flajolet et al. 2007;
/// no large-range correction with a 64-bit hash).
pub fn linear_counting(hist: &[u32], m: usize) -> f64 {
    let e = raw(hist, m);
    let v = hist.first().copied().unwrap_or(0) as usize;
    if e <= 2.5 * m as f64 && v > 0 {
        theory::linear_counting(m, v)
    } else {
        e
    }
}

/// Ertl's σ(x) = x + Σ_{k≥1} x^(2^k)·2^(k−1) (arXiv:1702.01284, Eq. 11).
pub fn sigma(x: f64) -> f64 {
    if x == 1.0 {
        return f64::INFINITY;
    }
    let (mut x, mut y, mut z) = (x, 1.0, x);
    loop {
        x *= x;
        let before = z;
        z += x * y;
        y += y;
        if z == before {
            return z;
        }
    }
}

/// Ertl's τ(x) = (1 − x − Σ_{k≥1} (1 − x^(2^−k))²·2^(−k))/3 (Eq. 13).
pub fn tau(x: f64) -> f64 {
    if x == 0.0 || x == 1.0 {
        return 0.0;
    }
    let (mut x, mut y, mut z) = (x, 1.0, 1.0 - x);
    loop {
        x = x.sqrt();
        let before = z;
        y *= 0.5;
        z -= (1.0 - x).powi(2) * y;
        if z == before {
            return z / 3.0;
        }
    }
}

/// Ertl's improved estimator (no tables, no thresholds): α_∞·m²/z with
/// z = m·τ(1 − hist[q+1]/m) folded through the histogram and m·σ(hist[0]/m),
/// α_∞ = 1/(2 ln 2). `q` = 64 − p is the largest rank minus one. This is what
/// Redis ≥ 5 computes for PFCOUNT (before rounding).
pub fn ertl(hist: &[u32], m: usize, q: usize) -> f64 {
    let mf = m as f64;
    let h = |k: usize| hist.get(k).copied().unwrap_or(0) as f64;
    let mut z = mf * tau((mf - h(q + 1)) / mf);
    for j in (1..=q).rev() {
        z += h(j);
        z *= 0.5;
    }
    z += mf * sigma(h(0) / mf);
    0.5 / std::f64::consts::LN_2 * mf * mf / z
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_tiny_sketches() {
        let m = 16_384;
        let mut hist = vec![0u32; 52];
        hist[0] = m as u32;
        assert_eq!(linear_counting(&hist, m), 0.0);
        assert_eq!(ertl(&hist, m, 50), 0.0);
        // one register at rank 1: linear counting m ln(m/(m-1)) ≈ 1
        hist[0] -= 1;
        hist[1] = 1;
        assert!((linear_counting(&hist, m) - 1.0).abs() < 1e-3);
        assert!(
            (ertl(&hist, m, 50) - 1.0).abs() < 0.01,
            "{}",
            ertl(&hist, m, 50)
        );
        assert_eq!(sigma(0.0), 0.0);
        assert_eq!(tau(1.0), 0.0);
    }
}
