//! `hll_arithmetic`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::hll::hll_arithmetic::*;
use crate::experiment::present::Present;

impl Present for HllArithmetic {
    const VIEW: &'static str = include_str!("hll_arithmetic.toml");
}
