//! Seed recovery: a non-cryptographic hash's seed read back from one
//! observed output. MurmurHash3_x86_32 on a 4-byte key, and MurmurHash64A,
//! XXH64 and XXH3-64 on an 8-byte key, are compositions of invertible steps
//! (odd multiplications, rotations, xor-shifts, xors and additions of the
//! key's own mixed words, and XXH3's `x ^ rotl(x, 49) ^ rotl(x, 24)`), so
//! the seed is the output run backwards: no search. (From bucket positions
//! alone, only low bits of outputs, recovery becomes a search; this is the
//! case where a hash value leaks whole.)

use super::murmur::{M64A, inv32, inv64, m64a_k, m64a_unfinalise, unshift, x86_k};

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

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

/// The seed under which XXH64(`key`) = `output`, for an 8-byte key.
///
/// For 8 bytes XXH64 is `h = seed + P5 + 8; h ^= round(0, word);
/// h = rotl(h, 27)·P1 + P4`, then its avalanche (xor-shifts by 33, 29, 32
/// and multiplications by P2, P3): every step inverts.
pub fn xxh64_seed(key: [u8; 8], output: u64) -> u64 {
    let mut h = unshift(output, 32);
    h = h.wrapping_mul(inv64(P3));
    h = unshift(h, 29);
    h = h.wrapping_mul(inv64(P2));
    h = unshift(h, 33);
    let k1 = u64::from_le_bytes(key)
        .wrapping_mul(P2)
        .rotate_left(31)
        .wrapping_mul(P1);
    let h = (h.wrapping_sub(P4).wrapping_mul(inv64(P1)).rotate_right(27)) ^ k1;
    h.wrapping_sub(8).wrapping_sub(P5)
}

/// XXH3's `x ^ rotl(x, 49) ^ rotl(x, 24)`. Over GF(2) this is `1 + N` with
/// N = z^24 + z^49 nilpotent in GF(2)[z]/(z^64 + 1) = GF(2)[z]/(z + 1)^64,
/// so `(1 + N)^64 = 1 + N^64 = 1`: applying it 63 times inverts it.
fn xxh3_rot(x: u64) -> u64 {
    x ^ x.rotate_left(49) ^ x.rotate_left(24)
}

const RRMXMX: u64 = 0x9FB2_1C65_1E98_DF25;

/// XXH3-64's 4-to-8-byte path backwards: the value `keyed` that
/// `rrmxmx(keyed, 8)` maps to `output`.
fn xxh3_unmix(output: u64) -> u64 {
    let mut h = unshift(output, 28);
    h = h.wrapping_mul(inv64(RRMXMX));
    // h ^= (h >> 35) + 8 touches only the low 30 bits, so it undoes itself
    h ^= (h >> 35) + 8;
    h = h.wrapping_mul(inv64(RRMXMX));
    for _ in 0..63 {
        h = xxh3_rot(h);
    }
    h
}

/// XXH3's 64-bit input word for an 8-byte key: the second 4 bytes plus the
/// first 4 shifted up.
fn xxh3_input(key: [u8; 8]) -> u64 {
    let lo = u32::from_le_bytes(key[..4].try_into().expect("4 bytes")) as u64;
    let hi = u32::from_le_bytes(key[4..].try_into().expect("4 bytes")) as u64;
    hi + (lo << 32)
}

/// The public constant XXH3 reads from its default secret for 4-to-8-byte
/// keys (secret words 1 and 2 XORed), read back from the reference crate's
/// output under seed 0, where it is the whole `bitflip`.
fn xxh3_secret_word() -> u64 {
    let key = [0u8; 8];
    xxh3_unmix(xxhash_rust::xxh3::xxh3_64_with_seed(&key, 0)) ^ xxh3_input(key)
}

/// The seed under which XXH3-64(`key`) = `output`, for an 8-byte key.
///
/// For 4 to 8 bytes XXH3 computes `s = seed ^ (swap32(seed as u32) << 32)`,
/// `keyed = input ^ (secret_word - s)`, then `rrmxmx(keyed, 8)`: each
/// step inverts, and `seed` is `s` with its high half unmixed.
pub fn xxh3_64_seed(key: [u8; 8], output: u64) -> u64 {
    let bitflip = xxh3_unmix(output) ^ xxh3_input(key);
    let s = xxh3_secret_word().wrapping_sub(bitflip);
    let lo = s as u32;
    s ^ ((lo.swap_bytes() as u64) << 32)
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
            let out = xxhash_rust::xxh64::xxh64(&key, seed);
            assert_eq!(xxh64_seed(key, out), seed);
            let out = xxhash_rust::xxh3::xxh3_64_with_seed(&key, seed);
            assert_eq!(xxh3_64_seed(key, out), seed);
        }
    }
}
