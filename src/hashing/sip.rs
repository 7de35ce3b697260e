//! SipHash-1-3 (siphasher crate), 128-bit output, keyed with the full 128-bit seed.

use super::{KeyHasher, Seed};
use siphasher::sip128::SipHasher13;

/// SipHash-1-3 keyed by `(seed.lo, seed.hi)`. `fixed = 0` gives keys (0, 0),
/// the public constant std's `DefaultHasher::new()` uses.
#[derive(Clone, Debug)]
pub struct Sip13 {
    inner: SipHasher13,
    seed: Seed,
}

impl Sip13 {
    pub fn new(seed: Seed) -> Self {
        Sip13 {
            inner: SipHasher13::new_with_keys(seed.lo, seed.hi),
            seed,
        }
    }
}

impl KeyHasher for Sip13 {
    #[inline]
    fn hash128(&self, key: &[u8]) -> (u64, u64) {
        let h = self.inner.hash(key);
        (h.h1, h.h2)
    }

    fn derive(&self, index: u64) -> Self {
        Sip13::new(self.seed.derive(index))
    }
}
