//! `hll_merge`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::hll::hll_merge::*;
use crate::experiment::present::Present;

impl Present for HllMerge {
    const VIEW: &'static str = include_str!("hll_merge.toml");
}
