//! SipHash (siphasher crate): keyed PRFs, the hash Python and Rust use
//! against hash flooding; and std's `DefaultHasher::new()`, the same function
//! with the public constant key (0, 0).

use super::{KeyHasher, Seed, StrategyInfo, seeded};
use siphasher::sip128::{SipHasher13, SipHasher24};
use std::hash::Hasher;

/// SipHash-1-3, 128-bit output, keyed by `(seed.lo, seed.hi)`.
#[derive(Clone, Debug)]
pub struct Sip13 {
    seed: Seed,
    state: SipHasher13,
}
seeded!(Sip13, |s| SipHasher13::new_with_keys(s.lo, s.hi));

impl StrategyInfo for Sip13 {
    const NAME: &'static str = "sip13";
    const WIDTH: u32 = 128;
    const KEYED: bool = true;
    const SEED_USE: &'static str = "128-bit key (lo, hi)";
    const SOURCE: &'static str = "siphasher::sip128::SipHasher13";
}

impl KeyHasher for Sip13 {
    fn width(&self) -> u32 {
        Self::WIDTH
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        self.state.hash(key).as_u128()
    }
    #[inline]
    fn hash128(&self, key: &[u8]) -> (u64, u64) {
        let h = self.state.hash(key);
        (h.h1, h.h2)
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}

/// SipHash-2-4, 128-bit output, keyed by `(seed.lo, seed.hi)`.
#[derive(Clone, Debug)]
pub struct Sip24 {
    seed: Seed,
    state: SipHasher24,
}
seeded!(Sip24, |s| SipHasher24::new_with_keys(s.lo, s.hi));

impl StrategyInfo for Sip24 {
    const NAME: &'static str = "sip24";
    const WIDTH: u32 = 128;
    const KEYED: bool = true;
    const SEED_USE: &'static str = "128-bit key (lo, hi)";
    const SOURCE: &'static str = "siphasher::sip128::SipHasher24";
}

impl KeyHasher for Sip24 {
    fn width(&self) -> u32 {
        Self::WIDTH
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        self.state.hash(key).as_u128()
    }
    #[inline]
    fn hash128(&self, key: &[u8]) -> (u64, u64) {
        let h = self.state.hash(key);
        (h.h1, h.h2)
    }
    fn derive(&self, index: u64) -> Self {
        Self::new(self.seed.derive(index))
    }
}

/// `std::hash::DefaultHasher::new()` fed the key bytes with `write`: today
/// SipHash-1-3 with the public key (0, 0), 64-bit output. The seed is
/// ignored, which is the point: every process computes the same function.
#[derive(Clone, Debug)]
pub struct StdDefault {
    seed: Seed,
    state: (),
}
seeded!(StdDefault, |_s| ());

impl StrategyInfo for StdDefault {
    const NAME: &'static str = "std_default";
    const WIDTH: u32 = 64;
    const KEYED: bool = false;
    const SEED_USE: &'static str = "ignored (key is the constant 0, 0)";
    const SOURCE: &'static str = "std::hash::DefaultHasher::new()";
}

impl KeyHasher for StdDefault {
    fn width(&self) -> u32 {
        Self::WIDTH
    }
    #[inline]
    fn native(&self, key: &[u8]) -> u128 {
        let _ = (&self.seed, &self.state);
        let mut h = std::hash::DefaultHasher::new();
        h.write(key);
        h.finish() as u128
    }
    /// Derived hashers are the same constant function: std offers no seed.
    fn derive(&self, _index: u64) -> Self {
        self.clone()
    }
}
