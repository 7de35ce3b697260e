//! `hll_intuition`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::hll::hll_intuition::*;
use crate::experiment::present::Present;

impl Present for HllIntuition {
    const VIEW: &'static str = include_str!("hll_intuition.toml");
}
