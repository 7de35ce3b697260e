//! `blocked_bloom`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::filters::blocked_bloom::*;
use crate::experiment::present::Present;

impl Present for BlockedBloomStudy {
    const VIEW: &'static str = include_str!("blocked_bloom.toml");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory_blocked"),
        ("standard_fpr_measured", "fpr_theory_standard"),
    ];
}
