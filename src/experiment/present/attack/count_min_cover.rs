//! `count_min_cover`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::attack::count_min_cover::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Point, Series, Style};
use crate::report::SeedRow;

impl Present for CountMinCover {
    const VIEW: &'static str = include_str!("count_min_cover.toml");
    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let t = &t.results;
        let mut c = Chart::new(
            "target_error",
            "Count-Min: never-inserted targets' estimates ÷ εN after the attacker's cover keys",
            "configuration (0: public xxh3 seed 0, 1: keyed sip13)",
            "estimate ÷ εN (true count 0)",
        )
        .log_y();
        let (mut lo, mut hi, mut bound) = (Vec::new(), Vec::new(), Vec::new());
        for (x, r) in t.rows.iter().enumerate() {
            let x = x as f64;
            if let (Some(a), Some(b)) = (
                t.f64(r, "target_error_over_eps_n_min"),
                t.f64(r, "target_error_over_eps_n_max"),
            ) {
                // a log axis cannot show 0
                lo.push(Point::new(x, a.max(1e-3)));
                hi.push(Point::new(x, b.max(1e-3)));
                bound.push(Point::new(x, 1.0));
            }
        }
        c = c
            .series(Series::new("smallest target", Style::Points, lo))
            .series(Series::new("largest target", Style::Points, hi))
            .series(Series::new("εN (the bound)", Style::Line, bound));
        vec![c]
    }

    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let t = &t.results;
        let v = |tg: &str, m: &str| super::value(t, &[("target", tg)], m);
        vec![SeedRow {
            structure: "Count-Min sketch".into(),
            attack: "cover keys inflating never-inserted targets".into(),
            designed: super::cell(v("public", "delta"), |d| {
                format!("beyond εN with probability ≤ δ = {}", pct(d, 2))
            }),
            constant_seed: super::cell(v("public", "targets_over_eps_n"), |x| {
                format!(
                    "{} of targets beyond εN, at ≥ {}× εN (xxh3, seed 0)",
                    pct(x, 3),
                    sig(
                        v("public", "target_error_over_eps_n_min").unwrap_or(f64::NAN),
                        3
                    )
                )
            }),
            random_seed: "—".into(),
            keyed: super::cell(v("sip13", "targets_over_eps_n"), |x| {
                format!(
                    "{} beyond εN (largest {}× εN)",
                    pct(x, 3),
                    sig(
                        v("sip13", "target_error_over_eps_n_max").unwrap_or(f64::NAN),
                        2
                    )
                )
            }),
        }]
    }
}
