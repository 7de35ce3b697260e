//! `birthday_bound`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::hashing::birthday_bound::*;
use crate::experiment::present::Present;

impl Present for BirthdayBound {
    const VIEW: &'static str = include_str!("birthday_bound.toml");

    const RECONSTRUCTS: Option<&'static str> = Some("The birthday bound by hash width");
}
