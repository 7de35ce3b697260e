//! Fast non-cryptographic hashes: FNV-1a 64 (fnv), CRC-32 (crc32fast),
//! FxHash (rustc-hash), foldhash and aHash. Each is fed the key bytes with a
//! single `write`, never through `Hash for [u8]` (which would add a length
//! prefix and change the values).

use super::{KeyHasher, Seed, StrategyInfo, seeded};
use std::hash::{BuildHasher, Hasher};

/// FNV-1a 64 with offset basis `0xcbf29ce484222325 ^ seed.lo`: seed 0 is
/// the standard function.
#[derive(Clone, Debug)]
pub struct Fnv1a64 {
    seed: Seed,
    state: u64,
}
seeded!(Fnv1a64, |s| 0xcbf2_9ce4_8422_2325 ^ s.lo);

impl StrategyInfo for Fnv1a64 {
    const NAME: &'static str = "fnv1a64";
    const WIDTH: u32 = 64;
    const KEYED: bool = false;
    const SEED_USE: &'static str = "xor into the offset basis (0 = standard FNV-1a)";
    const SOURCE: &'static str = "fnv::FnvHasher::with_key";
}

impl KeyHasher for Fnv1a64 {
    fn width(&self) -> u32 {
        64
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        let mut h = fnv::FnvHasher::with_key(self.state);
        h.write(key);
        h.finish() as u128
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}

/// CRC-32 (IEEE, as zlib's `crc32`) with initial value `seed.fold32()`:
/// seed 0 is the standard checksum. A 32-bit output, and linear.
#[derive(Clone, Debug)]
pub struct Crc32 {
    seed: Seed,
    state: u32,
}
seeded!(Crc32, |s| s.fold32());

impl StrategyInfo for Crc32 {
    const NAME: &'static str = "crc32";
    const WIDTH: u32 = 32;
    const KEYED: bool = false;
    const SEED_USE: &'static str = "initial CRC value (0 = zlib.crc32)";
    const SOURCE: &'static str = "crc32fast::Hasher";
}

impl KeyHasher for Crc32 {
    fn width(&self) -> u32 {
        32
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        let mut h = crc32fast::Hasher::new_with_initial(self.state);
        h.update(key);
        h.finalize() as u128
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}

/// FxHash as rustc uses it (rustc-hash 2.x), `FxHasher::with_seed(seed.lo)`.
#[derive(Clone, Debug)]
pub struct Fx {
    seed: Seed,
    state: usize,
}
seeded!(Fx, |s| s.lo as usize);

impl StrategyInfo for Fx {
    const NAME: &'static str = "fx";
    const WIDTH: u32 = 64;
    const KEYED: bool = false;
    const SEED_USE: &'static str = "FxHasher::with_seed(lo)";
    const SOURCE: &'static str = "rustc_hash::FxHasher";
}

impl KeyHasher for Fx {
    fn width(&self) -> u32 {
        64
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        let mut h = rustc_hash::FxHasher::with_seed(self.state);
        h.write(key);
        h.finish() as u128
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}

/// foldhash's fast variant (the one its HashMap uses), `FixedState::with_seed(seed.lo)`.
#[derive(Clone, Debug)]
pub struct FoldHash {
    seed: Seed,
    state: foldhash::fast::FixedState,
}
seeded!(FoldHash, |s| foldhash::fast::FixedState::with_seed(s.lo));

impl StrategyInfo for FoldHash {
    const NAME: &'static str = "foldhash";
    const WIDTH: u32 = 64;
    const KEYED: bool = false;
    const SEED_USE: &'static str = "per-hasher seed (lo), fixed shared seed";
    const SOURCE: &'static str = "foldhash::fast::FixedState";
}

impl KeyHasher for FoldHash {
    fn width(&self) -> u32 {
        64
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        let mut h = self.state.build_hasher();
        h.write(key);
        h.finish() as u128
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}

/// aHash with keys `(lo, hi, !lo, !hi)`. Its output depends on the crate
/// version and on the CPU features it was compiled for (AES-NI or the
/// portable fallback); this build uses the default target features.
#[derive(Clone, Debug)]
pub struct AHash {
    seed: Seed,
    state: ahash::RandomState,
}
seeded!(AHash, |s| ahash::RandomState::with_seeds(
    s.lo, s.hi, !s.lo, !s.hi
));

impl StrategyInfo for AHash {
    const NAME: &'static str = "ahash";
    const WIDTH: u32 = 64;
    const KEYED: bool = false;
    const SEED_USE: &'static str = "four 64-bit keys from (lo, hi)";
    const SOURCE: &'static str = "ahash::RandomState::with_seeds";
}

impl KeyHasher for AHash {
    fn width(&self) -> u32 {
        64
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        let mut h = self.state.build_hasher();
        h.write(key);
        h.finish() as u128
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}
