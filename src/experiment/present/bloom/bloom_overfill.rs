//! `bloom_overfill`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::bloom::bloom_overfill::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Point, Series, Style};

impl Present for BloomOverfill {
    const VIEW: &'static str = include_str!("bloom_overfill.toml");

    const RECONSTRUCTS: Option<&'static str> =
        Some("The overfill: a 1M-key, 1% filter filled to 3M keys");

    const THEORY: &'static [(&'static str, &'static str)] = &[("fpr_measured", "fpr_theory")];

    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let t = &t.results;
        let cap = common::levels(t, "capacity").first().copied();
        cap.and_then(|cap| load_ratio_vs_hit_rate(t, cap))
            .into_iter()
            .collect()
    }
}

/// How the "load triples" verdict depends on the hit rate: the store-load
/// ratio between the largest overfill and the design point, as a function of
/// h, from the two measured FPRs (h + (1−h)·p_n over h + (1−h)·p_cap).
fn load_ratio_vs_hit_rate(t: &crate::table::Table, cap: f64) -> Option<Chart> {
    let at = |n: f64| t.rows.iter().find(|r| t.f64(r, "n") == Some(n));
    let (design, over) = (at(cap)?, at(*common::levels(t, "n").last()?)?);
    let (p1, p3) = (t.f64(design, "fpr_measured")?, t.f64(over, "fpr_measured")?);
    let n_over = t.f64(over, "n")?;
    if n_over <= cap {
        return None;
    }
    let ratio = |h: f64| (h + (1.0 - h) * p3) / (h + (1.0 - h) * p1);
    let pts: Vec<Point> = (0..=400)
        .map(|i| 10f64.powf(-4.0 + 4.0 * i as f64 / 400.0))
        .map(|h| Point::new(h, ratio(h)))
        .collect();
    // the h at which the ratio is exactly 3 (ratio falls monotonically in h)
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
            sig(cap, 3),
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
    for h in common::levels(t, "hit_rate") {
        c = c.vline(h, format!("h = {} (the spec)", pct(h, 2)));
    }
    Some(c)
}
