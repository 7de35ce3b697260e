//! Bloom filters (Bloom, 1970).
//!
//! # Properties
//! * m bits, k probes per key derived by double hashing ([`crate::hashing::double`]).
//! * No false negatives, ever: inserting only sets bits.
//! * False-positive rate ≈ (1 − e^(−kn/m))^k ([`theory::fpr`]); at the optimal
//!   k = (m/n)·ln 2 the array is half full and the space is ≈ 1.44·log2(1/p)
//!   bits per element, independent of the element size.
//! * Cannot delete, cannot grow, cannot enumerate.
//!
//! # Usage
//! ```
//! use sketchlab::hashing::{HashStrategy, Seed, SeedPolicy, StrategyId, Xxh3};
//! use sketchlab::structures::bloom::BloomFilter;
//!
//! // the fast path: XXH3-128 under this process's random key, the hasher a
//! // type parameter (`BloomFilter<Xxh3>`), so every call is monomorphised
//! let mut f = BloomFilter::sized(1_000_000, 0.01).unwrap();
//! assert_eq!((f.m(), f.k()), (9_585_059, 7)); // the chapter's formulas
//! f.insert(b"https://example.com/a");
//! assert!(f.contains(b"https://example.com/a"));
//!
//! // reproducible: a fixed seed (public, so only for keys nobody chooses)
//! let g = BloomFilter::with_rate(1_000_000, 0.01, Xxh3::new(Seed::fixed(1))).unwrap();
//! // a strategy named at run time: one `match` per key around the hash
//! let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
//! let r = BloomFilter::with_rate(1_000_000, 0.01, h).unwrap();
//! assert_eq!((g.m(), g.k()), (r.m(), r.k()));
//! ```
//!
//! # Variants
//! * [`IndependentBloom`]: k independently seeded hashes, the baseline double
//!   hashing is compared against.
//! * [`reference::ChapterBloom`]: the chapter's Python class, bit for bit.
//! * [`BlockedBloom`]: all k probes in one 512-bit block (one cache line).
//!
//! # References
//! * B. H. Bloom, "Space/time trade-offs in hash coding with allowable errors", CACM 13(7), 1970.
//! * A. Kirsch, M. Mitzenmacher, "Less Hashing, Same Performance", ESA 2006.

pub mod blocked;
pub mod datasketches;
mod filter;
pub mod reference;
pub mod split_block;
pub mod theory;

pub use blocked::BlockedBloom;
pub use filter::{BitArray, BloomFilter, IndependentBloom};
pub use split_block::SplitBlockBloom;

/// Keys a batched query hashes before it reads any bit: their loads are
/// prefetched together, so a batch waits on memory about once, not once per key.
pub const BATCH: usize = 16;

/// Keys the standard filter's pipelined batch query keeps in flight
/// ([`BloomFilter::contains_batch`]), so that many misses overlap. Measured
/// on this project's 2-core AMD EPYC VM (`examples/bloom_query_modes`,
/// 10^8 keys at 1%, 119 MB, absent keys): 8 in flight 48.1 ns per key,
/// 16 32.0 ns, 32 25.4 ns, 64 27.9 ns; an independent load over the same
/// bytes costs 9.3 ns there.
pub const PIPELINE: usize = 32;

/// The filter size from which the batched query prefetches. Measured by the
/// `scaling` study on this project's 2-core AMD EPYC VM (reports/scaling,
/// the standard filter's pipeline against the one-by-one loop): 0.97× at
/// 1.2 MB and 1.02× at 3.6 MB, in cache, where it gains nothing; 5.2× at
/// 12 MB and 4.7–5.0× at 36–120 MB. The threshold sits between 3.6 and 12 MB
/// rather than at the 32 MB L3 that /sys reports, because a dependent load
/// already costs 147 ns at 12 MB there: the L3 is shared with the host's
/// other tenants.
pub const PREFETCH_FROM_BYTES: usize = 8 << 20;

/// Whether a filter of `bytes` is worth the batched query's prefetching.
pub fn prefetch_pays(bytes: usize) -> bool {
    bytes >= PREFETCH_FROM_BYTES
}

/// Asks the CPU to bring the cache line holding `x` closer (a hint: it never
/// faults and changes no result; a no-op off x86_64).
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetch is a hint; it reads nothing architecturally and cannot
    // fault, and the pointer comes from a live reference
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            x as *const T as *const i8,
        )
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
