//! How the "load triples" verdict of an overfilled Bloom filter depends on
//! the hit rate: the store load at an overfill over the load at the design
//! point, as a function of h, from the two measured FPRs.

use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Point, Series, Style};

/// The two measured points and the hit rates the spec names.
pub struct LoadRatio<'a> {
    /// (keys inserted, measured FPR) at the design capacity.
    pub design: (f64, f64),
    /// (keys inserted, measured FPR) at the largest overfill.
    pub over: (f64, f64),
    pub spec_hit_rates: &'a [f64],
}

/// (h + (1−h)·p_over) / (h + (1−h)·p_design) for h from 10^-4 to 1, with
/// the h where it is 3 ("triples") and its limit as h → 0; `None` unless
/// the overfill has more keys than the design point.
pub fn load_ratio(l: &LoadRatio) -> Option<Chart> {
    let ((n_cap, p1), (n_over, p3)) = (l.design, l.over);
    if n_over <= n_cap {
        return None;
    }
    let ratio = |h: f64| (h + (1.0 - h) * p3) / (h + (1.0 - h) * p1);
    let pts: Vec<Point> = (0..=400)
        .map(|i| 10f64.powf(-4.0 + 4.0 * i as f64 / 400.0))
        .map(|h| Point::new(h, ratio(h)))
        .collect();
    // the h at which the ratio is exactly 3 (the ratio falls monotonically in h)
    let (mut lo, mut hi) = (1e-9f64, 1.0f64);
    for _ in 0..100 {
        let mid = (lo * hi).sqrt();
        if ratio(mid) > 3.0 { lo = mid } else { hi = mid }
    }
    let mut c = Chart::new(
        "load_ratio_vs_hit_rate",
        &format!(
            "Store load at {} keys / at {} keys, by hit rate (measured FPRs {} and {})",
            sig(n_over, 3),
            sig(n_cap, 3),
            pct(p3, 3),
            pct(p1, 3)
        ),
        "hit rate h",
        "load ratio",
    )
    .log_x()
    .log_y()
    .series(Series::new(
        "(h + (1-h)·p_over) / (h + (1-h)·p_design)",
        Style::Line,
        pts,
    ))
    .hline(3.0, format!("3× (\"triples\") at h = {}", pct(lo, 3)))
    .hline(ratio(0.0), format!("h → 0: {}×", sig(ratio(0.0), 3)));
    for &h in l.spec_hit_rates {
        c = c.vline(h, format!("h = {} (the spec)", pct(h, 2)));
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_ratio_crosses_three_where_the_label_says() {
        let c = super::load_ratio(&super::LoadRatio {
            design: (1e6, 0.01),
            over: (3e6, 0.2),
            spec_hit_rates: &[0.02],
        })
        .unwrap();
        // 20× as h → 0; ratio(h) = 3 at h = (0.2 − 0.03)/(3·0.99 − 0.8) ≈ 7.83%
        assert_eq!(c.hlines[1].1, "h → 0: 20×");
        assert!(c.hlines[0].1.ends_with("7.83%"), "{}", c.hlines[0].1);
        assert_eq!(c.vlines, vec![(0.02, "h = 2% (the spec)".to_string())]);
        let fewer = super::LoadRatio {
            design: (1e6, 0.01),
            over: (1e6, 0.01),
            spec_hit_rates: &[],
        };
        assert!(super::load_ratio(&fewer).is_none());
    }
}
