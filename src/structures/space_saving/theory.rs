//! SpaceSaving's guarantees (Metwally, Agrawal, El Abbadi, "Efficient
//! computation of frequent and top-k elements in data streams", ICDT 2005,
//! Lemmas 3.3–3.5): with k counters over a stream of N updates, every
//! counter overestimates its key by at most its recorded error, the
//! smallest counter is at most N/k, and every key more frequent than N/k
//! is monitored. Misra–Gries with k counters undercounts by at most
//! N/(k + 1) (Misra, Gries 1982), the bound DataSketches' frequent-items
//! sketch tightens to 3.5/M of N for a map of M slots.

/// The largest overestimate SpaceSaving can make with k counters, as a
/// share of the stream: 1/k.
pub fn overestimate_share(k: u64) -> f64 {
    1.0 / k.max(1) as f64
}

/// Misra–Gries' largest undercount with k counters, as a share of the
/// stream: 1/(k + 1).
pub fn misra_gries_share(k: u64) -> f64 {
    1.0 / (k + 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares() {
        assert_eq!(overestimate_share(100), 0.01);
        assert_eq!(misra_gries_share(99), 0.01);
        assert!(overestimate_share(0).is_finite());
    }
}
