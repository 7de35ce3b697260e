//! MurmurHash3 x64_128 (mur3 crate), equal to Python's `mmh3.hash128` /
//! `mmh3.hash64` for the same 32-bit seed (vectors in tests/hash_vectors.rs).

use super::{KeyHasher, Seed};

/// MurmurHash3_x64_128 seeded with `seed.fold32()`. `(h1, h2)` are the two
/// halves `mmh3.hash64(key, signed=False)` returns; `mmh3.hash128` is
/// `h2 << 64 | h1`.
#[derive(Clone, Debug)]
pub struct Murmur3x64_128 {
    seed: Seed,
    seed32: u32,
}

impl Murmur3x64_128 {
    pub fn new(seed: Seed) -> Self {
        Murmur3x64_128 {
            seed,
            seed32: seed.fold32(),
        }
    }
}

impl KeyHasher for Murmur3x64_128 {
    #[inline]
    fn hash128(&self, key: &[u8]) -> (u64, u64) {
        mur3::murmurhash3_x64_128(key, self.seed32)
    }

    fn derive(&self, index: u64) -> Self {
        Murmur3x64_128::new(self.seed.derive(index))
    }
}
