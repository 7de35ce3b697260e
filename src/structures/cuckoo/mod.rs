//! Cuckoo filters (Fan, Andersen, Kaminsky, Mitzenmacher 2014).
//!
//! # Properties
//! * A table of 2^j buckets of b slots, each slot an f-bit fingerprint (0 =
//!   empty). A key's fingerprint may live in bucket i1 (from the hash) or
//!   i2 = i1 XOR hash(fingerprint): partial-key cuckoo hashing, so either
//!   bucket gives the other from the fingerprint alone.
//! * Insert places the fingerprint in a free slot of i1 or i2, else evicts a
//!   random resident to its alternate bucket, up to `max_kicks` times. When the
//!   kicks run out the last evicted fingerprint is kept in a one-slot victim
//!   cache and the filter reports itself full: no item is ever dropped.
//! * A query reads two buckets; false positives ≤ 1 − (1 − 2^−f)^(2b) ≈ 2b/2^f.
//! * Delete removes one copy of the fingerprint; deleting a never-inserted key
//!   whose fingerprint matches removes someone else's, a false negative.
//!
//! # Usage
//! ```
//! use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId};
//! use sketchlab::structures::cuckoo::CuckooFilter;
//!
//! let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
//! let mut f = CuckooFilter::new(1 << 10, 4, 12, 500, 7, h).unwrap();
//! f.insert(b"apple").unwrap();
//! assert!(f.contains(b"apple"));
//! f.remove(b"apple").unwrap();
//! assert!(!f.contains(b"apple"));
//! ```
//!
//! # References
//! * B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter:
//!   Practically Better Than Bloom", CoNEXT 2014.

mod filter;
pub mod theory;

pub use filter::CuckooFilter;
