//! Scalable Bloom filter formulas (Almeida et al. 2007, §4).

/// The compound false-positive bound Σ_i P0·r^i = P0/(1 − r).
pub fn bound(p0: f64, ratio: f64) -> f64 {
    p0 / (1.0 - ratio)
}

/// The false-positive rate of the chain from each stage's own rate:
/// 1 − Π(1 − p_i) (a query is a false positive if any stage says yes).
pub fn compound(stage_fprs: &[f64]) -> f64 {
    1.0 - stage_fprs.iter().map(|p| 1.0 - p).product::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_and_compound() {
        assert!((bound(0.001, 0.9) - 0.01).abs() < 1e-15);
        let stages: Vec<f64> = (0..50).map(|i| 0.001 * 0.9f64.powi(i)).collect();
        assert!(compound(&stages) < bound(0.001, 0.9));
    }
}
