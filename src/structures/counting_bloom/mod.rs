//! Counting Bloom filters (Fan, Cao, Almeida, Broder 2000).
//!
//! # Properties
//! * m counters of 4 bits (two per byte, the chapter's "usual choice") or 8
//!   bits, k probes per key by double hashing ([`crate::hashing::double`]).
//! * Insert increments, delete decrements: deletion works for keys that were
//!   inserted. Counters saturate at 15 (or 255) and never wrap; what a
//!   decrement does to a saturated counter is the [`Overflow`] policy.
//! * With `Overflow::Decrement` (the chapter's description) a saturated
//!   counter that is later decremented falls below its true count, and members
//!   can vanish: false negatives. `Overflow::Sticky` never decrements a
//!   saturated counter, which keeps "no false negatives" at the price of
//!   counters that can no longer reach zero.
//! * Deleting a key that was never inserted decrements other keys' counters
//!   and can make members vanish.
//! * 4 bits per counter: 4× the bits of a plain Bloom filter at the same FPR.
//!
//! # Usage
//! ```
//! use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId};
//! use sketchlab::structures::counting_bloom::{CountingBloom, Overflow};
//!
//! let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
//! let mut f = CountingBloom::with_rate(10_000, 0.01, 4, Overflow::Decrement, h).unwrap();
//! f.insert(b"apple");
//! assert!(f.contains(b"apple"));
//! f.remove(b"apple").unwrap();
//! assert!(!f.contains(b"apple"));
//! ```
//!
//! # References
//! * L. Fan, P. Cao, J. Almeida, A. Z. Broder, "Summary Cache: A Scalable
//!   Wide-Area Web Cache Sharing Protocol", IEEE/ACM ToN 8(3), 2000.

mod filter;
pub mod theory;

pub use filter::{Counters, CountingBloom, Overflow};
