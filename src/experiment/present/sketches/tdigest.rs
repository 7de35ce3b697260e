//! `tdigest`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::sketches::tdigest::*;
use crate::experiment::present::Present;

impl Present for TDigestStudy {
    const VIEW: &'static str = include_str!("tdigest.toml");
}
