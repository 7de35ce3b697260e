//! `multicollision`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::attack::multicollision::*;
use crate::experiment::present::Present;

impl Present for Multicollision {
    const VIEW: &'static str = include_str!("multicollision.toml");
}
