//! `quantile_frontier`: what the report shows of its rows (declared charts,
//! table and reading).

use crate::experiment::kinds::sketches::quantile_frontier::*;
use crate::experiment::present::Present;

impl Present for QuantileFrontier {
    const VIEW: &'static str = include_str!("quantile_frontier.toml");
}
