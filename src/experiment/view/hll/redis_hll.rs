//! `redis_hll`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::hll::redis_hll::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::sig;
use crate::report::Section;

const VIEW: &str = include_str!("redis_hll.toml");

/// The view registered for [`RedisHllStudy`] (see [`crate::experiment::view::VIEWS`]).
pub struct RedisHllView;

impl View for RedisHllView {
    fn kind(&self) -> &'static str {
        RedisHllStudy::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<RedisHllStudy>(&t.results);
        let compared: Vec<&R> = rows
            .iter()
            .map(|(_, r)| r)
            .filter(|r| r.redis.is_some())
            .collect();
        let equal = compared.iter().filter(|r| r.equal == Some(true)).count();
        let server = rows
            .first()
            .map(|(_, r)| r.server.as_str())
            .unwrap_or_default();
        let reading = if compared.is_empty() {
            format!(
                "No Redis comparison was made ({server}); the sketchlab column alone is shown. Install redis-server or pass --redis-url."
            )
        } else {
            let largest = compared.iter().map(|r| r.n).max().unwrap_or(0);
            format!(
                "Against {server}: PFCOUNT equals sketchlab's count at {equal} of {} checkpoints (random byte strings, sequential decimal strings, 8-byte integers; n from 1 to {}, through Redis's sparse and dense encodings).",
                compared.len(),
                sig(largest as f64, 3)
            )
        };
        Section { table, reading }
    }
}
