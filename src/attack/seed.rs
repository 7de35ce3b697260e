//! Seed recovery: a non-cryptographic hash's seed read back from one
//! observed output. MurmurHash3_x86_32 on a 4-byte key and MurmurHash64A on
//! an 8-byte key are compositions of invertible steps (odd multiplications,
//! rotations, xor-shifts by at least half the word, xors with the key's own
//! mixed block), so the seed is the output run backwards: no search. (From
//! bucket positions alone, only low bits of outputs, recovery becomes a
//! search; this is the case where a hash value leaks whole.)

use super::murmur::{M64A, inv32, inv64, m64a_k, m64a_unfinalise, x86_k};

/// The seed under which MurmurHash3_x86_32(`key`) = `output`, for a 4-byte key.
pub fn murmur3_x86_32_seed(key: [u8; 4], output: u32) -> u32 {
    // undo fmix32: h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35; h ^= h >> 16
    let mut h = output ^ (output >> 16);
    h = h.wrapping_mul(inv32(0xc2b2_ae35));
    h ^= (h >> 13) ^ (h >> 26);
    h = h.wrapping_mul(inv32(0x85eb_ca6b));
    h ^= h >> 16;
    // undo `h ^= len`, then the block: h = rotl(h ^ K, 13) * 5 + 0xe6546b64
    h ^= 4;
    h = h
        .wrapping_sub(0xe654_6b64)
        .wrapping_mul(inv32(5))
        .rotate_right(13);
    h ^ x86_k(u32::from_le_bytes(key))
}

/// The seed under which MurmurHash64A(`key`) = `output`, for an 8-byte key.
pub fn murmur64a_seed(key: [u8; 8], output: u64) -> u64 {
    // undo the block, h = (h0 ^ K) * m, and h0 = seed ^ (8 * m)
    let h0 = m64a_unfinalise(output).wrapping_mul(inv64(M64A)) ^ m64a_k(u64::from_le_bytes(key));
    h0 ^ 8u64.wrapping_mul(M64A)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_come_back_from_one_output() {
        let mut s = 0x1234_5678_u64;
        for _ in 0..100 {
            s = crate::hashing::splitmix64(s);
            let key = s.to_le_bytes();
            let seed = crate::hashing::splitmix64(s ^ 1);
            let out = murmurhash64::murmur_hash64a(&key, seed);
            assert_eq!(murmur64a_seed(key, out), seed);
            let k4: [u8; 4] = key[..4].try_into().unwrap();
            let seed32 = seed as u32;
            let out32 = mur3::murmurhash3_x86_32(&k4, seed32);
            assert_eq!(murmur3_x86_32_seed(k4, out32), seed32);
        }
    }
}
