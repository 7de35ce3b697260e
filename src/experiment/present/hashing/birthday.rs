//! `birthday`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hashing::birthday::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::sig;
use crate::plot::{Chart, Point, Series, Style};
use crate::report::Section;
use crate::structures::birthday as bd;

impl Present for Birthday {
    const VIEW: &'static str = include_str!("birthday.toml");
    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("first_collision_median", "median_theory"),
        ("first_collision_mean", "mean_theory"),
        ("p_at_0_25", "p_at_0_25_theory"),
        ("p_at_1", "p_at_1_theory"),
        ("p_at_1_177", "p_at_1_177_theory"),
        ("p_at_2", "p_at_2_theory"),
    ];

    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let t = &t.results;
        let theory: Vec<Point> = (0..=60)
            .map(|i| i as f64 * 0.05)
            .map(|q| Point::new(q, bd::p_collision_approx(q, 1.0)))
            .collect();
        let mut c = Chart::new(
            "p_collision",
            "P(first collision within m keys) vs m/√N",
            "m / √N",
            "P(collision)",
        )
        .series(Series::new("1 - e^(-m²/2N)", Style::Line, theory))
        .vline(1.177_410_022_515_474_6, "m = 1.177·√N (50%)");
        let mut med = Chart::new(
            "first_collision",
            "Keys at the first collision (median, 95% CI)",
            "hash (index in table)",
            "keys",
        );
        // one reference line per truncation width in the table
        for bits in common::levels(t, "bits") {
            let m = bd::median_first_collision(2f64.powf(bits));
            med = med.hline(m, format!("1.177·√2^{bits} = {}", sig(m, 5)));
        }
        for (i, r) in t.rows.iter().enumerate() {
            let label = format!("{} @{} bits", t.str(r, "hash"), t.str(r, "bits"));
            let pts: Vec<Point> = AT
                .iter()
                .filter_map(|(l, q)| {
                    let i = t.interval(r, &format!("p_at_{l}"))?;
                    Some(Point::with_interval(*q, i.value, i.lo, i.hi))
                })
                .collect();
            c = c.series(Series::new(label.clone(), Style::Points, pts));
            if let (Some(y), Some(lo), Some(hi)) = (
                t.f64(r, "first_collision_median"),
                t.f64(r, "first_collision_median_lo"),
                t.f64(r, "first_collision_median_hi"),
            ) {
                med = med.series(Series::new(
                    label,
                    Style::Points,
                    vec![Point::with_interval(i as f64 + 1.0, y, lo, hi)],
                ));
            }
        }
        vec![c, med]
    }

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let t = &t.results;
        let meds: Vec<String> = t
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    t.str(r, "hash"),
                    sig(t.f64(r, "first_collision_median").unwrap_or(f64::NAN), 5)
                )
            })
            .collect();
        Section {
            table,
            reading: format!(
                "Median keys at the first collision: {} (theory √(2N ln 2): {}): the truncation width sets the bound, whatever the function.",
                meds.join(", "),
                common::levels(t, "bits")
                    .iter()
                    .map(|&b| format!(
                        "{} for {b} bits",
                        sig(bd::median_first_collision(2f64.powf(b)), 5)
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}
