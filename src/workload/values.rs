//! Streams of values for the quantile sketches: the distributions the
//! studies and `design quantiles` draw from, radix sorting, and the exact
//! mid-rank an estimate is scored by.

use rand::{Rng, RngExt};
use rand_distr::{Distribution, LogNormal, Normal, Pareto};

pub use crate::vocab::Dist;

/// `n` values of `dist` from `rng`, in stream order. `sorted` and
/// `reverse_sorted` are the log-normal draws in ascending and descending
/// order (a merging digest sees its extremes first, or last);
/// `adversarial` is 10^12 − 10^(12·(1 − u)) for uniform u: every decade of
/// distance below 10^12 holds the same mass, so values crowd towards 10^12
/// at every scale (a sketch that interpolates linearly inside a centroid is
/// wrong at every scale, and a relative-error bucket near 10^12 holds most
/// of the stream), with no ties (f64 resolves 10^12 − 1 from 10^12).
pub fn draw(dist: Dist, n: u64, rng: &mut impl Rng) -> Vec<f64> {
    let normal = Normal::new(0.0, 1.0).expect("sd 1 is valid");
    let lognormal = LogNormal::new(0.0, 1.0).expect("sd 1 is valid");
    let pareto = Pareto::new(1.0, 1.5).expect("scale 1, shape 1.5 are valid");
    let mut v: Vec<f64> = (0..n)
        .map(|_| match dist {
            Dist::Uniform => rng.random::<f64>(),
            Dist::Normal => normal.sample(rng),
            Dist::Lognormal | Dist::Sorted | Dist::ReverseSorted => lognormal.sample(rng),
            Dist::Adversarial => 1e12 - 10f64.powf(12.0 * (1.0 - rng.random::<f64>())),
            Dist::Pareto => pareto.sample(rng),
        })
        .collect();
    match dist {
        Dist::Sorted => sort(&mut v),
        Dist::ReverseSorted => {
            sort(&mut v);
            v.reverse();
        }
        _ => {}
    }
    v
}

/// Sorts values in ascending `f64::total_cmp` order, by radix (`radsort`,
/// whose key for a float is IEEE 754's total order, as `total_cmp`'s): the
/// order a comparison sort gives, since values equal under `total_cmp` are
/// the same bits, in a fraction of its time on 10^6 values (a test checks
/// the two agree). Descending is this reversed, for the same reason.
pub fn sort(v: &mut [f64]) {
    radsort::sort(v);
}

/// The exact mid-rank of x in the sorted stream: (#below + #at-or-below)/2 ÷ n.
pub fn mid_rank(sorted: &[f64], x: f64) -> f64 {
    let lo = sorted.partition_point(|&v| v < x) as f64;
    let hi = sorted.partition_point(|&v| v <= x) as f64;
    (lo + hi) / 2.0 / sorted.len() as f64
}

/// The exact q-quantile of a sorted stream: its ⌈q·n⌉-th smallest value.
pub fn exact(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len() as f64;
    sorted[((q * n).ceil() as usize).clamp(1, sorted.len()) - 1]
}
