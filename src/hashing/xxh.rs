//! xxHash (xxhash-rust crate): XXH3 (128 and 64-bit) and XXH64, seeded with `seed.lo`.

use super::strategy;
use xxhash_rust::xxh3::{xxh3_64_with_seed, xxh3_128_with_seed};
use xxhash_rust::xxh64::xxh64;

strategy! {
    /// XXH3-128 seeded with `seed.lo` (XXH3 takes a 64-bit seed). Halves are
    /// `(low 64 bits, high 64 bits)` of the 128-bit value.
    Xxh3 {
        name: "xxh3",
        width: 128,
        keyed: false,
        seed_use: "64-bit seed (lo)",
        source: "xxhash_rust::xxh3::xxh3_128_with_seed",
        state: u64 = |s| s.lo,
        native: |st, key| xxh3_128_with_seed(key, *st),
    }
}

strategy! {
    /// XXH3-64 seeded with `seed.lo`.
    Xxh3_64 {
        name: "xxh3_64",
        width: 64,
        keyed: false,
        seed_use: "64-bit seed (lo)",
        source: "xxhash_rust::xxh3::xxh3_64_with_seed",
        state: u64 = |s| s.lo,
        native: |st, key| xxh3_64_with_seed(key, *st),
    }
}

strategy! {
    /// XXH64 seeded with `seed.lo`.
    Xxh64 {
        name: "xxh64",
        width: 64,
        keyed: false,
        seed_use: "64-bit seed (lo)",
        source: "xxhash_rust::xxh64::xxh64",
        state: u64 = |s| s.lo,
        native: |st, key| xxh64(key, *st),
    }
}
