//! `count_min`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::sketches::count_min::*;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::view::View;
use crate::experiment::view::common::{self};
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("count_min.toml");

/// The view registered for [`CountMinStudy`] (see [`crate::experiment::view::VIEWS`]).
pub struct CountMinView;

impl View for CountMinView {
    fn kind(&self) -> &'static str {
        CountMinStudy::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = summary_rows::<CountMinStudy, Rs>(t.summary());
        let alls: Vec<&(P, Rs)> = rows.iter().filter(|(_, r)| r.bin.text == "all").collect();
        let unders: f64 = alls
            .iter()
            .filter(|(_, r)| r.saturated.value != Some(1.0))
            .filter_map(|(_, r)| r.underestimates.value)
            .sum();
        let u32_unders: Vec<f64> = alls
            .iter()
            .filter(|(p, _)| p.counter == Width::U32)
            .filter_map(|(_, r)| r.underestimates.value)
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
            .filter(|(p, r)| !p.conservative && r.saturated.value == Some(0.0))
            .filter_map(|(_, r)| Some(r.row_overshoot.value? / r.n_over_w.value?))
            .collect();
        let worst = alls
            .iter()
            .filter_map(|(_, r)| Some((r.over_eps_n.value?, r.delta.value?)))
            .fold((0.0f64, 0.0f64), |a, b| if b.0 > a.0 { b } else { a });
        let depths = common::first_seen(rows.iter().map(|(p, _)| p.depth));
        let by_depth: Vec<String> = alls
            .iter()
            .filter(|_| depths.len() > 1)
            .filter_map(|(p, r)| {
                Some(format!(
                    "{} rows, d = {}: {} (independent rows would give {})",
                    p.rows,
                    r.d.text,
                    sig(r.over_eps_n.value?, 3),
                    sig(r.all_rows_if_independent.value?, 3)
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
                    .filter(|(_, r)| r.every_within.value == Some(1.0))
                    .count(),
                alls.len(),
                sig(ratios.iter().copied().fold(f64::INFINITY, f64::min), 4),
                sig(ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max), 4)
            ) + &by_depth,
        }
    }
}
