//! The named theory curves and functions chart declarations may draw
//! (`curve = "NAME"` in a `[[chart.series]]`, `fn = "NAME"` in a reference
//! line): each is a formula from a structure's `theory.rs`.

use crate::plot::Point;
use crate::plot::declare::Curve;
use crate::structures::birthday;
use crate::structures::bloom::theory as bloom;
use crate::structures::hyperloglog::theory as hll;

/// Every name, with what it draws (for `list` and error messages).
pub const NAMES: &[(&str, &str)] = &[
    (
        "bloom_bits_per_element",
        "bits per key of a space-optimal Bloom filter at FPR x: 1.44·log2(1/x)",
    ),
    ("identity", "y = x (a measured rate equal to its target)"),
    (
        "log2_inverse",
        "the information-theoretic bits per key at FPR x: log2(1/x)",
    ),
    (
        "blocked_bloom_512",
        "(FPR, bits per key) of a 512-bit blocked Bloom filter at its best k, 2 … 40 bits per key",
    ),
    (
        "optimal_k",
        "the optimal number of hashes at x bits per key: x·ln 2",
    ),
    (
        "hll_registers_for_error",
        "HyperLogLog registers for a standard error x: (1.04/x)²",
    ),
    (
        "hll_registers_power_of_two",
        "the power-of-two register count that reaches a standard error x",
    ),
    (
        "asymptotic_from_lg_k",
        "100·2^x distinct keys for lg_k = x: where the frontier's sketches are taken as past their small-n modes (the MVP bounds are limits as n → ∞)",
    ),
    (
        "birthday_collision",
        "P(a collision among x·√N uniform hashes): 1 − e^(−x²/2)",
    ),
    (
        "birthday_median_bits",
        "median keys until the first collision of x-bit hashes: √(2·2^x·ln 2)",
    ),
];

/// The curve or function called `name`.
pub fn curve(name: &str) -> Option<Curve> {
    Some(match name {
        "bloom_bits_per_element" => Curve::Function(bloom::bits_per_element),
        "identity" => Curve::Function(|x| x),
        "log2_inverse" => Curve::Function(|e| (1.0 / e).log2()),
        "blocked_bloom_512" => Curve::Points(blocked_512),
        "optimal_k" => Curve::Function(|bpk| bloom::optimal_k(bpk, 1.0)),
        "hll_registers_for_error" => Curve::Function(hll::registers_for_error),
        "hll_registers_power_of_two" => {
            Curve::Function(|e| 2f64.powi(hll::precision_for_error(e) as i32))
        }
        "asymptotic_from_lg_k" => Curve::Function(|lg_k| 100.0 * 2f64.powf(lg_k)),
        "birthday_collision" => Curve::Function(|q| birthday::p_collision_approx(q, 1.0)),
        "birthday_median_bits" => {
            Curve::Function(|bits| birthday::median_first_collision(2f64.powf(bits)))
        }
        _ => return None,
    })
}

/// (FPR, bits per key) of a blocked Bloom filter at its best integer k, from
/// the Poisson-averaged theory, for 2 … 40 bits per key.
fn blocked_512() -> Vec<Point> {
    (4..=80)
        .map(|half_bits| {
            let bpk = half_bits as f64 / 2.0;
            let best = (1..=30u32)
                .map(|k| bloom::fpr_blocked(1e6, 1e6 * bpk, k as f64, 512.0))
                .fold(f64::INFINITY, f64::min);
            Point::new(best, bpk)
        })
        .filter(|p| p.x >= 1e-6)
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_listed_name_resolves_and_no_other() {
        for (n, _) in super::NAMES {
            assert!(super::curve(n).is_some(), "{n}");
        }
        assert!(super::curve("nope").is_none());
    }
}
