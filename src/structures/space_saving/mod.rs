//! SpaceSaving (Metwally, Agrawal, El Abbadi, ICDT 2005): the heavy hitters
//! of a stream in k counters, written here (no maintained crate offers it).
//!
//! # Properties
//! * Each counter holds a key, its count and the error it may carry. A
//!   monitored key's update adds one to its counter; an unmonitored key
//!   takes over the smallest counter, inheriting its count + 1 and
//!   recording that count as its error.
//! * A monitored key's count never underestimates and overestimates by at
//!   most its error, which is at most N/k ([`theory::overestimate_share`]);
//!   every key more frequent than N/k is monitored; the counts sum to N
//!   (each tested on exact streams).
//! * k counters of (key, count, error): 24 bytes each as state (the index
//!   that finds the smallest counter is not counted, as for any top list).
//!
//! # Usage
//! ```
//! use sketchlab::structures::space_saving::SpaceSaving;
//! let mut s = SpaceSaving::new(2).unwrap();
//! for k in [7, 7, 7, 1, 2] { s.insert(k); }
//! assert_eq!(s.estimate(7), 3);
//! assert_eq!(s.top(1), vec![(7, 3)]);
//! ```

pub mod theory;

use super::{ParamError, invalid};
use std::collections::{BTreeSet, HashMap};

/// Bytes of one counter's state: key, count and error as u64.
pub const COUNTER_BYTES: u64 = 24;

#[derive(Clone, Debug)]
pub struct SpaceSaving {
    k: usize,
    /// key -> (count, error)
    counters: HashMap<u64, (u64, u64)>,
    /// (count, key), ordered: the first is the smallest counter.
    order: BTreeSet<(u64, u64)>,
    total: u64,
}

impl SpaceSaving {
    /// k ≥ 1 counters.
    pub fn new(k: usize) -> Result<Self, ParamError> {
        if k == 0 {
            return Err(invalid("k", k, "must be at least 1"));
        }
        Ok(SpaceSaving {
            k,
            counters: HashMap::with_capacity(k),
            order: BTreeSet::new(),
            total: 0,
        })
    }

    /// Counts one occurrence of `key`.
    pub fn insert(&mut self, key: u64) {
        self.total += 1;
        if let Some((c, _)) = self.counters.get_mut(&key) {
            self.order.remove(&(*c, key));
            *c += 1;
            self.order.insert((*c, key));
        } else if self.counters.len() < self.k {
            self.counters.insert(key, (1, 0));
            self.order.insert((1, key));
        } else if let Some((min, victim)) = self.order.pop_first() {
            self.counters.remove(&victim);
            self.counters.insert(key, (min + 1, min));
            self.order.insert((min + 1, key));
        }
    }

    /// The key's count if monitored (an overestimate by at most its
    /// error), else 0.
    pub fn estimate(&self, key: u64) -> u64 {
        self.counters.get(&key).map_or(0, |&(c, _)| c)
    }

    /// The error a monitored key's count may carry (None: not monitored).
    pub fn error(&self, key: u64) -> Option<u64> {
        self.counters.get(&key).map(|&(_, e)| e)
    }

    /// The `n` monitored keys of highest count, highest first (ties by key).
    pub fn top(&self, n: usize) -> Vec<(u64, u64)> {
        self.order
            .iter()
            .rev()
            .take(n)
            .map(|&(c, k)| (k, c))
            .collect()
    }

    /// The smallest count (0 while a counter is free): no unmonitored key
    /// occurred more often.
    pub fn min_count(&self) -> u64 {
        if self.counters.len() < self.k {
            return 0;
        }
        self.order.first().map_or(0, |&(c, _)| c)
    }

    pub fn counters(&self) -> usize {
        self.k
    }

    /// Updates counted (N).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Bytes of the state: k counters of [`COUNTER_BYTES`].
    pub fn bytes(&self) -> u64 {
        self.k as u64 * COUNTER_BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Metwally et al.'s lemmas on exact streams: counts sum to N, each
    /// monitored count lies in [true, true + error], error ≤ min ≤ N/k,
    /// and every key more frequent than N/k is monitored.
    #[test]
    fn guarantees_hold_on_skewed_and_flat_streams() {
        for (k, seed) in [(10usize, 1u64), (50, 2), (7, 3)] {
            let mut s = SpaceSaving::new(k).unwrap();
            let mut truth: HashMap<u64, u64> = HashMap::new();
            let mut x = seed;
            let n = 20_000u64;
            for i in 0..n {
                // a skewed key half the time, a near-unique one otherwise
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let key = if i % 2 == 0 { (x >> 60) % 5 } else { x >> 20 };
                s.insert(key);
                *truth.entry(key).or_default() += 1;
            }
            let sum: u64 = s.counters.values().map(|&(c, _)| c).sum();
            assert_eq!(sum, n);
            assert!(s.min_count() as f64 <= n as f64 / k as f64);
            for (&key, &(c, e)) in &s.counters {
                let t = truth[&key];
                assert!(t <= c && c <= t + e, "{key}: {t} vs {c} ± {e}");
                assert!(e <= s.min_count());
            }
            for (&key, &t) in &truth {
                if t as f64 > n as f64 / k as f64 {
                    assert!(s.counters.contains_key(&key), "{key} ({t}) unmonitored");
                }
            }
        }
        assert!(SpaceSaving::new(0).is_err());
    }
}
