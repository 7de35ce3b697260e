//! `minhash_lsh`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::sketches::minhash_lsh::*;
use crate::experiment::present::Present;

impl Present for MinHashLsh {
    const VIEW: &'static str = include_str!("minhash_lsh.toml");
}
