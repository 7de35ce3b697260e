//! `redis_hll`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hll::redis_hll::*;
use crate::experiment::present::Present;
use crate::export::markdown::sig;
use crate::report::Section;
use crate::table::Value;

impl Present for RedisHllStudy {
    const VIEW: &'static str = include_str!("redis_hll.toml");

    fn section(&self, t: &Tables) -> Section {
        let r = &t.results;
        let table = r.project(
            &[
                "elements",
                "replicate",
                "n",
                "distinct",
                "sketchlab",
                "redis",
                "equal",
                "server",
            ],
            |row| r.f64(row, "replicate") == Some(0.0),
        );
        let compared: Vec<&Vec<Value>> = r
            .rows
            .iter()
            .filter(|row| r.f64(row, "redis").is_some())
            .collect();
        let equal = compared
            .iter()
            .filter(|row| r.cell(row, "equal") == &Value::Bool(true))
            .count();
        let server = r
            .rows
            .first()
            .map(|row| r.str(row, "server"))
            .unwrap_or_default();
        let reading = if compared.is_empty() {
            format!(
                "No Redis comparison was made ({server}); the sketchlab column alone is shown. Install redis-server or pass --redis-url."
            )
        } else {
            let largest = compared
                .iter()
                .filter_map(|row| r.f64(row, "n"))
                .fold(0.0, f64::max);
            format!(
                "Against {server}: PFCOUNT equals sketchlab's count at {equal} of {} checkpoints (random byte strings, sequential decimal strings, 8-byte integers; n from 1 to {}, through Redis's sparse and dense encodings).",
                compared.len(),
                sig(largest, 3)
            )
        };
        Section { table, reading }
    }
}
