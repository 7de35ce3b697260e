//! `hll_intuition`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hll::hll_intuition::*;
use crate::experiment::present::Present;
use crate::export::markdown::sig;
use crate::report::Section;

impl Present for HllIntuition {
    const VIEW: &'static str = include_str!("hll_intuition.toml");

    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let table = s.project(
            &[
                "part",
                "x",
                "replicates",
                "measured",
                "measured_lo",
                "measured_hi",
                "measured_q50",
                "theory",
                "shorthand",
            ],
            |_| true,
        );
        let get = |part: &str, x: f64, col: &str| {
            s.where_str("part", part)
                .find(|r| s.f64(r, "x") == Some(x))
                .and_then(|r| s.f64(r, col))
        };
        let f = |v: Option<f64>| v.map(|v| sig(v, 4)).unwrap_or_else(|| "-".into());
        Section {
            table,
            reading: format!(
                "A run of 12 tails takes {} flips on average (exact 8,190; the essay's 4,096 is 2^12), while the longest run in 4,096 flips averages {} (exact {}): \"longest run 12 ⇒ about 4,096 flips\" is the right order but \"how long you wait for twelve tails in a row\" is twice that. Hashes beginning with ≥ 10 zeros: {} (2^−10 = {}). Longest leading-zero run among 10^6 hashes: mean {} (log2 N = 19.93, exact mean {}). One element alone holds the maximum in {} of streams of 10^6 (exact {}: one lucky element doubles a one-register answer that often). Sets of 10 with a 20-zero hash: {} (exact {}).",
                f(get("coin_wait", 12.0, "measured")),
                f(get("coin_longest", 12.0, "measured")),
                f(get("coin_longest", 12.0, "theory")),
                f(get("leading_zeros", 10.0, "measured")),
                f(get("leading_zeros", 10.0, "theory")),
                f(get("longest_run", 1e6, "measured")),
                f(get("longest_run", 1e6, "theory")),
                f(get("lucky", 1e6, "measured")),
                f(get("lucky", 1e6, "theory")),
                f(get("twenty_zeros", 20.0, "measured")),
                f(get("twenty_zeros", 20.0, "theory")),
            ),
        }
    }
}
