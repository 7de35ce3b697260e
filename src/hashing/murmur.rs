//! MurmurHash: MurmurHash3 x64_128 and x86_32 (mur3 crate, equal to Python's
//! `mmh3.hash128` and `mmh3.hash`), and MurmurHash64A (murmurhash64 crate),
//! the function Redis uses for HyperLogLog.

use super::strategy;

strategy! {
    /// MurmurHash3_x64_128 seeded with `seed.fold32()`. `(h1, h2)` are the two
    /// halves `mmh3.hash64(key, signed=False)` returns; `mmh3.hash128` is
    /// `h2 << 64 | h1`.
    Murmur3x64_128 {
        name: "murmur3_x64_128",
        width: 128,
        keyed: false,
        seed_use: "32-bit seed (lo folded to 32 bits)",
        source: "mur3::murmurhash3_x64_128",
        state: u32 = |s| s.fold32(),
        native: |st, key| {
            let (h1, h2) = mur3::murmurhash3_x64_128(key, *st);
            (h2 as u128) << 64 | h1 as u128
        },
        halves: |st, key| mur3::murmurhash3_x64_128(key, *st),
    }
}

strategy! {
    /// MurmurHash3_x86_32 seeded with `seed.fold32()`: Python's `mmh3.hash(key, seed, signed=False)`.
    Murmur3x86_32 {
        name: "murmur3_x86_32",
        width: 32,
        keyed: false,
        seed_use: "32-bit seed (lo folded to 32 bits)",
        source: "mur3::murmurhash3_x86_32",
        state: u32 = |s| s.fold32(),
        native: |st, key| mur3::murmurhash3_x86_32(key, *st),
    }
}

strategy! {
    /// MurmurHash64A (Appleby's MurmurHash2, 64-bit) seeded with `seed.lo`; the
    /// default seed is Redis's 0xadc83b19 (hyperloglog.c).
    Murmur64a {
        name: "murmur64a",
        width: 64,
        keyed: false,
        seed_use: "64-bit seed (lo); default 0xadc83b19 as in Redis",
        default_seed: 0xadc8_3b19,
        source: "murmurhash64::murmur_hash64a",
        state: u64 = |s| s.lo,
        native: |st, key| murmurhash64::murmur_hash64a(key, *st),
    }
}
