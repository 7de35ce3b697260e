//! The hash-strategy layer: every structure hashes `&[u8]` through a
//! [`KeyHasher`], which returns 128 bits as two 64-bit halves.
//!
//! A strategy is a hash function plus a [`SeedPolicy`]. `fixed = s` makes
//! runs reproducible (and, as the essay warns, makes the function public);
//! `random` draws one 128-bit key per process from the operating system and
//! records it in the run's manifest.
//!
//! Index derivation for multi-probe structures (Kirsch–Mitzenmacher double
//! hashing) lives in [`double`], and only there.

pub mod double;
pub mod murmur3;
pub mod sip;
pub mod xxh;

use std::fmt;
use std::sync::OnceLock;

pub use murmur3::Murmur3x64_128;
pub use sip::Sip13;
pub use xxh::Xxh3;

/// A hash function from bytes to 128 bits (two 64-bit halves `(h1, h2)`).
///
/// Implementations must be pure functions of `(key, seed)`.
pub trait KeyHasher: Send + Sync + Clone {
    /// Hash `key` to two 64-bit halves.
    fn hash128(&self, key: &[u8]) -> (u64, u64);

    /// The same function keyed with an independent seed derived from this
    /// one and `index`; used for "k independent hashes" variants.
    fn derive(&self, index: u64) -> Self;
}

/// 128 bits of key material. A `fixed = s` policy gives `Seed { lo: s, hi: 0 }`;
/// each function takes what it can use (documented on each strategy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seed {
    pub lo: u64,
    pub hi: u64,
}

impl Seed {
    pub const fn fixed(s: u64) -> Self {
        Seed { lo: s, hi: 0 }
    }

    /// A seed for the `index`-th derived hasher: a bijective mix of both halves,
    /// so distinct indices give distinct seeds.
    pub fn derive(self, index: u64) -> Self {
        Seed {
            lo: splitmix64(self.lo ^ splitmix64(index.wrapping_add(0x9E37_79B9_7F4A_7C15))),
            hi: splitmix64(self.hi ^ splitmix64(index ^ 0xD1B5_4A32_D192_ED03)),
        }
    }

    /// Fold to 32 bits (for 32-bit-seeded functions such as MurmurHash3).
    /// Seeds below 2^32 map to themselves, so `fixed = 42` means seed 42 as in
    /// Python's `mmh3.hash128(key, 42)`.
    pub fn fold32(self) -> u32 {
        (self.lo ^ (self.lo >> 32)) as u32
    }
}

/// Where a strategy's seed comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedPolicy {
    /// One 128-bit key per process, drawn from the OS on first use.
    Random,
    /// A constant: reproducible, and public.
    Fixed(u64),
}

impl SeedPolicy {
    pub fn resolve(self) -> Seed {
        match self {
            SeedPolicy::Fixed(s) => Seed::fixed(s),
            SeedPolicy::Random => process_random_seed(),
        }
    }
}

impl fmt::Display for SeedPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeedPolicy::Random => write!(f, "random"),
            SeedPolicy::Fixed(s) => write!(f, "fixed={s}"),
        }
    }
}

static PROCESS_SEED: OnceLock<Seed> = OnceLock::new();

/// The per-process random key (drawn once from the OS).
pub fn process_random_seed() -> Seed {
    *PROCESS_SEED.get_or_init(|| {
        let mut b = [0u8; 16];
        getrandom::fill(&mut b).expect("the operating system refused to provide random bytes");
        Seed {
            lo: u64::from_le_bytes(b[..8].try_into().unwrap()),
            hi: u64::from_le_bytes(b[8..].try_into().unwrap()),
        }
    })
}

/// The process random key if one was drawn in this process (for manifests).
pub fn process_random_seed_if_used() -> Option<Seed> {
    PROCESS_SEED.get().copied()
}

/// The hash functions a spec can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StrategyKind {
    Sip13,
    Xxh3,
    Murmur3x64_128,
}

impl StrategyKind {
    pub const ALL: [StrategyKind; 3] = [
        StrategyKind::Sip13,
        StrategyKind::Xxh3,
        StrategyKind::Murmur3x64_128,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::Sip13 => "sip13",
            StrategyKind::Xxh3 => "xxh3",
            StrategyKind::Murmur3x64_128 => "murmur3_x64_128",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }

    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|k| k.name()).collect()
    }

    /// Whether the function is keyed (its seed is a secret key that resists
    /// hash flooding when random) or merely seeded.
    pub fn keyed(self) -> bool {
        matches!(self, StrategyKind::Sip13)
    }

    pub fn build(self, seed: Seed) -> HashStrategy {
        match self {
            StrategyKind::Sip13 => HashStrategy::Sip13(Sip13::new(seed)),
            StrategyKind::Xxh3 => HashStrategy::Xxh3(Xxh3::new(seed)),
            StrategyKind::Murmur3x64_128 => HashStrategy::Murmur3(Murmur3x64_128::new(seed)),
        }
    }
}

/// Any strategy, chosen at run time (what experiments use). Dispatch is one
/// `match` per key, which the `hashing` bench shows costs nothing measurable
/// next to the hash itself.
#[derive(Clone, Debug)]
pub enum HashStrategy {
    Sip13(Sip13),
    Xxh3(Xxh3),
    Murmur3(Murmur3x64_128),
}

impl HashStrategy {
    pub fn new(kind: StrategyKind, policy: SeedPolicy) -> Self {
        kind.build(policy.resolve())
    }

    pub fn kind(&self) -> StrategyKind {
        match self {
            HashStrategy::Sip13(_) => StrategyKind::Sip13,
            HashStrategy::Xxh3(_) => StrategyKind::Xxh3,
            HashStrategy::Murmur3(_) => StrategyKind::Murmur3x64_128,
        }
    }
}

impl KeyHasher for HashStrategy {
    #[inline]
    fn hash128(&self, key: &[u8]) -> (u64, u64) {
        match self {
            HashStrategy::Sip13(h) => h.hash128(key),
            HashStrategy::Xxh3(h) => h.hash128(key),
            HashStrategy::Murmur3(h) => h.hash128(key),
        }
    }

    fn derive(&self, index: u64) -> Self {
        match self {
            HashStrategy::Sip13(h) => HashStrategy::Sip13(h.derive(index)),
            HashStrategy::Xxh3(h) => HashStrategy::Xxh3(h.derive(index)),
            HashStrategy::Murmur3(h) => HashStrategy::Murmur3(h.derive(index)),
        }
    }
}

/// SplitMix64's finaliser: a bijection on u64 with full avalanche. Used to
/// derive seeds and to make distinct integer keys, never as a strategy.
#[inline]
pub const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in StrategyKind::ALL {
            assert_eq!(StrategyKind::from_name(k.name()), Some(k));
        }
        assert_eq!(StrategyKind::from_name("md5"), None);
    }

    #[test]
    fn derived_seeds_differ() {
        let s = Seed::fixed(7);
        assert_ne!(s.derive(0), s.derive(1));
        assert_ne!(s.derive(0), s);
    }

    #[test]
    fn fold32_keeps_small_seeds() {
        assert_eq!(Seed::fixed(42).fold32(), 42);
        assert_eq!(Seed::fixed(u32::MAX as u64).fold32(), u32::MAX);
    }

    #[test]
    fn random_policy_is_stable_within_a_process() {
        assert_eq!(SeedPolicy::Random.resolve(), SeedPolicy::Random.resolve());
        assert!(process_random_seed_if_used().is_some());
    }
}
