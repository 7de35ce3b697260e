//! The choice among measured candidates, the same for every review: the
//! smallest, the fastest, the fastest within 10% of the smallest's bytes
//! (a trade-off worth naming), and what `--prefer` makes the
//! recommendation; and the clock the timings were taken under (a load
//! average above the core count makes them unreliable, and says so).

use crate::vocab::Prefer;
use serde::Serialize;

/// A candidate within this share of the smallest's bytes is "about as
/// small" (the trade-off named beside the recommendation).
pub const NEAR_BYTES: f64 = 0.10;

/// The ranking of measured candidates.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Choice {
    pub prefer: Option<Prefer>,
    /// What the review recommends: the smallest, or with `--prefer speed`
    /// the fastest.
    pub recommended: Option<String>,
    /// The next by the same order.
    pub runner_up: Option<String>,
    pub smallest: Option<String>,
    pub fastest: Option<String>,
    /// The fastest candidate within [`NEAR_BYTES`] of the smallest's bytes,
    /// when it is not the smallest.
    pub trade_off: Option<String>,
}

/// Ranks `(name, bytes, ns per operation)` by `prefer` (ties: the other
/// criterion, then the order given).
pub fn choose(candidates: &[(String, f64, f64)], prefer: Prefer) -> Choice {
    let mut by_bytes: Vec<&(String, f64, f64)> = candidates.iter().collect();
    by_bytes.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)));
    let mut by_speed = by_bytes.clone();
    by_speed.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.1.total_cmp(&b.1)));
    let smallest = by_bytes.first().map(|c| c.0.clone());
    let fastest = by_speed.first().map(|c| c.0.clone());
    let trade_off = by_bytes.first().and_then(|s| {
        by_speed
            .iter()
            .find(|c| c.1 <= s.1 * (1.0 + NEAR_BYTES))
            .filter(|c| c.0 != s.0 && c.2 < s.2)
            .map(|c| c.0.clone())
    });
    let order = match prefer {
        Prefer::Bytes => &by_bytes,
        Prefer::Speed => &by_speed,
    };
    Choice {
        prefer: Some(prefer),
        recommended: order.first().map(|c| c.0.clone()),
        runner_up: order.get(1).map(|c| c.0.clone()),
        smallest,
        fastest,
        trade_off,
    }
}

impl Choice {
    /// The terminal lines: the recommendation (or that none qualifies),
    /// the runner-up, the trade-off and the other extreme; `line`
    /// describes a measured candidate by name.
    pub fn lines(&self, what: &str, speed: &str, line: impl Fn(&str) -> Option<String>) -> String {
        let get = |x: &Option<String>| x.as_deref().and_then(&line);
        let how = match self.prefer.unwrap_or_default() {
            Prefer::Bytes => "smallest",
            Prefer::Speed => "fastest",
        };
        let mut s = match get(&self.recommended) {
            Some(l) => format!("  recommended ({how}): {l}\n"),
            None => format!("  no {what} qualifies\n"),
        };
        if let Some(l) = get(&self.runner_up) {
            s += &format!("  runner-up: {l}\n");
        }
        if let Some(l) = get(&self.trade_off).filter(|_| self.trade_off != self.runner_up) {
            s += &format!(
                "  within {:.0}% of the smallest's bytes and faster: {l}\n",
                NEAR_BYTES * 100.0
            );
        }
        let other = match self.prefer.unwrap_or_default() {
            Prefer::Bytes => (&self.fastest, speed.to_string()),
            Prefer::Speed => (&self.smallest, "smallest".to_string()),
        };
        if other.0 != &self.recommended
            && other.0 != &self.runner_up
            && let Some(l) = get(other.0)
        {
            s += &format!("  {}: {l}\n", other.1);
        }
        s
    }
}

/// The conditions the timings were taken under.
#[derive(Clone, Debug, Serialize)]
pub struct Clock {
    pub cores: usize,
    /// The one-minute load average when the measurement started and ended.
    pub load_average_start: Option<f64>,
    pub load_average_end: Option<f64>,
    /// False when the load average exceeded the core count: other work
    /// shared the cores and the ns figures are slower than on a quiet machine.
    pub timings_reliable: bool,
}

impl Clock {
    /// The load average now.
    pub fn start() -> Option<f64> {
        crate::metrics::process::load_average()
    }

    /// The clock of a measurement that started at `start`.
    pub fn finish(start: Option<f64>) -> Clock {
        let cores = crate::metrics::process::cores();
        let end = crate::metrics::process::load_average();
        let worst = start.into_iter().chain(end).fold(0.0f64, f64::max);
        Clock {
            cores,
            load_average_start: start,
            load_average_end: end,
            timings_reliable: worst <= cores as f64,
        }
    }

    /// The terminal's closing lines: why fewer were measured than asked
    /// (when they were), and the warning when the timings are unreliable.
    pub fn closing(&self, scaled: Option<&str>) -> String {
        let mut s = scaled.map_or(String::new(), |sc| format!("  scaled: {sc}\n"));
        let w = self.warning();
        if !w.is_empty() {
            s += &format!("  {w}\n");
        }
        s
    }

    /// A warning when the timings are unreliable ("" otherwise).
    pub fn warning(&self) -> String {
        if self.timings_reliable {
            return String::new();
        }
        format!(
            "Timings unreliable: the load average was {} on {} cores while they were taken (start {}, end {}); other work shared the cores, so the ns figures are slower than on a quiet machine and the speed ranking may differ.",
            self.load_average_start
                .into_iter()
                .chain(self.load_average_end)
                .fold(0.0f64, f64::max),
            self.cores,
            self.load_average_start
                .map_or("unknown".into(), |l| l.to_string()),
            self.load_average_end
                .map_or("unknown".into(), |l| l.to_string()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(n: &str, bytes: f64, ns: f64) -> (String, f64, f64) {
        (n.into(), bytes, ns)
    }

    #[test]
    fn the_trade_off_is_the_fastest_near_the_smallest() {
        let cands = [
            c("a", 100.0, 50.0),
            c("b", 107.0, 30.0),
            c("c", 109.0, 40.0),
            c("d", 200.0, 10.0),
        ];
        let ch = choose(&cands, Prefer::Bytes);
        assert_eq!(ch.recommended.as_deref(), Some("a"));
        assert_eq!(ch.runner_up.as_deref(), Some("b"));
        assert_eq!(ch.trade_off.as_deref(), Some("b"));
        assert_eq!(ch.fastest.as_deref(), Some("d"));
        let sp = choose(&cands, Prefer::Speed);
        assert_eq!(sp.recommended.as_deref(), Some("d"));
        assert_eq!(sp.runner_up.as_deref(), Some("b"));
        // nothing near the smallest is faster: no trade-off
        let none = choose(&[c("a", 100.0, 10.0), c("b", 105.0, 20.0)], Prefer::Bytes);
        assert_eq!(none.trade_off, None);
        assert_eq!(choose(&[], Prefer::Bytes).recommended, None);
    }
}
