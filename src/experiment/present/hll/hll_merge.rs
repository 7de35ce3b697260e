//! `hll_merge`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hll::hll_merge::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::table::Value;

impl Present for HllMerge {
    const VIEW: &'static str = include_str!("hll_merge.toml");

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "nodes",
                "n",
                "p",
                "overlap",
                "merged_equals_union",
                "registers_differing",
                "bytes_per_node",
                "bytes_sent",
                "err_merged_ertl",
                "err_union_ertl",
            ],
            |_| true,
        );
        let equal = t
            .rows
            .iter()
            .filter(|r| t.cell(r, "merged_equals_union") == &Value::Bool(true))
            .count();
        let worst = t
            .rows
            .iter()
            .filter_map(|r| t.f64(r, "err_merged_ertl"))
            .fold(0.0f64, |a, e| a.max(e.abs()));
        let sent = t
            .rows
            .iter()
            .filter_map(|r| t.f64(r, "bytes_sent"))
            .fold(0.0f64, f64::max);
        Section {
            table,
            reading: format!(
                "In {equal} of {} settings the merged registers equal, register for register, those of one sketch fed the whole stream; the largest cluster sends {} bytes in all; the merged estimates are off by at most {}.",
                t.rows.len(),
                sig(sent, 4),
                pct(worst, 3)
            ),
        }
    }
}
