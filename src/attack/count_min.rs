//! The Count-Min cover attack. An attacker who can compute a sketch's row
//! columns (a public hash with a constant seed) searches offline for a few
//! keys that, between them, hit a target key's cell in every row. Inserting
//! only those keys inflates the target's estimate, the minimum over its
//! cells, by the count each cover key carries, while the target itself is
//! never inserted: the εN bound assumed the columns were random to the stream.

/// A cover the search found, and what it cost.
#[derive(Debug, Default)]
pub struct Cover {
    /// Cover keys with the rows (bit i = row i) where each hits the target's column.
    pub keys: Vec<(Vec<u8>, u64)>,
    /// Candidate keys hashed.
    pub tries: u64,
    /// The budget ran out before a cover of at most `want` keys was found
    /// (the smallest cover seen is returned; it may not cover every row).
    pub capped: bool,
}

/// The fewest of `sets` (row bitmasks over `d` rows) whose union is every
/// row: an exact set cover by dynamic programming over the 2^d row subsets.
/// Returns indices into `sets`, or `None` when their union misses a row.
pub fn min_cover(sets: &[u64], d: u32) -> Option<Vec<usize>> {
    assert!(d <= 20, "an exact cover over 2^d subsets needs d <= 20");
    let full = (1u64 << d) - 1;
    let size = 1usize << d;
    // best[s]: (keys covering exactly the rows s, the last set, the subset before it)
    let mut best: Vec<(u32, usize, usize)> = vec![(u32::MAX, 0, 0); size];
    best[0] = (0, 0, 0);
    for s in 0..size {
        let k = best[s].0;
        if k == u32::MAX {
            continue;
        }
        for (i, &m) in sets.iter().enumerate() {
            let t = (s as u64 | m) as usize;
            if t != s && k + 1 < best[t].0 {
                best[t] = (k + 1, i, s);
            }
        }
    }
    if best[full as usize].0 == u32::MAX {
        return None;
    }
    let mut out = Vec::new();
    let mut s = full as usize;
    while s != 0 {
        out.push(best[s].1);
        s = best[s].2;
    }
    Some(out)
}

/// Searches candidates (at most `max_tries`) for keys hitting the target's
/// column `target[i]` in some row i, and stops once the smallest cover of
/// all `target.len()` rows has at most `want` keys. `columns(key)` is the
/// attacker's model of the sketch.
pub fn cover<I: IntoIterator<Item = usize>, K: AsRef<[u8]>>(
    columns: impl Fn(&[u8]) -> I,
    target: &[usize],
    mut candidate: impl FnMut() -> K,
    want: usize,
    max_tries: u64,
) -> Cover {
    let d = target.len() as u32;
    // per distinct row set, the first key that hit exactly it
    let mut found: Vec<(Vec<u8>, u64)> = Vec::new();
    let mut c = Cover::default();
    let mut current: Option<Vec<usize>> = None;
    loop {
        if let Some(idx) = &current
            && idx.len() <= want
        {
            break;
        }
        if c.tries >= max_tries {
            c.capped = true;
            break;
        }
        c.tries += 1;
        // no allocation per candidate: only kept keys are copied
        let key = candidate();
        let hits = columns(key.as_ref())
            .into_iter()
            .zip(target)
            .enumerate()
            .filter(|(_, (a, b))| a == *b)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        if hits == 0 || found.iter().any(|(_, m)| m | hits == *m) {
            continue; // no row, or no more than a key already kept
        }
        found.push((key.as_ref().to_vec(), hits));
        let sets: Vec<u64> = found.iter().map(|(_, m)| *m).collect();
        current = min_cover(&sets, d);
    }
    match current {
        Some(idx) => c.keys = idx.into_iter().map(|i| found[i].clone()).collect(),
        None => c.keys = found, // partial: every row-hitting key kept
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
    use crate::structures::count_min::CountMin;

    #[test]
    fn min_cover_is_exact() {
        assert_eq!(min_cover(&[0b001, 0b010], 3), None);
        let c = min_cover(&[0b001, 0b010, 0b100, 0b110], 3).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c.iter().fold(0, |m, &i| m | [1, 2, 4, 6][i]), 0b111);
        assert_eq!(min_cover(&[0b11111], 5).unwrap(), vec![0]);
    }

    /// The cover inflates a never-inserted key past εN on the modelled
    /// sketch; the same keys do nothing special to a keyed one.
    #[test]
    fn cover_inflates_the_target() {
        let public = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(0));
        let model = CountMin::<u32, _>::new(272, 4, public.clone()).unwrap();
        let target = b"the target";
        let cols: Vec<usize> = model.columns(target).collect();
        let mut i = 0u64;
        let cand = || {
            i += 1;
            i.to_le_bytes()
        };
        let found = cover(|k| model.columns(k), &cols, cand, 4, 1_000_000);
        assert!(!found.capped && found.keys.len() <= 4);
        let mut real = CountMin::<u32, _>::new(272, 4, public).unwrap();
        let keyed = HashStrategy::new(StrategyId::Sip13, SeedPolicy::Fixed(0x5eed));
        let mut defended = CountMin::<u32, _>::new(272, 4, keyed).unwrap();
        for (k, _) in &found.keys {
            real.update(k, 1000);
            defended.update(k, 1000);
        }
        assert!(real.estimate(target) >= 1000);
        // N = 1000 per cover key: the keyed sketch's target sees a cover
        // key only where a column collides by chance (at most a few of 4 rows)
        assert!(defended.estimate(target) < 1000);
    }
}
