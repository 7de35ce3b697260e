//! `count_min_examples`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::sketches::count_min_examples::*;
use crate::experiment::present::Present;
use crate::plot::{Chart, Point, Series, Style};
use crate::structures::count_min::theory;

impl Present for CountMinExamples {
    const VIEW: &'static str = include_str!("count_min_examples.toml");
    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let r = &t.results;
        let mut c = Chart::new(
            "bytes_by_rows",
            "Sketch bytes vs rows d for each example's width (4-byte counters) and the essay's 80 KB",
            "rows d",
            "bytes",
        )
        .hline(80_000.0, "80 KB");
        for row in &r.rows {
            let (Some(w), Some(d)) = (r.f64(row, "w"), r.f64(row, "d")) else {
                continue;
            };
            let pts = (1..=10)
                .map(|k| Point::new(k as f64, theory::bytes(w as u64, k, 4) as f64))
                .collect();
            c = c
                .series(Series::new(format!("w = {w}"), Style::Line, pts))
                .series(Series::new(
                    format!("{} (d = {d})", r.str(row, "example")),
                    Style::Points,
                    vec![Point::new(d, r.f64(row, "bytes").unwrap_or(f64::NAN))],
                ));
        }
        vec![c]
    }
}
