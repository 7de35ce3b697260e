//! Count-Min formulas (Cormode & Muthukrishnan 2005).
//!
//! Reference: G. Cormode, S. Muthukrishnan, "An improved data stream summary:
//! the count-min sketch and its applications", J. Algorithms 55(1), 2005.

/// w = ⌈e/ε⌉ counters per row.
pub fn width(eps: f64) -> u64 {
    (std::f64::consts::E / eps).ceil() as u64
}

/// d = ⌈ln(1/δ)⌉ rows.
pub fn depth(delta: f64) -> u64 {
    (1.0 / delta).ln().ceil() as u64
}

/// The ε a width guarantees: e/w.
pub fn eps_of_width(w: u64) -> f64 {
    std::f64::consts::E / w as f64
}

/// The δ a depth guarantees: e^−d.
pub fn delta_of_depth(d: u64) -> f64 {
    (-(d as f64)).exp()
}

/// Bytes of d × w counters of `counter_bytes` each.
pub fn bytes(w: u64, d: u64, counter_bytes: u64) -> u64 {
    w * d * counter_bytes
}

/// The largest depth whose d × w counters fit in `budget` bytes.
pub fn depth_within(budget: u64, w: u64, counter_bytes: u64) -> u64 {
    budget / (w * counter_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_numbers() {
        // doc 002: 4 rows × 2,718 counters × 4 bytes = 43 KB
        assert_eq!(bytes(2718, 4, 4), 43_488);
        // ε = 0.1% gives w = ⌈2718.28⌉ = 2,719, not 2,718
        assert_eq!(width(0.001), 2719);
        assert_eq!(depth(0.01), 5);
        assert!((delta_of_depth(4) - 0.0183).abs() < 1e-4);
        assert_eq!(depth_within(80_000, 2719, 4), 7);
    }
}
