//! Adversarial key generators, one file per attack. Each derives its keys
//! from the structure of a public hash function (no seed needed, or a known
//! one), so the crafted keys can be replayed against any implementation.
//! They only ever target structures in this process and the loopback Redis
//! server the tests start.
//!
//! - [`murmur`]: seed-independent multicollisions of MurmurHash3_x86_32 and
//!   MurmurHash64A, and same-output twins of MurmurHash3_x64_128
//!   (Aumasson, Bernstein, Boßlet, "Hash-flooding DoS reloaded", 2012).
//! - [`bloom`]: pollution (insertions that each set k fresh bits) and
//!   forgery (non-members that test positive) against a filter the attacker can model.
//! - [`flood`]: keys that share one probe sequence of `std::collections::HashMap`
//!   (FxHash inverted; murmur multicollisions), and a key that counts compares.
//! - [`count_min`]: a few keys that together hit a target's cell in every
//!   row of a Count-Min sketch whose hash is public.
//! - [`hll`]: deflation (items filtered by register index or rank) and inflation
//!   (inverted MurmurHash64A: any register, any rank) of Redis's HyperLogLog.
//! - [`seed`]: a MurmurHash or xxHash seed recovered from one observed output (inverted, no search).
//! - [`universal`]: universal families (Carter–Wegman, multiply-shift) drawn at
//!   random or fixed, keys crafted to collide under a known function, and the
//!   pigeonhole bucket.
//! - [`strings`]: 2^n colliding strings for Java's `String.hashCode` and PHP 5's
//!   DJBX33A, the hashes of the 2011 advisories (equivalent substrings).
//! - [`crc32`]: a second input with any chosen CRC32 (CRC is affine over GF(2)).

pub mod bloom;
pub mod count_min;
pub mod crc32;
pub mod flood;
pub mod hll;
pub mod murmur;
pub mod seed;
pub mod strings;
pub mod universal;

/// Hex of a key, as `keys.txt` files hold them.
pub fn hex(key: &[u8]) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}
