//! t-digest formulas (Dunning & Ertl 2019).
//!
//! Reference: T. Dunning, O. Ertl, "Computing extremely accurate quantiles
//! using t-digests", arXiv:1902.04023 (2019).

/// The k1 (arcsine) scale function k(q) = δ/(2π)·asin(2q − 1).
pub fn k1(q: f64, compression: f64) -> f64 {
    compression / (2.0 * std::f64::consts::PI) * (2.0 * q - 1.0).clamp(-1.0, 1.0).asin()
}

/// The largest centroid weight share k1 allows at quantile q: a centroid
/// spanning Δk = 1 around q covers about (2π/δ)·√(q(1 − q)) of the mass,
/// which is why accuracy is highest at the extremes.
pub fn max_share(q: f64, compression: f64) -> f64 {
    2.0 * std::f64::consts::PI / compression * (q * (1.0 - q)).sqrt()
}

/// K2's normalizer η for compression δ at n values, as Dunning's reference
/// `MergingDigest` (and DataSketches) apply it: η = 2δ / (4·ln(n/2δ) + 24).
pub fn k2_normalizer(compression: f64, n: f64) -> f64 {
    let c = 2.0 * compression;
    c / (4.0 * (n / c).max(1.0).ln() + 24.0)
}

/// The largest share of the stream K2 lets a centroid hold at quantile q:
/// q(1 − q)/η, the reciprocal slope of k2(q) = ln(q/(1 − q))/η.
pub fn k2_share(q: f64, normalizer: f64) -> f64 {
    q * (1.0 - q) / normalizer
}

/// Half the largest share of the stream a centroid may hold at q under
/// `scale` (compression δ, n values): the rank error of an interpolation
/// inside one centroid.
pub fn half_centroid(scale: super::Scale, q: f64, compression: f64, n: f64) -> f64 {
    match scale {
        super::Scale::K1 => max_share(q, compression) / 2.0,
        super::Scale::K2 => k2_share(q, k2_normalizer(compression, n)) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_function() {
        assert_eq!(k1(0.5, 100.0), 0.0);
        assert!((k1(1.0, 100.0) - 25.0).abs() < 1e-12);
        assert!((k1(0.0, 100.0) + 25.0).abs() < 1e-12);
        assert!(max_share(0.999, 100.0) < max_share(0.5, 100.0) / 10.0);
    }
}
