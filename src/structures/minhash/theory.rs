//! MinHash formulas (Broder 1997).
//!
//! Reference: A. Z. Broder, "On the resemblance and containment of
//! documents", Compression and Complexity of Sequences 1997.

/// Exact Jaccard similarity |A∩B|/|A∪B| of two sorted, deduplicated slices
/// (1 for two empty sets).
pub fn jaccard<T: Ord>(a: &[T], b: &[T]) -> f64 {
    let (mut i, mut j, mut inter) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                inter += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = a.len() + b.len() - inter;
    if union == 0 {
        1.0
    } else {
        inter as f64 / union as f64
    }
}

/// The standard error of the k-minima estimate: √(J(1 − J)/k) (each of the
/// k minima agrees with probability J, independently).
pub fn standard_error(j: f64, k: usize) -> f64 {
    (j * (1.0 - j) / k as f64).sqrt()
}

/// The chapter's rule of thumb: "within about 1/√k".
pub fn rule_of_thumb(k: usize) -> f64 {
    1.0 / (k as f64).sqrt()
}

/// LSH banding: P(a pair of similarity s becomes a candidate) with b bands
/// of r rows: 1 − (1 − s^r)^b.
pub fn band_probability(s: f64, bands: usize, rows: usize) -> f64 {
    1.0 - (1.0 - s.powi(rows as i32)).powi(bands as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas() {
        assert_eq!(jaccard(&[1, 2, 3], &[2, 3, 4]), 0.5);
        assert_eq!(jaccard::<u8>(&[], &[]), 1.0);
        assert_eq!(jaccard(&[1], &[2]), 0.0);
        assert!((standard_error(0.5, 100) - 0.05).abs() < 1e-12);
        assert_eq!(rule_of_thumb(256), 1.0 / 16.0);
        assert!((band_probability(1.0, 20, 5) - 1.0).abs() < 1e-12);
        assert_eq!(band_probability(0.0, 20, 5), 0.0);
    }
}
