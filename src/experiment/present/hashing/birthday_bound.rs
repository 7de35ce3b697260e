//! `birthday_bound`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hashing::birthday_bound::*;
use crate::experiment::present::Present;
use crate::report::Section;

impl Present for BirthdayBound {
    const VIEW: &'static str = include_str!("birthday_bound.toml");

    const RECONSTRUCTS: Option<&'static str> = Some("The birthday bound by hash width");

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "bits",
                "n_values",
                "m_one_in_a_million",
                "m_50pct",
                "m_one_expected",
                "sqrt_n",
                "years_to_sqrt_n",
                "m",
                "pairs_at_m",
                "p_exact_at_m",
                "p_approx_at_m",
            ],
            |_| true,
        );
        Section {
            table,
            reading: "Each extra bit of hash width multiplies every column by √2: an n-bit hash collides after about 2^(n/2) items, and the waiting time at a fixed rate grows the same way.".into(),
        }
    }
}
