//! `count_min_cover`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::attack::count_min_cover::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Point, Series, Style};
use crate::report::Section;
use crate::report::SeedRow;

impl Present for CountMinCover {
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

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "target",
                "w",
                "d",
                "targets",
                "cover_keys",
                "rows_covered_min",
                "tries_per_target",
                "total_n",
                "eps_n",
                "targets_over_eps_n",
                "target_error_over_eps_n_min",
                "target_error_over_eps_n_max",
                "probes_over_eps_n",
                "delta",
            ],
            |_| true,
        );
        let reading = t
            .rows
            .iter()
            .map(|r| {
                let f = |c: &str| t.f64(r, c).unwrap_or(f64::NAN);
                format!(
                    "{}: {} cover keys for {} targets ({} hashes tried per target, each cover hitting at least {} of {} rows) carried {} updates; the never-inserted targets read {} to {} × εN (εN = {}), {} of them beyond it; random never-inserted keys exceed εN at {} (δ = {})",
                    t.str(r, "target"),
                    t.str(r, "cover_keys"),
                    t.str(r, "targets"),
                    sig(f("tries_per_target"), 3),
                    t.str(r, "rows_covered_min"),
                    t.str(r, "d"),
                    sig(f("attack_updates"), 3),
                    sig(f("target_error_over_eps_n_min"), 3),
                    sig(f("target_error_over_eps_n_max"), 3),
                    sig(f("eps_n"), 4),
                    pct(f("targets_over_eps_n"), 3),
                    pct(f("probes_over_eps_n"), 2),
                    pct(f("delta"), 2),
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        Section {
            table,
            reading: format!(
                "{reading}. With the public hash the attacker decides the targets' error; keyed, its keys are ordinary keys. One cover key suffices because the d columns come from two hash values, (h1 + i·s) mod w: matching a target's (h1 mod w, s) takes about w(w−1) tries, where d independent row hashes would take w^d for one key (a cover of d keys, one per row, about w·H(d) tries)."
            ),
        }
    }
}
