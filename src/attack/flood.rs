//! Hash-table flooding: key sets that all land in one bucket chain of
//! `std::collections::HashMap` (hashbrown), for three hashers an attacker can
//! model, and the counting key that measures what a table did with them.
//!
//! hashbrown takes the bucket from the hash's low bits and a 7-bit tag from
//! its top 7 bits; an insert compares the key with every slot in its probe
//! sequence whose tag matches. Keys that share the low bits (up to the table
//! size) and the top 7 bits therefore all walk one probe sequence, and the
//! i-th insert compares with all i earlier keys: n inserts cost n²/2 compares.
//!
//! - FxHash (rustc-hash 2) on a `u64` is `rotl(x · K, 26)` with K odd, a
//!   bijection: any hash values can be chosen and inverted, no search.
//! - MurmurHash3_x86_32 and MurmurHash64A: the seed-independent
//!   multicollision families of [`super::murmur`], one full hash for every seed.

use super::murmur::Target;
use std::cell::Cell;
use std::hash::{BuildHasher, Hash, Hasher};

/// rustc-hash 2's multiplier on 64-bit targets.
pub const FX_K: u64 = 0xf135_7aea_2e62_a9c5;
/// rustc-hash 2's final rotation on 64-bit targets.
pub const FX_ROTATE: u32 = 26;

/// What `FxHasher` returns for one `write_u64(x)` (a `u64` key's `Hash`).
pub fn fx_u64(x: u64) -> u64 {
    x.wrapping_mul(FX_K).rotate_left(FX_ROTATE)
}

/// `count` distinct `u64` keys whose FxHash values share their low 32 bits
/// and their top 7 bits (so they share hashbrown's bucket in every table up
/// to 2^32 buckets, and its tag); at most 2^25 exist per `low`.
pub fn fx_colliding(count: usize, low: u32) -> Vec<u64> {
    assert!(count <= 1 << 25, "only 2^25 such keys per low word");
    let inv = super::murmur::inv64(FX_K);
    (0..count as u64)
        .map(|j| {
            let h = j << 32 | low as u64; // bits 32..56 vary; 57..63 are 0
            h.rotate_right(FX_ROTATE).wrapping_mul(inv)
        })
        .collect()
}

/// `count` distinct members of a murmur multicollision family on `base`
/// (which must span at least ⌈log2 count⌉ units).
pub fn murmur_family(target: Target, base: &[u8], count: usize) -> Vec<Vec<u8>> {
    assert!(
        (count as u128) <= 1u128 << target.units(base.len()).min(64),
        "the base spans too few units for {count} members"
    );
    (0..count as u64).map(|i| target.member(base, i)).collect()
}

/// Units a family of `count` members needs.
pub fn units_for(count: usize) -> usize {
    (usize::BITS - count.saturating_sub(1).leading_zeros()) as usize
}

thread_local! {
    static COMPARES: Cell<u64> = const { Cell::new(0) };
}

/// A key that counts its equality comparisons (per thread), hashing exactly
/// as the wrapped key does: the table's work, measured without a clock.
#[derive(Clone, Debug, Eq)]
pub struct Counted<K>(pub K);

impl<K: PartialEq> PartialEq for Counted<K> {
    fn eq(&self, other: &Self) -> bool {
        COMPARES.with(|c| c.set(c.get() + 1));
        self.0 == other.0
    }
}

impl<K: Hash> Hash for Counted<K> {
    fn hash<S: Hasher>(&self, state: &mut S) {
        self.0.hash(state)
    }
}

/// Key comparisons counted on this thread while `f` ran.
pub fn count_compares(f: impl FnOnce()) -> u64 {
    let before = COMPARES.with(|c| c.get());
    f();
    COMPARES.with(|c| c.get()) - before
}

/// A byte-string key hashed with one `write` of its bytes (no length
/// prefix), so a one-shot hash function sees exactly the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bytes<'a>(pub &'a [u8]);

impl Hash for Bytes<'_> {
    fn hash<S: Hasher>(&self, state: &mut S) {
        state.write(self.0)
    }
}

/// A `BuildHasher` that runs one of sketchlab's hash strategies over the
/// bytes of a single `write` (the low 64 bits of its output).
#[derive(Clone)]
pub struct OneShot<H>(pub H);

/// The per-hash state: a copy of the strategy (a seed word for murmur).
pub struct OneShotHasher<H> {
    h: H,
    out: u64,
}

impl<H: crate::hashing::KeyHasher> BuildHasher for OneShot<H> {
    type Hasher = OneShotHasher<H>;
    fn build_hasher(&self) -> OneShotHasher<H> {
        OneShotHasher {
            h: self.0.clone(),
            out: 0,
        }
    }
}

impl<H: crate::hashing::KeyHasher> Hasher for OneShotHasher<H> {
    fn write(&mut self, bytes: &[u8]) {
        self.out = self.h.native(bytes) as u64;
    }
    fn finish(&self) -> u64 {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn fx_model_matches_rustc_hash() {
        let b = rustc_hash::FxBuildHasher;
        for x in [0u64, 1, 42, 0xdead_beef, u64::MAX] {
            assert_eq!(b.hash_one(x), fx_u64(x));
        }
        assert_eq!(FX_K.wrapping_mul(crate::attack::murmur::inv64(FX_K)), 1);
    }

    #[test]
    fn fx_keys_share_bucket_bits_and_tag() {
        let keys = fx_colliding(1000, 0x5eed);
        let distinct: std::collections::HashSet<u64> = keys.iter().copied().collect();
        assert_eq!(distinct.len(), 1000);
        for &k in &keys {
            let h = fx_u64(k);
            assert_eq!(h as u32, 0x5eed);
            assert_eq!(h >> 57, 0);
        }
    }

    /// The work a table does, counted: quadratic with the modelled hasher,
    /// flat with RandomState on the same keys.
    #[test]
    fn crafted_keys_make_inserts_linear_in_n() {
        let per_insert = |n: usize, fx: bool| {
            let keys = fx_colliding(n, 7);
            let c = if fx {
                let mut m: HashMap<Counted<u64>, u32, rustc_hash::FxBuildHasher> =
                    HashMap::default();
                count_compares(|| {
                    keys.iter().for_each(|&k| {
                        m.insert(Counted(k), 0);
                    })
                })
            } else {
                let mut m: HashMap<Counted<u64>, u32> = HashMap::new();
                count_compares(|| {
                    keys.iter().for_each(|&k| {
                        m.insert(Counted(k), 0);
                    })
                })
            };
            c as f64 / n as f64
        };
        let (a, b) = (per_insert(500, true), per_insert(2000, true));
        assert!(a > 200.0 && b > 900.0 && b / a > 3.5, "{a} {b}");
        assert!(per_insert(2000, false) < 2.0);
    }

    #[test]
    fn murmur_family_collides_in_a_map_under_a_random_seed() {
        use crate::hashing::{Murmur64a, Seed};
        let t = Target::Murmur64a;
        let base: Vec<u8> = (0..t.unit() * units_for(300) + 5)
            .map(|i| (i * 37) as u8)
            .collect();
        let fam = murmur_family(t, &base, 300);
        let build = OneShot(Murmur64a::new(Seed::fixed(0x1234_5678_9abc)));
        let h0 = build.hash_one(Bytes(&fam[0]));
        assert!(fam.iter().all(|k| build.hash_one(Bytes(k)) == h0));
        let mut m: HashMap<Counted<Bytes<'_>>, u32, _> = HashMap::with_hasher(build);
        let c = count_compares(|| {
            fam.iter().for_each(|k| {
                m.insert(Counted(Bytes(k)), 0);
            })
        });
        assert_eq!(m.len(), 300);
        assert!(c >= 300 * 299 / 2, "{c}");
        assert_eq!(units_for(1), 0);
        assert_eq!(units_for(2), 1);
        assert_eq!(units_for(100_000), 17);
    }
}
