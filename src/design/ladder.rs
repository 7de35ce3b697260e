//! Qualify by measurement: a candidate's knob (counters, map size, width,
//! k, compression, 1/α) is walked from a start by halving while the
//! measurement meets the target and doubling while it does not, then the
//! gap between the last failing and the first meeting knob is bisected,
//! within the knob's range and the candidate's share of the time budget.
//! Every measurement made is kept, so the review can show the ladder.

use crate::error::Result;
use serde::Serialize;
use std::cmp::Ordering;
use std::time::{Duration, Instant};

/// A measured size, as a review reads it.
pub trait Rung: Clone {
    fn knob(&self) -> u64;
    fn bytes(&self) -> u64;
    fn meets(&self) -> bool;
    fn config(&self) -> &str;
}

/// One candidate: the size chosen and every size measured on the way.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate<M> {
    pub structure: String,
    pub chosen: Option<M>,
    pub ladder: Vec<M>,
    pub note: Option<String>,
}

impl<M: Rung> Candidate<M> {
    /// The sizes measured: the one with the fewest bytes that met the
    /// target is chosen; when none did, the nearest (the greatest by
    /// `nearer`), with a note naming the largest size tried.
    pub fn from_ladder(
        structure: &str,
        ladder: Vec<M>,
        nearer: impl Fn(&M, &M) -> Ordering,
    ) -> Self {
        let meeting = ladder
            .iter()
            .filter(|m| m.meets())
            .min_by_key(|m| (m.bytes(), m.knob()));
        let chosen = meeting
            .or_else(|| ladder.iter().max_by(|a, b| nearer(a, b)))
            .cloned();
        let note = meeting.is_none().then(|| {
            format!(
                "no size measured meets the target (the largest tried: {})",
                ladder
                    .iter()
                    .max_by_key(|m| m.knob())
                    .map_or("", |m| m.config())
            )
        });
        Candidate {
            structure: structure.into(),
            chosen,
            ladder,
            note,
        }
    }
}

/// The chosen size of the candidate named `name`.
pub fn chosen<'a, M>(cands: &'a [Candidate<M>], name: Option<&str>) -> Option<&'a M> {
    let name = name?;
    cands
        .iter()
        .find(|c| c.structure == name)
        .and_then(|c| c.chosen.as_ref())
}

/// When the `j`-th of `n` candidates must stop: the budget left after
/// `started`, shared evenly among the candidates still to measure.
pub fn deadline(started: Instant, budget: Duration, j: usize, n: usize) -> Instant {
    let left = budget.saturating_sub(started.elapsed());
    Instant::now() + left / (n - j).max(1) as u32
}

/// One measured knob.
#[derive(Clone, Debug)]
pub struct Step<M> {
    pub knob: u64,
    pub measured: M,
    pub meets: bool,
}

/// Bisection steps at most, and the ratio below which a bracket is narrow
/// enough (the smallest meeting knob within 10% of the largest failing one).
const BISECTIONS: usize = 3;
const NARROW: f64 = 1.1;

/// The knobs measured from `start` within `[lo, hi]` (each passed through
/// `norm`: a power of two, an even number), in the order measured. The
/// first is always measured; later ones only before `deadline`.
pub fn walk<M>(
    start: u64,
    (lo, hi): (u64, u64),
    norm: impl Fn(u64) -> u64,
    deadline: Instant,
    mut measure: impl FnMut(u64) -> Result<(M, bool)>,
) -> Result<Vec<Step<M>>> {
    let clamp = |k: u64| norm(k.clamp(lo, hi)).clamp(lo, hi);
    let mut steps: Vec<Step<M>> = Vec::new();
    let mut take = |k: u64, steps: &mut Vec<Step<M>>| -> Result<bool> {
        let (measured, meets) = measure(k)?;
        steps.push(Step {
            knob: k,
            measured,
            meets,
        });
        Ok(meets)
    };
    let mut k = clamp(start);
    let first = take(k, &mut steps)?;
    // (largest failing, smallest meeting)
    let mut bracket: Option<(u64, u64)> = None;
    loop {
        let next = if first {
            clamp(k / 2)
        } else {
            clamp(k.saturating_mul(2))
        };
        if next == k || Instant::now() >= deadline {
            break;
        }
        let meets = take(next, &mut steps)?;
        if meets != first {
            bracket = Some(if first { (next, k) } else { (k, next) });
            break;
        }
        k = next;
    }
    if let Some((mut fail, mut meet)) = bracket {
        for _ in 0..BISECTIONS {
            if meet as f64 / fail as f64 <= NARROW || Instant::now() >= deadline {
                break;
            }
            let mid = clamp(((fail as f64) * (meet as f64)).sqrt().round() as u64);
            if mid == fail || mid == meet {
                break;
            }
            if take(mid, &mut steps)? {
                meet = mid;
            } else {
                fail = mid;
            }
        }
    }
    Ok(steps)
}

/// The smallest power of two at or above `k` (at least 1).
pub fn pow2(k: u64) -> u64 {
    k.max(1).next_power_of_two()
}

/// `k` rounded up to even.
pub fn even(k: u64) -> u64 {
    k + k % 2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A monotone target: knobs at or above 37 meet. From 100 the walk
    /// halves to 50 (meets), 25 (fails), then bisects towards 37.
    #[test]
    fn finds_the_boundary_from_either_side() {
        let far = Instant::now() + std::time::Duration::from_secs(60);
        let down = walk(100, (1, 1000), |k| k, far, |k| Ok(((), k >= 37))).unwrap();
        let knobs: Vec<u64> = down.iter().map(|s| s.knob).collect();
        assert_eq!(&knobs[..3], &[100, 50, 25]);
        let best = down.iter().filter(|s| s.meets).map(|s| s.knob).min();
        assert!(best.unwrap() <= 41, "{knobs:?}");
        let up = walk(4, (1, 1000), |k| k, far, |k| Ok(((), k >= 37))).unwrap();
        let knobs: Vec<u64> = up.iter().map(|s| s.knob).collect();
        assert_eq!(&knobs[..5], &[4, 8, 16, 32, 64]);
        // the range stops the walk: nothing meets below 1000
        let none = walk(500, (1, 1000), |k| k, far, |_| Ok(((), false))).unwrap();
        assert_eq!(none.last().unwrap().knob, 1000);
        // a passed deadline measures the start only
        let past = Instant::now();
        assert_eq!(
            walk(8, (1, 64), pow2, past, |_| Ok(((), true)))
                .unwrap()
                .len(),
            1
        );
        assert_eq!((pow2(5), even(7), even(8)), (8, 8, 8));
    }
}
