//! `count_min_examples`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::sketches::count_min_examples::*;
use crate::experiment::present::Present;

impl Present for CountMinExamples {
    const VIEW: &'static str = include_str!("count_min_examples.toml");
}
