//! The one statistics module every kind, the summary stage and the ledger use:
//! Wilson intervals for proportions, Student-t intervals for means,
//! distribution-free order-statistic intervals for medians and quantiles, and
//! error summaries (bias, RMSE, relative-error quantiles) of estimators.
//!
//! Quantiles of the normal, Student-t and binomial distributions come from
//! `statrs`; nothing here is a table typed in by hand.

use crate::table::Interval;
use statrs::distribution::{Binomial, ChiSquared, ContinuousCDF, DiscreteCDF, Normal, StudentsT};

/// Confidence of the intervals drawn in plots and tables.
pub const PLOT_CONFIDENCE: f64 = 0.95;
/// The level of the ledger's verdict intervals.
pub const VERDICT_CONFIDENCE: f64 = 0.999;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The two-sided normal quantile for `confidence` (0.95 → 1.96).
pub fn z(confidence: f64) -> f64 {
    let n = Normal::new(0.0, 1.0).expect("standard normal");
    n.inverse_cdf(0.5 + confidence / 2.0)
}

/// The two-sided Student-t quantile with `df` degrees of freedom
/// (0.95, 9 → 2.262).
pub fn t(confidence: f64, df: f64) -> f64 {
    let d = StudentsT::new(0.0, 1.0, df).expect("df > 0");
    d.inverse_cdf(0.5 + confidence / 2.0)
}

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

/// The `p`-quantile of Beta(a, b), by bisection on the regularized
/// incomplete beta function (monotone in x) to the last bit. statrs 0.19's
/// `Beta::inverse_cdf` does not return for a rare event over millions of
/// draws (Beta(2, 8·10^6) ran for minutes: the ledger hung on Count-Min's
/// pooled d = 4 keys); the bisection takes some 20-70 µs at any size.
fn beta_quantile(a: f64, b: f64, p: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..1100 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if statrs::function::beta::beta_reg(a, b, mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The exact (Clopper–Pearson) interval for `successes` out of `trials` at
/// `confidence`: the Beta quantiles B(α/2; k, n − k + 1) and
/// B(1 − α/2; k + 1, n − k). Conservative at every n and rate, which is what a
/// rare event (a handful of successes in millions) needs, where Wilson's and
/// the normal approximation's coverage falls short. `(0, 1)` when `trials == 0`.
///
/// Reference: C. J. Clopper and E. S. Pearson, "The use of confidence or
/// fiducial limits illustrated in the case of the binomial", Biometrika 26(4), 1934.
pub fn clopper_pearson(successes: u64, trials: u64, confidence: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (successes.min(trials) as f64, trials as f64);
    let alpha = 1.0 - confidence;
    let lo = if k == 0.0 {
        0.0
    } else {
        beta_quantile(k, n - k + 1.0, alpha / 2.0)
    };
    let hi = if k == n {
        1.0
    } else {
        beta_quantile(k + 1.0, n - k, 1.0 - alpha / 2.0)
    };
    (lo, hi)
}

/// A measured value with its interval at two levels, each computed from the
/// data: 95% (charts and tables) and 99.9% (the ledger's verdicts), so the
/// verdict interval of a median, a mean of per-query costs or a rate through
/// a formula is never the 95% one stretched by a normal factor. A row field
/// of five columns: `x`, `x_lo`, `x_hi`, `x_lo999`, `x_hi999`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    pub lo999: f64,
    pub hi999: f64,
}

impl Estimate {
    fn of(at95: Interval, at999: Interval) -> Estimate {
        Estimate {
            value: at95.value,
            lo: at95.lo,
            hi: at95.hi,
            lo999: at999.lo,
            hi999: at999.hi,
        }
    }

    /// A sample median with its order-statistic (distribution-free) intervals.
    pub fn median(sorted: &[f64]) -> Estimate {
        Estimate::of(
            median_interval(sorted, PLOT_CONFIDENCE),
            median_interval(sorted, VERDICT_CONFIDENCE),
        )
    }

    /// A mean over independent values with its Student-t intervals.
    pub fn mean(xs: &[f64]) -> Estimate {
        Estimate::of(
            mean_interval(xs, PLOT_CONFIDENCE),
            mean_interval(xs, VERDICT_CONFIDENCE),
        )
    }

    /// A proportion: Wilson at 95% (as [`Proportion`]), exact
    /// (Clopper–Pearson) at 99.9%.
    pub fn proportion(successes: u64, trials: u64) -> Estimate {
        let p = Proportion::new(successes, trials);
        let (lo, hi) = clopper_pearson(successes, trials, VERDICT_CONFIDENCE);
        Estimate::of(
            Interval::new(p.rate, p.lo, p.hi),
            Interval::new(p.rate, lo, hi),
        )
    }

    /// Through a monotone function (increasing or decreasing): the
    /// intervals' ends map to the ends.
    pub fn map(self, f: impl Fn(f64) -> f64) -> Estimate {
        let ends = |a: f64, b: f64| {
            let (x, y) = (f(a), f(b));
            (x.min(y), x.max(y))
        };
        let (lo, hi) = ends(self.lo, self.hi);
        let (lo999, hi999) = ends(self.lo999, self.hi999);
        Estimate {
            value: f(self.value),
            lo,
            hi,
            lo999,
            hi999,
        }
    }

    /// The 95% interval.
    pub fn interval(&self) -> Interval {
        Interval::new(self.value, self.lo, self.hi)
    }
}

/// A measured proportion with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Proportion {
    pub successes: u64,
    pub trials: u64,
    pub rate: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Proportion {
    pub fn new(successes: u64, trials: u64) -> Self {
        Proportion::at(successes, trials, PLOT_CONFIDENCE)
    }

    /// The proportion with its Wilson interval at `confidence`.
    pub fn at(successes: u64, trials: u64, confidence: f64) -> Self {
        let (lo, hi) = wilson(successes, trials, z(confidence));
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

    pub fn interval(&self) -> Interval {
        Interval::new(self.rate, self.lo, self.hi)
    }
}

/// The two-proportion z statistic of k1/n1 against k2/n2 (pooled standard
/// error); 0 when both rates are 0 or 1 (no variance to judge by).
pub fn two_proportion_z(k1: f64, n1: f64, k2: f64, n2: f64) -> f64 {
    let pooled = (k1 + k2) / (n1 + n2);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)).sqrt();
    if se > 0.0 {
        (k1 / n1 - k2 / n2) / se
    } else {
        0.0
    }
}

/// Mean and sample standard deviation (n − 1).
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    // about the first value (two passes over shifted data): values that are
    // all equal give exactly that value and an sd of exactly 0, not the
    // rounding noise of summing n copies (a 1e-19 "sd" a log axis would draw)
    let shift = xs.first().copied().unwrap_or(0.0);
    let d = xs.iter().map(|x| x - shift).sum::<f64>() / n;
    let mean = shift + d;
    if xs.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - shift - d).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// The mean with its Student-t interval `mean ± t(conf, n−1)·sd/√n`.
/// With one value the interval is unknown (NaN bounds).
pub fn mean_interval(xs: &[f64], confidence: f64) -> Interval {
    let (mean, sd) = mean_sd(xs);
    if xs.len() < 2 {
        return Interval::new(mean, f64::NAN, f64::NAN);
    }
    let n = xs.len() as f64;
    let half = t(confidence, n - 1.0) * sd / n.sqrt();
    Interval::new(mean, mean - half, mean + half)
}

/// The interval of a standard deviation estimated from `n` normal values:
/// [sd·√((n−1)/χ²_{1−α/2}), sd·√((n−1)/χ²_{α/2})] with n − 1 degrees of freedom.
pub fn sd_interval(sd: f64, n: usize, confidence: f64) -> Interval {
    if n < 2 || !sd.is_finite() {
        return Interval::new(sd, f64::NAN, f64::NAN);
    }
    let df = (n - 1) as f64;
    let chi = ChiSquared::new(df).expect("df > 0");
    let alpha = 1.0 - confidence;
    let (upper_q, lower_q) = (
        chi.inverse_cdf(1.0 - alpha / 2.0),
        chi.inverse_cdf(alpha / 2.0),
    );
    Interval::new(sd, sd * (df / upper_q).sqrt(), sd * (df / lower_q).sqrt())
}

/// The sample `q`-quantile of sorted values (linear interpolation between
/// order statistics, the "type 7" of Hyndman & Fan 1996).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    assert!(!sorted.is_empty(), "quantile of no values");
    let h = (sorted.len() - 1) as f64 * q;
    let (i, frac) = (h.floor() as usize, h.fract());
    if i + 1 < sorted.len() {
        sorted[i] + frac * (sorted[i + 1] - sorted[i])
    } else {
        sorted[i]
    }
}

/// The sample `q`-quantile with a distribution-free interval from order
/// statistics: ranks `l < u` with `P(X(l) ≤ ξ_q ≤ X(u)) ≥ confidence`, from
/// Binomial(n, q), as equal-tailed as the discreteness allows. When n is too
/// small for the confidence, the interval is the sample range, widened to
/// ±∞ on the side that cannot be covered.
///
/// Reference: H. A. David and H. N. Nagaraja, *Order Statistics*, 3rd ed., §7.1.
pub fn quantile_interval(sorted: &[f64], q: f64, confidence: f64) -> Interval {
    let n = sorted.len();
    let est = quantile(sorted, q);
    let b = Binomial::new(q, n as u64).expect("q in [0, 1]");
    let alpha = (1.0 - confidence) / 2.0;
    // X(l) <= ξ iff at least l values are <= ξ: P = 1 - F(l - 1).
    // lower rank: the largest l (1-based) with F(l - 1) <= alpha.
    let mut l = 0usize;
    while l < n && b.cdf(l as u64) <= alpha {
        l += 1;
    }
    // upper rank: the smallest u with F(u - 1) >= 1 - alpha.
    let mut u = n + 1;
    for r in 1..=n {
        if b.cdf(r as u64 - 1) >= 1.0 - alpha {
            u = r;
            break;
        }
    }
    let lo = if l == 0 {
        f64::NEG_INFINITY
    } else {
        sorted[l - 1]
    };
    let hi = if u > n { f64::INFINITY } else { sorted[u - 1] };
    Interval::new(est, lo, hi)
}

/// The median with its order-statistic interval.
pub fn median_interval(sorted: &[f64], confidence: f64) -> Interval {
    quantile_interval(sorted, 0.5, confidence)
}

/// How an estimator did against the truth over replicates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorSummary {
    /// Mean of (estimate − truth) / truth, with its t-interval.
    pub bias: Interval,
    /// √ mean of ((estimate − truth) / truth)².
    pub rmse: f64,
    /// Quantiles of |estimate − truth| / truth: median, 95th, 99th.
    pub abs_p50: f64,
    pub abs_p95: f64,
    pub abs_p99: f64,
}

/// Relative-error summary of `estimates` of one `truth` (≠ 0).
pub fn relative_error(estimates: &[f64], truth: f64, confidence: f64) -> ErrorSummary {
    let rel: Vec<f64> = estimates.iter().map(|e| (e - truth) / truth).collect();
    let rmse = (rel.iter().map(|r| r * r).sum::<f64>() / rel.len() as f64).sqrt();
    let mut abs: Vec<f64> = rel.iter().map(|r| r.abs()).collect();
    abs.sort_by(f64::total_cmp);
    ErrorSummary {
        bias: mean_interval(&rel, confidence),
        rmse,
        abs_p50: quantile(&abs, 0.5),
        abs_p95: quantile(&abs, 0.95),
        abs_p99: quantile(&abs, 0.99),
    }
}

/// The interval of a ratio `a / b` of two independent positive estimates,
/// by the delta method on the log scale: `exp(ln(a/b) ± z·√(se_a²/a² + se_b²/b²))`,
/// each standard error recovered from its interval at `confidence`.
pub fn ratio_interval(a: Interval, b: Interval, confidence: f64) -> Interval {
    let zc = z(confidence);
    let rel_se = |x: Interval| (x.hi - x.lo) / (2.0 * zc) / x.value;
    let r = a.value / b.value;
    if !(a.value > 0.0 && b.value > 0.0) {
        return Interval::new(r, f64::NAN, f64::NAN);
    }
    let s = (rel_se(a).powi(2) + rel_se(b).powi(2)).sqrt();
    Interval::new(r, r * (-zc * s).exp(), r * (zc * s).exp())
}

#[cfg(test)]
mod tests {

    #[test]
    fn equal_values_have_their_own_mean_and_an_sd_of_exactly_zero() {
        // 1,000 copies of a 10-digit value: a plain sum drifts in the last
        // bit, so its two-pass sd was about 1e-19 instead of 0
        let x = 0.000_305_300_014_3;
        let xs = vec![x; 1000];
        assert_eq!(mean_sd(&xs), (x, 0.0));
        // and a sample's sd is the textbook one: 1..=10 has sd √(55/6)
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let (m, sd) = mean_sd(&xs);
        assert_eq!(m, 5.5);
        assert!((sd - (55.0f64 / 6.0).sqrt()).abs() < 1e-15);
        // far from zero, the shift keeps the digits a plain pass loses
        let big: Vec<f64> = [4.0, 7.0, 13.0, 16.0].iter().map(|v| 1e9 + v).collect();
        assert_eq!(mean_sd(&big), (1e9 + 10.0, 30f64.sqrt()));
    }

    use super::*;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn quantiles_of_reference_distributions() {
        assert!((z(0.95) - Z95).abs() < 1e-9);
        assert!((t(0.95, 9.0) - 2.262_157).abs() < 1e-5);
        assert!((t(0.95, 4.0) - 2.776_445).abs() < 1e-5);
        assert!((z(0.999) - 3.290_527).abs() < 1e-5);
    }

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
    fn clopper_pearson_known_values() {
        // 10 of 100 at 95%: (0.0490, 0.1762) (exact binomial tables; R's binom.test)
        let (lo, hi) = clopper_pearson(10, 100, 0.95);
        assert!(
            (lo - 0.04900).abs() < 1e-4 && (hi - 0.17622).abs() < 1e-4,
            "{lo} {hi}"
        );
        // 0 of 1000: the upper end is 1 − 0.025^(1/1000) = 0.003682
        let (lo, hi) = clopper_pearson(0, 1000, 0.95);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.003682).abs() < 1e-6, "{hi}");
        assert_eq!(clopper_pearson(5, 5, 0.95).1, 1.0);
        // a rare rate's interval stays inside [0, 1] and contains the rate
        let (lo, hi) = clopper_pearson(42, 4_000_000, 0.999);
        let p = 42.0 / 4e6;
        assert!(lo > 0.0 && lo < p && p < hi && hi < 1.0);
        // one event in 8·10^6 (statrs' own Beta quantile never returned
        // here): the Poisson limit χ²(0.9995; 4)/2 = 9.9987 events, and
        // χ²(0.0005; 2)/2 = 0.00050013
        let (lo, hi) = clopper_pearson(1, 8_000_000, 0.999);
        assert!((hi * 8e6 / 9.9987 - 1.0).abs() < 1e-3, "{hi}");
        assert!((lo * 8e6 / 0.000_500_13 - 1.0).abs() < 1e-3, "{lo}");
    }

    #[test]
    fn known_mean_and_quantile_intervals() {
        // 1..=10: mean 5.5, sd 3.02765; t(9) = 2.26216 -> half 2.16585
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let m = mean_interval(&xs, 0.95);
        assert!((m.value - 5.5).abs() < 1e-12);
        assert!((m.hi - m.value - 2.165_85).abs() < 1e-4, "{m:?}");
        // n = 10 at 95%: the median's interval is (X(2), X(9)) (David & Nagaraja's table)
        let md = median_interval(&xs, 0.95);
        assert_eq!((md.value, md.lo, md.hi), (5.5, 2.0, 9.0));
        // too few values for 95% on one side: the open side is infinite
        let q = quantile_interval(&[1.0, 2.0, 3.0], 0.99, 0.95);
        assert_eq!(q.hi, f64::INFINITY);
    }

    fn rng(seed: u64) -> rand::rngs::Xoshiro256PlusPlus {
        rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed)
    }

    /// Coverage by simulation: the fraction of intervals that contain the
    /// truth must be within 4 standard errors of the nominal level.
    fn assert_coverage(covered: u64, runs: u64, nominal: f64, what: &str) {
        let rate = covered as f64 / runs as f64;
        let se = (nominal * (1.0 - nominal) / runs as f64).sqrt();
        assert!(
            (rate - nominal).abs() <= 4.0 * se,
            "{what}: coverage {rate} vs nominal {nominal} (4 se = {})",
            4.0 * se
        );
    }

    #[test]
    fn t_interval_covers_at_its_level_with_five_and_ten_replicates() {
        let normal = rand_distr::Normal::new(3.0, 2.0).unwrap();
        for r in [5usize, 10] {
            let mut g = rng(r as u64);
            let runs = 4000u64;
            let mut covered = 0;
            let mut covered_z = 0;
            for _ in 0..runs {
                let xs: Vec<f64> = (0..r).map(|_| g.sample(normal)).collect();
                let i = mean_interval(&xs, 0.95);
                covered += i.contains(3.0) as u64;
                let (m, sd) = mean_sd(&xs);
                let half = Z95 * sd / (r as f64).sqrt();
                covered_z += (m - half <= 3.0 && 3.0 <= m + half) as u64;
            }
            assert_coverage(covered, runs, 0.95, &format!("t interval, {r} replicates"));
            // the normal quantile undercovers at these sizes (about 88% at 5, 92% at 10)
            assert!(covered_z < covered, "z {covered_z} vs t {covered}");
        }
    }

    #[test]
    fn wilson_and_median_intervals_cover_at_their_level() {
        let mut g = rng(7);
        let runs = 4000u64;
        let (mut wil, mut med) = (0u64, 0u64);
        for _ in 0..runs {
            let p = 0.03;
            let s = (0..2000).filter(|_| g.random::<f64>() < p).count() as u64;
            wil += Proportion::new(s, 2000).interval().contains(p) as u64;
            // exponential(1): median ln 2
            let mut xs: Vec<f64> = (0..51).map(|_| -(1.0 - g.random::<f64>()).ln()).collect();
            xs.sort_by(f64::total_cmp);
            med += median_interval(&xs, 0.95).contains(std::f64::consts::LN_2) as u64;
        }
        assert_coverage(wil, runs, 0.95, "Wilson");
        // order-statistic intervals are conservative: at least the level, within 4 se above
        let rate = med as f64 / runs as f64;
        assert!(
            (0.95 - 4.0 * (0.95f64 * 0.05 / runs as f64).sqrt()..=0.99).contains(&rate),
            "median coverage {rate}"
        );
    }

    #[test]
    fn sd_interval_covers_at_its_level() {
        // n = 10, 95%: chi-square(9) quantiles 2.700 and 19.023
        let i = sd_interval(1.0, 10, 0.95);
        assert!(
            (i.lo - (9.0f64 / 19.023).sqrt()).abs() < 1e-3
                && (i.hi - (9.0f64 / 2.700).sqrt()).abs() < 1e-3,
            "{i:?}"
        );
        let normal = rand_distr::Normal::new(0.0, 2.0).unwrap();
        let mut g = rng(11);
        let runs = 4000u64;
        let mut covered = 0;
        for _ in 0..runs {
            let xs: Vec<f64> = (0..8).map(|_| g.sample(normal)).collect();
            covered += sd_interval(mean_sd(&xs).1, 8, 0.95).contains(2.0) as u64;
        }
        assert_coverage(covered, runs, 0.95, "sd interval");
    }

    #[test]
    fn error_summary_of_known_estimates() {
        let s = relative_error(&[90.0, 110.0, 100.0, 120.0], 100.0, 0.95);
        assert!((s.bias.value - 0.05).abs() < 1e-12);
        assert!((s.rmse - (0.06f64 / 4.0).sqrt()).abs() < 1e-12);
        assert!((s.abs_p50 - 0.1).abs() < 1e-12);
    }

    #[test]
    fn ratio_interval_is_symmetric_in_logs() {
        let a = Interval::new(2.0, 1.8, 2.2);
        let r = ratio_interval(a, a, 0.95);
        assert_eq!(r.value, 1.0);
        assert!((r.lo * r.hi - 1.0).abs() < 1e-12);
        assert!(r.lo < 0.9 && r.hi > 1.1);
    }
}
