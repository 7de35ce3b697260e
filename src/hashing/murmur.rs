//! MurmurHash: MurmurHash3 x64_128 and x86_32 (mur3 crate, equal to Python's
//! `mmh3.hash128` and `mmh3.hash`), and MurmurHash64A (murmurhash64 crate),
//! the function Redis uses for HyperLogLog.

use super::{KeyHasher, Seed, StrategyInfo, seeded};

/// MurmurHash3_x64_128 seeded with `seed.fold32()`. `(h1, h2)` are the two
/// halves `mmh3.hash64(key, signed=False)` returns; `mmh3.hash128` is
/// `h2 << 64 | h1`.
#[derive(Clone, Debug)]
pub struct Murmur3x64_128 {
    seed: Seed,
    state: u32,
}
seeded!(Murmur3x64_128, |s| s.fold32());

impl StrategyInfo for Murmur3x64_128 {
    const NAME: &'static str = "murmur3_x64_128";
    const WIDTH: u32 = 128;
    const KEYED: bool = false;
    const SEED_USE: &'static str = "32-bit seed (lo folded to 32 bits)";
    const SOURCE: &'static str = "mur3::murmurhash3_x64_128";
}

impl KeyHasher for Murmur3x64_128 {
    fn width(&self) -> u32 {
        128
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        let (h1, h2) = mur3::murmurhash3_x64_128(key, self.state);
        (h2 as u128) << 64 | h1 as u128
    }
    #[inline]
    fn hash128(&self, key: &[u8]) -> (u64, u64) {
        mur3::murmurhash3_x64_128(key, self.state)
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}

/// MurmurHash3_x86_32 seeded with `seed.fold32()`: Python's `mmh3.hash(key, seed, signed=False)`.
#[derive(Clone, Debug)]
pub struct Murmur3x86_32 {
    seed: Seed,
    state: u32,
}
seeded!(Murmur3x86_32, |s| s.fold32());

impl StrategyInfo for Murmur3x86_32 {
    const NAME: &'static str = "murmur3_x86_32";
    const WIDTH: u32 = 32;
    const KEYED: bool = false;
    const SEED_USE: &'static str = "32-bit seed (lo folded to 32 bits)";
    const SOURCE: &'static str = "mur3::murmurhash3_x86_32";
}

impl KeyHasher for Murmur3x86_32 {
    fn width(&self) -> u32 {
        32
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        mur3::murmurhash3_x86_32(key, self.state) as u128
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}

/// MurmurHash64A (Appleby's MurmurHash2, 64-bit) seeded with `seed.lo`; the
/// default seed is Redis's 0xadc83b19 (hyperloglog.c).
#[derive(Clone, Debug)]
pub struct Murmur64a {
    seed: Seed,
    state: u64,
}
seeded!(Murmur64a, |s| s.lo);

impl StrategyInfo for Murmur64a {
    const NAME: &'static str = "murmur64a";
    const WIDTH: u32 = 64;
    const KEYED: bool = false;
    const SEED_USE: &'static str = "64-bit seed (lo); default 0xadc83b19 as in Redis";
    const SOURCE: &'static str = "murmurhash64::murmur_hash64a";
    const DEFAULT_SEED: u64 = 0xadc8_3b19;
}

impl KeyHasher for Murmur64a {
    fn width(&self) -> u32 {
        64
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        murmurhash64::murmur_hash64a(key, self.state) as u128
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}
