//! `count_min_peers`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::sketches::count_min_peers::*;
use crate::experiment::present::Present;

impl Present for CountMinPeers {
    const VIEW: &'static str = include_str!("count_min_peers.toml");
}
