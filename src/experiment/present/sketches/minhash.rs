//! `minhash`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::sketches::minhash::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Point, Series, Style};
use crate::report::Section;
use crate::table::Value;

impl Present for MinHashStudy {
    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let s = t.summary();
        let mut c = Chart::new(
            "error_sd_vs_k",
            "MinHash error sd vs k (95% chi-square) at J = 0.5 and 0.05, next to √(J(1−J)/k) and 1/√k",
            "k (minima)",
            "sd of estimate − J",
        )
        .log_x()
        .log_y();
        let mut first = true;
        for j in [0.5, 0.05] {
            for v in ["k_hashes", "bottom_k"] {
                let rows: Vec<&Vec<Value>> = s
                    .rows
                    .iter()
                    .filter(|r| s.f64(r, "jaccard") == Some(j) && s.str(r, "variant") == v)
                    .collect();
                if v == "k_hashes" {
                    c = c.series(Series::new(
                        format!("√(J(1−J)/k), J = {j}"),
                        Style::Line,
                        common::points(s, &rows, "k", "se_theory"),
                    ));
                    if first {
                        c = c.series(Series::new(
                            "1/√k",
                            Style::Line,
                            common::points(s, &rows, "k", "rule_of_thumb"),
                        ));
                        first = false;
                    }
                }
                let pts: Vec<Point> = rows
                    .iter()
                    .filter_map(|r| {
                        Some(Point::with_interval(
                            s.f64(r, "k")?,
                            s.f64(r, "err_sd")?,
                            s.f64(r, "err_sd_lo")?,
                            s.f64(r, "err_sd_hi")?,
                        ))
                    })
                    .collect();
                c = c.series(Series::new(format!("{v}, J = {j}"), Style::Points, pts));
            }
        }
        let rows: Vec<&Vec<Value>> = s
            .rows
            .iter()
            .filter(|r| s.str(r, "variant") == "k_hashes" && s.f64(r, "k") == Some(1024.0))
            .collect();
        let agree = Chart::new(
            "min_agreement_vs_jaccard",
            "P(minima agree) over 1,024 minima × sketches (95% Wilson) vs J",
            "Jaccard similarity J",
            "share of agreeing minima",
        )
        .series(Series::new(
            "= J",
            Style::Line,
            common::points(s, &rows, "j_exact", "j_exact"),
        ))
        .series(Series::new(
            "measured",
            Style::Points,
            common::points(s, &rows, "j_exact", "agree"),
        ));
        vec![c, agree]
    }

    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let table = s.project(
            &[
                "variant",
                "k",
                "jaccard",
                "replicates",
                "j_exact",
                "err",
                "err_sd",
                "se_theory",
                "rule_of_thumb",
                "within_rule",
                "agree",
            ],
            |r| [16.0, 1024.0].contains(&s.f64(r, "k").unwrap_or(0.0)),
        );
        let worst = s
            .rows
            .iter()
            .filter_map(|r| {
                Some((
                    s.f64(r, "err_in_rule_sd")?,
                    s.str(r, "variant"),
                    s.str(r, "k"),
                    s.str(r, "jaccard"),
                ))
            })
            .fold(
                (0.0, String::new(), String::new(), String::new()),
                |a, b| if b.0 > a.0 { b } else { a },
            );
        // bottom-k against k-hash at each (k, J)
        let (mut bottom_k_le, mut pairs) = (0, 0);
        for r in s.rows.iter().filter(|r| s.str(r, "variant") == "bottom_k") {
            let twin = s.rows.iter().find(|q| {
                s.str(q, "variant") == "k_hashes"
                    && s.str(q, "k") == s.str(r, "k")
                    && s.str(q, "jaccard") == s.str(r, "jaccard")
            });
            if let (Some(a), Some(b)) = (s.f64(r, "err_sd"), twin.and_then(|q| s.f64(q, "err_sd")))
            {
                pairs += 1;
                bottom_k_le += (a <= b) as usize;
            }
        }
        let within: Vec<f64> = s
            .rows
            .iter()
            .filter_map(|r| s.f64(r, "within_rule"))
            .collect();
        let min_within = within.iter().copied().fold(1.0, f64::min);
        Section {
            table,
            reading: format!(
                "The error's sd is at most {} of 1/√k (worst: {} k = {} at J = {}), i.e. √(J(1−J)/k) ≤ 0.5/√k; the share of estimates within 1/√k of J is at least {} in every setting. Bottom-k's sd is at or below k-hash MinHash's in {} of {} (k, J) settings.",
                sig(worst.0, 3),
                worst.1,
                worst.2,
                worst.3,
                pct(min_within, 1),
                bottom_k_le,
                pairs
            ),
        }
    }
}
