//! Attacks on a Bloom filter whose probe positions the attacker can compute
//! (a public hash with a constant seed: the chapter's mmh3 with seed 0).
//! Both are offline searches over candidate keys against the attacker's own
//! model of the filter; a keyed filter the attacker cannot model receives
//! keys that are, to it, random.

/// The attacker's model: a bit array and the probe positions of a key.
pub struct Model<F: Fn(&[u8]) -> Vec<u64>> {
    bits: Vec<u64>,
    positions: F,
}

impl<F: Fn(&[u8]) -> Vec<u64>> Model<F> {
    pub fn new(m: u64, positions: F) -> Self {
        Model {
            bits: vec![0; m.div_ceil(64) as usize],
            positions,
        }
    }

    fn get(&self, i: u64) -> bool {
        self.bits[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    pub fn insert(&mut self, key: &[u8]) {
        for i in (self.positions)(key) {
            self.bits[(i / 64) as usize] |= 1 << (i % 64);
        }
    }

    pub fn contains(&self, key: &[u8]) -> bool {
        (self.positions)(key).into_iter().all(|i| self.get(i))
    }

    /// Whether every probe of `key` is a distinct bit not yet set.
    fn all_fresh(&self, key: &[u8]) -> bool {
        let mut p = (self.positions)(key);
        if p.iter().any(|&i| self.get(i)) {
            return false;
        }
        p.sort_unstable();
        p.windows(2).all(|w| w[0] != w[1])
    }

    pub fn ones(&self) -> u64 {
        self.bits.iter().map(|w| w.count_ones() as u64).sum()
    }
}

/// What a search found and what it cost.
#[derive(Debug, Default)]
pub struct Found {
    pub keys: Vec<Vec<u8>>,
    /// Candidate keys hashed.
    pub tries: u64,
    /// The search stopped at its cap before finding `want` keys.
    pub capped: bool,
}

/// Pollution: `want` insertions chosen so that each sets k bits no earlier
/// key set (the model is updated as they are chosen), at most `max_tries`
/// candidates. Filled this way, n keys set nk bits instead of
/// m(1 - e^(-kn/m)), and the false-positive rate becomes (nk/m)^k.
pub fn pollute<F: Fn(&[u8]) -> Vec<u64>>(
    model: &mut Model<F>,
    want: usize,
    mut candidate: impl FnMut() -> Vec<u8>,
    max_tries: u64,
) -> Found {
    let mut f = Found::default();
    while f.keys.len() < want {
        if f.tries >= max_tries {
            f.capped = true;
            break;
        }
        f.tries += 1;
        let key = candidate();
        if model.all_fresh(&key) {
            model.insert(&key);
            f.keys.push(key);
        }
    }
    f
}

/// Forgery: `want` keys that the model reports present (non-members that
/// test positive), at most `max_tries` candidates (about 1/p per key).
pub fn forge<F: Fn(&[u8]) -> Vec<u64>>(
    model: &Model<F>,
    want: usize,
    mut candidate: impl FnMut() -> Vec<u8>,
    max_tries: u64,
) -> Found {
    let mut f = Found::default();
    while f.keys.len() < want {
        if f.tries >= max_tries {
            f.capped = true;
            break;
        }
        f.tries += 1;
        let key = candidate();
        if model.contains(&key) {
            f.keys.push(key);
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(m: u64, k: u64) -> impl Fn(&[u8]) -> Vec<u64> {
        move |key: &[u8]| {
            let (h1, h2) = mur3::murmurhash3_x64_128(key, 0);
            (0..k)
                .map(|i| h1.wrapping_add(i.wrapping_mul(h2)) % m)
                .collect()
        }
    }

    #[test]
    fn pollution_sets_k_fresh_bits_per_key_and_forgeries_test_positive() {
        let (m, k) = (20_000u64, 5u64);
        let mut model = Model::new(m, positions(m, k));
        let mut c = 0u64;
        let mut next = || {
            c += 1;
            c.to_le_bytes().to_vec()
        };
        let f = pollute(&mut model, 1000, &mut next, 10_000_000);
        assert_eq!(f.keys.len(), 1000);
        assert_eq!(model.ones(), 1000 * k);
        let g = forge(&model, 50, &mut next, 10_000_000);
        assert!(!g.capped && g.keys.iter().all(|key| model.contains(key)));
        // a cap stops a search that cannot finish
        let h = forge(&Model::new(m, positions(m, k)), 1, &mut next, 100);
        assert!(h.capped && h.keys.is_empty() && h.tries == 100);
    }
}
