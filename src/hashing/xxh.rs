//! XXH3 (xxhash-rust crate), 128-bit output seeded with `seed.lo`.

use super::{KeyHasher, Seed};
use xxhash_rust::xxh3::xxh3_128_with_seed;

/// XXH3-128 seeded with `seed.lo` (the upper key half is unused: XXH3 takes a
/// 64-bit seed). Halves are `(low 64 bits, high 64 bits)` of the 128-bit value.
#[derive(Clone, Debug)]
pub struct Xxh3 {
    seed: Seed,
}

impl Xxh3 {
    pub fn new(seed: Seed) -> Self {
        Xxh3 { seed }
    }
}

impl KeyHasher for Xxh3 {
    #[inline]
    fn hash128(&self, key: &[u8]) -> (u64, u64) {
        let h = xxh3_128_with_seed(key, self.seed.lo);
        (h as u64, (h >> 64) as u64)
    }

    fn derive(&self, index: u64) -> Self {
        Xxh3::new(self.seed.derive(index))
    }
}
