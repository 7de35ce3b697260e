//! `count_min`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::sketches::count_min::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::table::Value;

impl Present for CountMinStudy {
    const VIEW: &'static str = include_str!("count_min.toml");

    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
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
