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
mod fast;
mod murmur;
mod sip;
mod xxh;

use std::fmt;
use std::sync::OnceLock;

pub use fast::{AHash, Crc32, Fnv1a64, FoldHash, Fx};
pub use murmur::{Murmur3x64_128, Murmur3x86_32, Murmur64a};
pub use sip::{Sip13, Sip24, StdDefault};
pub use xxh::{Xxh3, Xxh3_64, Xxh64};

/// A hash function from bytes to `width()` bits, seen by structures as two
/// 64-bit halves `(h1, h2)` (see [`halves`]).
///
/// Implementations must be pure functions of `(key, seed)`.
pub trait KeyHasher: Send + Sync + Clone {
    /// Output width in bits: 32, 64 or 128.
    fn width(&self) -> u32;

    /// The function's own output, in the low `width()` bits.
    fn native(&self, key: &[u8]) -> u128;

    /// Two 64-bit halves for double hashing, by the rule in [`halves`].
    #[inline]
    fn hash128(&self, key: &[u8]) -> (u64, u64) {
        halves(self.native(key), self.width())
    }

    /// The same function keyed with an independent seed derived from this
    /// one and `index`; used for "k independent hashes" variants.
    fn derive(&self, index: u64) -> Self;
}

/// Facts about a strategy, for `sketchlab list --hashes` and the studies.
pub trait StrategyInfo {
    const NAME: &'static str;
    const WIDTH: u32;
    /// A keyed PRF whose random key resists hash flooding (SipHash).
    const KEYED: bool;
    /// How the seed is used (what `fixed = s` means for this function).
    const SEED_USE: &'static str;
    /// The crate that computes it.
    const SOURCE: &'static str;
    /// The seed used when none is given (0 for all but murmur64a).
    const DEFAULT_SEED: u64 = 0;
}

/// The documented rule turning a function's output into the two halves
/// double hashing needs:
/// * 128 bits: `(low 64, high 64)`;
/// * 64 bits: `(h, splitmix64(h))`;
/// * 32 bits: `(splitmix64(h), splitmix64(h ^ 0x9E3779B97F4A7C15))`, mixing
///   both so the first probe can reach any slot of a table larger than 2^32.
///
/// The halves carry no more information than the output: keys whose 32-bit
/// hashes collide (1 pair expected among 77,163 keys) get identical probe
/// sequences. `hash_in_structures` measures what that costs.
#[inline]
pub fn halves(native: u128, width: u32) -> (u64, u64) {
    match width {
        128 => (native as u64, (native >> 64) as u64),
        64 => {
            let h = native as u64;
            (h, splitmix64(h))
        }
        _ => {
            let h = native as u64;
            (splitmix64(h), splitmix64(h ^ 0x9E37_79B9_7F4A_7C15))
        }
    }
}

/// 128 bits of key material. A `fixed = s` policy gives `Seed { lo: s, hi: 0 }`;
/// each function takes what it can use (see [`StrategyInfo::SEED_USE`]).
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

/// Makes `key` this process's random key (a resumed study continues with the
/// key its journal's trials used). Fails, returning the key already drawn,
/// when this process drew a different one.
pub fn adopt_process_random_seed(key: Seed) -> Result<(), Seed> {
    let got = *PROCESS_SEED.get_or_init(|| key);
    if got == key { Ok(()) } else { Err(got) }
}

/// The process random key if one was drawn in this process (for manifests).
pub fn process_random_seed_if_used() -> Option<Seed> {
    PROCESS_SEED.get().copied()
}

/// Code generic over the concrete strategy, run through [`HashStrategy::visit`].
pub trait StrategyVisitor {
    type Output;
    fn visit<H: KeyHasher>(self, h: &H) -> Self::Output;
}

/// Declares the strategy zoo once: the name enum, the runtime enum, and
/// their dispatch.
macro_rules! strategies {
    ($($variant:ident => $ty:ty),* $(,)?) => {
        /// The hash functions a spec can name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum StrategyId { $($variant),* }

        impl StrategyId {
            pub const ALL: &'static [StrategyId] = &[$(StrategyId::$variant),*];

            pub fn name(self) -> &'static str {
                match self { $(StrategyId::$variant => <$ty as StrategyInfo>::NAME),* }
            }
            pub fn width(self) -> u32 {
                match self { $(StrategyId::$variant => <$ty as StrategyInfo>::WIDTH),* }
            }
            /// A keyed PRF (DoS-resistant with a random key).
            pub fn keyed(self) -> bool {
                match self { $(StrategyId::$variant => <$ty as StrategyInfo>::KEYED),* }
            }
            pub fn seed_use(self) -> &'static str {
                match self { $(StrategyId::$variant => <$ty as StrategyInfo>::SEED_USE),* }
            }
            pub fn source(self) -> &'static str {
                match self { $(StrategyId::$variant => <$ty as StrategyInfo>::SOURCE),* }
            }
            pub fn default_seed(self) -> u64 {
                match self { $(StrategyId::$variant => <$ty as StrategyInfo>::DEFAULT_SEED),* }
            }
            pub fn build(self, seed: Seed) -> HashStrategy {
                match self { $(StrategyId::$variant => HashStrategy::$variant(<$ty>::new(seed))),* }
            }
        }

        /// Any strategy, chosen at run time (what experiments use): one
        /// `match` per key around the concrete type.
        #[derive(Clone, Debug)]
        pub enum HashStrategy { $($variant($ty)),* }

        impl HashStrategy {
            pub fn kind(&self) -> StrategyId {
                match self { $(HashStrategy::$variant(_) => StrategyId::$variant),* }
            }

            /// Calls `v` with the concrete strategy type, so a hot loop
            /// inside it is monomorphised and pays no per-key dispatch.
            pub fn visit<V: StrategyVisitor>(&self, v: V) -> V::Output {
                match self { $(HashStrategy::$variant(h) => v.visit(h)),* }
            }
        }

        impl KeyHasher for HashStrategy {
            #[inline]
            fn width(&self) -> u32 {
                match self { $(HashStrategy::$variant(h) => h.width()),* }
            }
            #[inline]
            fn native(&self, key: &[u8]) -> u128 {
                match self { $(HashStrategy::$variant(h) => h.native(key)),* }
            }
            #[inline]
            fn hash128(&self, key: &[u8]) -> (u64, u64) {
                match self { $(HashStrategy::$variant(h) => h.hash128(key)),* }
            }
            fn derive(&self, index: u64) -> Self {
                match self { $(HashStrategy::$variant(h) => HashStrategy::$variant(h.derive(index))),* }
            }
        }
    };
}

strategies! {
    Sip13 => Sip13,
    Sip24 => Sip24,
    StdDefault => StdDefault,
    Xxh3 => Xxh3,
    Xxh3_64 => Xxh3_64,
    Xxh64 => Xxh64,
    Murmur3x64_128 => Murmur3x64_128,
    Murmur3x86_32 => Murmur3x86_32,
    Murmur64a => Murmur64a,
    Fnv1a64 => Fnv1a64,
    Crc32 => Crc32,
    Fx => Fx,
    Foldhash => FoldHash,
    Ahash => AHash,
}

impl StrategyId {
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.name() == s)
    }

    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|k| k.name()).collect()
    }
}

impl HashStrategy {
    pub fn new(kind: StrategyId, policy: SeedPolicy) -> Self {
        kind.build(policy.resolve())
    }
}

/// Declares one strategy: its struct (the seed plus state prepared from it),
/// its [`StrategyInfo`], and its [`KeyHasher`] impl from one expression that
/// computes the native output (and, for 128-bit functions, the halves).
macro_rules! strategy {
    (
        $(#[$doc:meta])*
        $ty:ident {
            name: $name:literal,
            width: $width:literal,
            keyed: $keyed:literal,
            seed_use: $seed_use:literal,
            $(default_seed: $def:expr,)?
            source: $src:literal,
            state: $st:ty = |$s:ident| $prep:expr,
            native: |$state:ident, $k:ident| $body:expr
            $(, halves: |$state2:ident, $k2:ident| $body2:expr)? $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $ty {
            seed: $crate::hashing::Seed,
            state: $st,
        }

        impl $ty {
            pub fn new($s: $crate::hashing::Seed) -> Self {
                $ty { seed: $s, state: $prep }
            }
        }

        impl $crate::hashing::StrategyInfo for $ty {
            const NAME: &'static str = $name;
            const WIDTH: u32 = $width;
            const KEYED: bool = $keyed;
            const SEED_USE: &'static str = $seed_use;
            const SOURCE: &'static str = $src;
            $(const DEFAULT_SEED: u64 = $def;)?
        }

        impl $crate::hashing::KeyHasher for $ty {
            fn width(&self) -> u32 {
                $width
            }
            #[inline]
            #[allow(clippy::redundant_closure_call, unused_variables)]
            fn native(&self, $k: &[u8]) -> u128 {
                let $state = &self.state;
                ($body) as u128
            }
            $(
                #[inline]
                fn hash128(&self, $k2: &[u8]) -> (u64, u64) {
                    let $state2 = &self.state;
                    $body2
                }
            )?
            fn derive(&self, index: u64) -> Self {
                Self::new(self.seed.derive(index))
            }
        }
    };
}
pub(crate) use strategy;

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
        for &k in StrategyId::ALL {
            assert_eq!(StrategyId::from_name(k.name()), Some(k));
            assert!([32, 64, 128].contains(&k.width()));
            assert_eq!(k.build(Seed::fixed(1)).width(), k.width());
        }
        assert_eq!(StrategyId::from_name("md5"), None);
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
    fn halves_follow_the_rule() {
        assert_eq!(halves(5 | 7 << 64, 128), (5, 7));
        assert_eq!(halves(5, 64), (5, splitmix64(5)));
        let (a, b) = halves(5, 32);
        assert_ne!(a, b);
        assert!(a > u32::MAX as u64 || b > u32::MAX as u64);
    }

    #[test]
    fn the_random_policy_reaches_the_hash() {
        // a keyed strategy under the random key differs from the same strategy
        // under the fixed default key (a policy that were ignored would not)
        let r = StrategyId::Xxh3.build(SeedPolicy::Random.resolve());
        let z = StrategyId::Xxh3.build(SeedPolicy::Fixed(0).resolve());
        assert_ne!(r.native(b"apple"), z.native(b"apple"));
        assert!(process_random_seed_if_used().is_some());
    }
}
