//! `lsm_read_path`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::bloom::lsm_read_path::*;
use crate::experiment::present::Present;

impl Present for LsmReadPath {
    const VIEW: &'static str = include_str!("lsm_read_path.toml");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("present_reads_with", "present_reads_with_theory"),
        ("absent_reads_with", "absent_reads_with_theory"),
        ("file_hit_rate", "file_hit_rate_theory"),
    ];
}
