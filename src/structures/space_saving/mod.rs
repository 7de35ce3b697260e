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

/// Bytes of one counter's state: key, count and error as u64.
pub const COUNTER_BYTES: u64 = 24;

/// One counter as the heap holds it: its count and key (the heap's order,
/// read without leaving the heap's array) and the slot that holds the rest.
#[derive(Clone, Copy, Debug)]
struct Entry {
    count: u64,
    key: u64,
    slot: usize,
}

impl Entry {
    /// The order of the heap: by count, ties by key. Keys are distinct, so
    /// no two entries tie: the root is the one smallest counter whatever the
    /// heap's layout.
    #[inline]
    fn rank(&self) -> (u64, u64) {
        (self.count, self.key)
    }
}

/// What a counter keeps outside the heap: the error it may carry and its
/// place in the heap.
#[derive(Clone, Copy, Debug)]
struct Slot {
    err: u64,
    at: usize,
}

/// The counters (fixed slots, a key keeps its slot while monitored) and a
/// binary min-heap of (count, key, slot) entries ordered by (count, key): the
/// smallest counter (the one an unmonitored key takes over; ties go to the
/// smallest key) is the root. An update finds its key's slot by one hash
/// lookup and sifts its entry down from where it is; moving entries in the
/// heap touches no hash table, and the comparisons read the heap's own
/// array, not the slots.
#[derive(Clone, Debug)]
pub struct SpaceSaving {
    k: usize,
    slots: Vec<Slot>,
    heap: Vec<Entry>,
    slot_of: foldhash::HashMap<u64, usize>,
    total: u64,
}

impl SpaceSaving {
    pub fn new(k: usize) -> Result<Self, ParamError> {
        if k == 0 {
            return Err(invalid("k", k, "must be at least 1"));
        }
        Ok(SpaceSaving {
            k,
            slots: Vec::with_capacity(k),
            heap: Vec::with_capacity(k),
            slot_of: foldhash::HashMap::with_capacity_and_hasher(k, Default::default()),
            total: 0,
        })
    }

    /// Counts one occurrence of `key`.
    pub fn insert(&mut self, key: u64) {
        self.total += 1;
        if let Some(&s) = self.slot_of.get(&key) {
            let at = self.slots[s].at;
            self.heap[at].count += 1;
            self.sift_down(at);
        } else if self.slots.len() < self.k {
            let s = self.slots.len();
            let at = self.heap.len();
            self.slots.push(Slot { err: 0, at });
            self.heap.push(Entry {
                count: 1,
                key,
                slot: s,
            });
            self.slot_of.insert(key, s);
            self.sift_up(at);
        } else {
            let min = self.heap[0];
            self.slot_of.remove(&min.key);
            self.slots[min.slot].err = min.count;
            self.heap[0] = Entry {
                count: min.count + 1,
                key,
                slot: min.slot,
            };
            self.slot_of.insert(key, min.slot);
            self.sift_down(0);
        }
    }

    /// Puts `e` at heap position `at` and tells its slot.
    #[inline]
    fn place(&mut self, at: usize, e: Entry) {
        self.heap[at] = e;
        self.slots[e.slot].at = at;
    }

    fn sift_up(&mut self, mut i: usize) {
        let e = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.heap[parent].rank() < e.rank() {
                break;
            }
            self.place(i, self.heap[parent]);
            i = parent;
        }
        self.place(i, e);
    }

    /// Moves the entry at `i` down past every child of smaller rank (the
    /// entry is held aside and written once, where it stops).
    fn sift_down(&mut self, mut i: usize) {
        let e = self.heap[i];
        let len = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= len {
                break;
            }
            let r = l + 1;
            let child = if r < len && self.heap[r].rank() < self.heap[l].rank() {
                r
            } else {
                l
            };
            if e.rank() < self.heap[child].rank() {
                break;
            }
            self.place(i, self.heap[child]);
            i = child;
        }
        self.place(i, e);
    }

    /// The key's heap entry and slot, if monitored.
    fn counter(&self, key: u64) -> Option<(&Entry, &Slot)> {
        self.slot_of.get(&key).map(|&s| {
            let slot = &self.slots[s];
            (&self.heap[slot.at], slot)
        })
    }

    pub fn estimate(&self, key: u64) -> u64 {
        self.counter(key).map_or(0, |(e, _)| e.count)
    }

    pub fn error(&self, key: u64) -> Option<u64> {
        self.counter(key).map(|(_, s)| s.err)
    }

    /// The `n` counters of highest (count, key), highest first, as (key, count).
    pub fn top(&self, n: usize) -> Vec<(u64, u64)> {
        let mut all: Vec<(u64, u64)> = self.heap.iter().map(Entry::rank).collect();
        all.sort_unstable_by(|a, b| b.cmp(a));
        all.into_iter().take(n).map(|(c, k)| (k, c)).collect()
    }

    pub fn min_count(&self) -> u64 {
        if self.slots.len() < self.k {
            return 0;
        }
        self.heap.first().map_or(0, |e| e.count)
    }

    /// Every monitored key as (key, count, error), in slot order.
    pub fn entries(&self) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        self.slots.iter().map(|s| {
            let e = &self.heap[s.at];
            (e.key, e.count, s.err)
        })
    }

    pub fn counters(&self) -> usize {
        self.k
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn bytes(&self) -> u64 {
        self.k as u64 * COUNTER_BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashMap};

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
            let sum: u64 = s.entries().map(|(_, c, _)| c).sum();
            assert_eq!(sum, n);
            assert!(s.min_count() as f64 <= n as f64 / k as f64);
            for (key, c, e) in s.entries() {
                let t = truth[&key];
                assert!(t <= c && c <= t + e, "{key}: {t} vs {c} ± {e}");
                assert!(e <= s.min_count());
            }
            for (&key, &t) in &truth {
                if t as f64 > n as f64 / k as f64 {
                    assert!(s.error(key).is_some(), "{key} ({t}) unmonitored");
                }
            }
        }
        assert!(SpaceSaving::new(0).is_err());
    }

    /// The first version of this structure: the counters in a map and an
    /// ordered set of (count, key). The heap must answer exactly as it did.
    struct Ordered {
        k: usize,
        counters: HashMap<u64, (u64, u64)>,
        order: BTreeSet<(u64, u64)>,
    }

    impl Ordered {
        fn insert(&mut self, key: u64) {
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
    }

    #[test]
    fn the_heap_answers_exactly_as_an_ordered_set_does() {
        for (k, seed, spread) in [
            (1usize, 4u64, 3u64),
            (3, 5, 10),
            (64, 6, 1000),
            (300, 7, 50),
        ] {
            let mut heap = SpaceSaving::new(k).unwrap();
            let mut set = Ordered {
                k,
                counters: HashMap::new(),
                order: BTreeSet::new(),
            };
            let mut x = seed;
            for i in 0..50_000u64 {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                // skewed: small keys often, many ties in count
                let key = ((x >> 33) % spread).min((x >> 13) % spread);
                heap.insert(key);
                set.insert(key);
                if i % 997 == 0 || i == 49_999 {
                    let want: Vec<(u64, u64)> =
                        set.order.iter().rev().map(|&(c, k)| (k, c)).collect();
                    assert_eq!(heap.top(k), want, "k = {k}, update {i}");
                    for (&key, &(c, e)) in &set.counters {
                        assert_eq!((heap.estimate(key), heap.error(key)), (c, Some(e)));
                    }
                    let min = if set.counters.len() < k {
                        0
                    } else {
                        set.order.first().unwrap().0
                    };
                    assert_eq!(heap.min_count(), min);
                }
            }
        }
    }
}
