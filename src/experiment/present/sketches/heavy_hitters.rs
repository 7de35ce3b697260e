//! `heavy_hitters`: what the report shows of its rows (declared charts,
//! table and reading).

use crate::experiment::kinds::sketches::heavy_hitters::*;
use crate::experiment::present::Present;

impl Present for HeavyHitters {
    const VIEW: &'static str = include_str!("heavy_hitters.toml");
}
