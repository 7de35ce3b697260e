//! `count_min`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::sketches::count_min::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Point, Series, Style};
use crate::report::Section;
use crate::table::Value;

impl Present for CountMinStudy {
    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let s = t.summary();
        if common::levels(s, "depth").len() > 1 {
            return vec![depth_chart(s)];
        }
        let bin_x = |b: &str| -> Option<f64> {
            match b {
                "all" => None,
                "0" => Some(0.5),
                _ => b.split('-').next()?.parse().ok(),
            }
        };
        let plain = |r: &Vec<Value>| {
            s.str(r, "counter") == "u64"
                && s.str(r, "conservative") == "false"
                && s.str(r, "weight") == "1"
        };
        let mut err = Chart::new(
            "overshoot_vs_frequency",
            "Relative overshoot by true count (plain, u64): heavy hitters accurate, rare keys swamped",
            "true count (bin lower edge; 0.5 = never seen)",
            "mean (estimate − true) / true",
        )
        .log_x()
        .log_y();
        let mut abs = Chart::new(
            "overshoot_abs_vs_frequency",
            "Mean overshoot by true frequency (plain, u64) next to N/w",
            "true count (bin lower edge; 0.5 = never seen)",
            "mean estimate − true",
        )
        .log_x()
        .log_y();
        for z in common::levels(s, "s") {
            let rows: Vec<&Vec<Value>> = s
                .rows
                .iter()
                .filter(|r| plain(r) && s.f64(r, "s") == Some(z))
                .collect();
            let pts = |col: &str| -> Vec<Point> {
                let mut v: Vec<Point> = rows
                    .iter()
                    .filter_map(|r| Some(Point::new(bin_x(&s.str(r, "bin"))?, s.f64(r, col)?)))
                    .collect();
                v.sort_by(|a, b| a.x.total_cmp(&b.x));
                v
            };
            err = err.series(Series::new(
                format!("s = {z}"),
                Style::LinePoints,
                pts("mean_rel_error"),
            ));
            abs = abs.series(Series::new(
                format!("s = {z}"),
                Style::LinePoints,
                pts("mean_overshoot"),
            ));
            if let Some(r) = rows.first() {
                let nw = s.f64(r, "n_over_w").unwrap_or(f64::NAN);
                abs = abs.hline(nw, format!("N/w (s = {z})"));
            }
        }
        let alls: Vec<&Vec<Value>> = s.where_str("bin", "all").collect();
        let mut share = Chart::new(
            "share_beyond_eps_n",
            "Share of keys whose overshoot exceeds εN (95% Wilson) vs the per-query bound δ = e^−d",
            "Zipf s",
            "share of keys",
        )
        .log_y();
        for (counter, cons) in [("u64", "false"), ("u64", "true")] {
            let rows: Vec<&Vec<Value>> = alls
                .iter()
                .copied()
                .filter(|r| {
                    s.str(r, "counter") == counter
                        && s.str(r, "conservative") == cons
                        && s.str(r, "weight") == "1"
                })
                .collect();
            share = share.series(Series::new(
                if cons == "true" {
                    "conservative update"
                } else {
                    "plain"
                },
                Style::Points,
                common::points(s, &rows, "s", "over_eps_n"),
            ));
            if cons == "false" {
                share = share
                    .series(Series::new(
                        "δ = e^−d",
                        Style::Line,
                        common::points(s, &rows, "s", "delta"),
                    ))
                    .series(Series::new(
                        "DataSketches",
                        Style::Points,
                        common::points(s, &rows, "s", "peer_over_eps_n"),
                    ));
            }
        }
        vec![err, abs, share]
    }

    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let table = s.project(
            &[
                "s",
                "counter",
                "conservative",
                "weight",
                "rows",
                "replicates",
                "w",
                "d",
                "bytes",
                "total",
                "eps_n",
                "delta",
                "over_eps_n",
                "underestimates",
                "mean_overshoot",
                "row_overshoot",
                "n_over_w",
                "row_exceeds",
                "all_rows_if_independent",
                "every_within",
                "saturated",
                "merge_exact",
                "peer_over_eps_n",
                "peer_mean_overshoot",
            ],
            |r| s.str(r, "bin") == "all",
        );
        let alls: Vec<&Vec<Value>> = s.where_str("bin", "all").collect();
        let unders: f64 = alls
            .iter()
            .filter(|r| s.str(r, "saturated") != "1")
            .filter_map(|r| s.f64(r, "underestimates"))
            .sum();
        let u32_unders: Vec<f64> = alls
            .iter()
            .filter(|r| s.str(r, "counter") == "u32")
            .filter_map(|r| s.f64(r, "underestimates"))
            .collect();
        // (an empty f64 sum is −0: the sentence is left out without u32 rows)
        let saturation = if u32_unders.is_empty() {
            String::new()
        } else {
            format!(
                " With u32 counters and N = updates × weight beyond 2^32, saturated cells give {} underestimates in all: \"a stream of any length\" needs counters as wide as the stream.",
                u32_unders.iter().sum::<f64>()
            )
        };
        let ratios: Vec<f64> = alls
            .iter()
            .filter(|r| s.str(r, "conservative") == "false" && s.f64(r, "saturated") == Some(0.0))
            .filter_map(|r| Some(s.f64(r, "row_overshoot")? / s.f64(r, "n_over_w")?))
            .collect();
        let worst = alls
            .iter()
            .filter_map(|r| Some((s.f64(r, "over_eps_n")?, s.f64(r, "delta")?)))
            .fold((0.0f64, 0.0f64), |a, b| if b.0 > a.0 { b } else { a });
        let by_depth: Vec<String> = alls
            .iter()
            .filter(|_| common::levels(s, "depth").len() > 1)
            .filter_map(|r| {
                Some(format!(
                    "{} rows, d = {}: {} (independent rows would give {})",
                    s.str(r, "rows"),
                    s.str(r, "d"),
                    sig(s.f64(r, "over_eps_n")?, 3),
                    sig(s.f64(r, "all_rows_if_independent")?, 3)
                ))
            })
            .collect();
        let by_depth = if by_depth.is_empty() {
            String::new()
        } else {
            format!(" Share beyond εN by depth: {}.", by_depth.join("; "))
        };
        Section {
            table,
            reading: format!(
                "Underestimates without saturation: {unders}.{saturation} The largest share of keys beyond εN is {} (δ = {}); every key stayed within εN in {} of {} settings. A row's mean overshoot ÷ N/w, plain update without saturation: {} … {}.",
                pct(worst.0, 3),
                sig(worst.1, 3),
                alls.iter()
                    .filter(|r| s.f64(r, "every_within") == Some(1.0))
                    .count(),
                alls.len(),
                sig(ratios.iter().copied().fold(f64::INFINITY, f64::min), 4),
                sig(ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max), 4)
            ) + &by_depth,
        }
    }
}

/// The share of keys beyond εN against the depth d, per way of deriving the
/// rows, beside (per-row share)^d and δ = e^−d.
fn depth_chart(s: &crate::table::Table) -> Chart {
    let alls: Vec<&Vec<Value>> = s.where_str("bin", "all").collect();
    let mut c = Chart::new(
        "share_beyond_eps_n_vs_depth",
        "Share of keys beyond εN vs rows d (mean of the replicates, 95% t-interval): double-hashed vs independent rows",
        "rows d",
        "share of keys",
    )
    .log_y();
    for rows in common::names(s, "rows") {
        let mine: Vec<&Vec<Value>> = alls
            .iter()
            .copied()
            .filter(|r| s.str(r, "rows") == rows)
            .collect();
        c = c
            .series(Series::new(
                format!("{rows} rows, measured"),
                Style::Points,
                common::points(s, &mine, "d", "over_eps_n"),
            ))
            .series(Series::new(
                format!("{rows} rows: (per-row share)^d"),
                Style::Line,
                common::points(s, &mine, "d", "all_rows_if_independent"),
            ));
    }
    let all: Vec<&Vec<Value>> = alls.to_vec();
    c.series(Series::new(
        "δ = e^−d",
        Style::Line,
        common::points(s, &all, "d", "delta"),
    ))
}
