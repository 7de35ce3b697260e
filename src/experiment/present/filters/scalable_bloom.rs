//! `scalable_bloom`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::filters::scalable_bloom::*;
use crate::experiment::present::Present;

impl Present for ScalableBloomStudy {
    const VIEW: &'static str = include_str!("scalable_bloom.toml");

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory"),
        ("fixed_fpr_measured", "fixed_fpr_theory"),
    ];
}
