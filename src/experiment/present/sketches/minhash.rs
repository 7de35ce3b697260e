//! `minhash`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::sketches::minhash::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

impl Present for MinHashStudy {
    const VIEW: &'static str = include_str!("minhash.toml");

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
