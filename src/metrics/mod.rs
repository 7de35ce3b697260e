//! Measurement helpers: binomial intervals, exact baselines, allocation counting.

pub mod alloc;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `successes` out of `trials` at normal quantile `z`.
/// Returns `(low, high)`; `(0, 1)` when `trials == 0`.
///
/// Reference: E. B. Wilson, "Probable inference, the law of succession, and
/// statistical inference", JASA 22(158), 1927.
pub fn wilson(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    let lo = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if successes == trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// A measured proportion with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    pub successes: u64,
    pub trials: u64,
    pub rate: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Proportion {
    pub fn new(successes: u64, trials: u64) -> Self {
        let (lo, hi) = wilson(successes, trials, Z95);
        Proportion {
            successes,
            trials,
            rate: if trials == 0 {
                f64::NAN
            } else {
                successes as f64 / trials as f64
            },
            lo,
            hi,
        }
    }

    /// Whether `x` lies in the Wilson interval at quantile `z`.
    pub fn covers(&self, x: f64, z: f64) -> bool {
        let (lo, hi) = wilson(self.successes, self.trials, z);
        lo <= x && x <= hi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_known_values() {
        // 10 of 100 at 95%: (0.0552, 0.1744) (standard tables)
        let (lo, hi) = wilson(10, 100, Z95);
        assert!(
            (lo - 0.0552).abs() < 1e-4 && (hi - 0.1744).abs() < 1e-4,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 10, Z95).0, 0.0);
        assert_eq!(wilson(10, 10, Z95).1, 1.0);
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn proportion_covers() {
        let p = Proportion::new(100, 10_000);
        assert!(p.covers(0.01, Z95));
        assert!(!p.covers(0.02, Z95));
    }
}
