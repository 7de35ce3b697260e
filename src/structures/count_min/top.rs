//! The `k` keys of highest estimate seen so far: what a Count-Min sketch is
//! paired with to list its heavy hitters (it cannot list keys by itself).
//! Each update offers its key with the sketch's estimate after the update;
//! a key already listed takes the new estimate, a new key enters while the
//! list has room, else it replaces the lowest entry when its estimate is
//! above it.

// lookups only (no answer depends on their iteration order): foldhash, not SipHash
use foldhash::HashMap;

/// The top list: keys and their latest estimates, and the lowest entry
/// (recomputed only when the one cached is stale).
#[derive(Clone, Debug)]
pub struct TopList {
    k: usize,
    est: HashMap<u64, u64>,
    min: Option<(u64, u64)>,
}

impl TopList {
    /// A list of at most `k` keys.
    pub fn new(k: usize) -> TopList {
        TopList {
            k,
            est: HashMap::with_capacity_and_hasher(k, Default::default()),
            min: None,
        }
    }

    /// Offers `key` with its current estimate `e`.
    pub fn offer(&mut self, key: u64, e: u64) {
        if let Some(v) = self.est.get_mut(&key) {
            *v = e;
            if self.min.is_some_and(|(_, k)| k == key) {
                self.min = None;
            }
        } else if self.est.len() < self.k {
            self.est.insert(key, e);
            self.min = None;
        } else {
            let (m, mk) = self.min.unwrap_or_else(|| self.lowest());
            if e > m {
                self.est.remove(&mk);
                self.est.insert(key, e);
                self.min = None;
            } else {
                self.min = Some((m, mk));
            }
        }
    }

    fn lowest(&self) -> (u64, u64) {
        self.est
            .iter()
            .map(|(&k, &v)| (v, k))
            .min()
            .unwrap_or((0, 0))
    }

    /// The listed keys and their estimates, highest first (ties by key).
    pub fn rows(&self) -> Vec<(u64, u64)> {
        let mut rows: Vec<(u64, u64)> = self.est.iter().map(|(&k, &v)| (k, v)).collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_highest_estimates() {
        let mut t = TopList::new(2);
        for (k, e) in [(1, 1), (2, 1), (3, 1), (1, 2), (3, 2), (3, 3), (2, 2)] {
            t.offer(k, e);
        }
        // 3 at 2 replaced 2 at 1 (the lowest); 2 back at 2 only ties the
        // lowest (1 at 2), and a new key enters only above it
        assert_eq!(t.rows(), vec![(3, 3), (1, 2)]);
    }
}
