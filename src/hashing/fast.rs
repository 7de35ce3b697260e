//! Fast non-cryptographic hashes: FNV-1a 64 (fnv), CRC-32 (crc32fast),
//! FxHash (rustc-hash), foldhash and aHash. Each is fed the key bytes with a
//! single `write`, never through `Hash for [u8]` (which would add a length
//! prefix and change the values).

use super::strategy;
use std::hash::{BuildHasher, Hasher};

strategy! {
    /// FNV-1a 64 with offset basis `0xcbf29ce484222325 ^ seed.lo`: seed 0 is
    /// the standard function.
    Fnv1a64 {
        name: "fnv1a64",
        width: 64,
        keyed: false,
        seed_use: "xor into the offset basis (0 = standard FNV-1a)",
        source: "fnv::FnvHasher::with_key",
        state: u64 = |s| 0xcbf2_9ce4_8422_2325 ^ s.lo,
        native: |st, key| {
            let mut h = fnv::FnvHasher::with_key(*st);
            h.write(key);
            h.finish()
        },
    }
}

strategy! {
    /// CRC-32 (IEEE, as zlib's `crc32`) with initial value `seed.fold32()`:
    /// seed 0 is the standard checksum. A 32-bit output, and linear.
    Crc32 {
        name: "crc32",
        width: 32,
        keyed: false,
        seed_use: "initial CRC value (0 = zlib.crc32)",
        source: "crc32fast::Hasher",
        state: u32 = |s| s.fold32(),
        native: |st, key| {
            let mut h = crc32fast::Hasher::new_with_initial(*st);
            h.update(key);
            h.finalize()
        },
    }
}

strategy! {
    /// FxHash as rustc uses it (rustc-hash 2.x), `FxHasher::with_seed(seed.lo)`.
    Fx {
        name: "fx",
        width: 64,
        keyed: false,
        seed_use: "FxHasher::with_seed(lo)",
        source: "rustc_hash::FxHasher",
        state: usize = |s| s.lo as usize,
        native: |st, key| {
            let mut h = rustc_hash::FxHasher::with_seed(*st);
            h.write(key);
            h.finish()
        },
    }
}

strategy! {
    /// foldhash's fast variant (the one its HashMap uses), `FixedState::with_seed(seed.lo)`.
    FoldHash {
        name: "foldhash",
        width: 64,
        keyed: false,
        seed_use: "per-hasher seed (lo), fixed shared seed",
        source: "foldhash::fast::FixedState",
        state: foldhash::fast::FixedState = |s| foldhash::fast::FixedState::with_seed(s.lo),
        native: |st, key| {
            let mut h = st.build_hasher();
            h.write(key);
            h.finish()
        },
    }
}

strategy! {
    /// aHash with keys `(lo, hi, !lo, !hi)`. Its output depends on the crate
    /// version and on the CPU features it was compiled for (AES-NI or the
    /// portable fallback); this build uses the default target features.
    AHash {
        name: "ahash",
        width: 64,
        keyed: false,
        seed_use: "four 64-bit keys from (lo, hi)",
        source: "ahash::RandomState::with_seeds",
        state: ahash::RandomState = |s| ahash::RandomState::with_seeds(s.lo, s.hi, !s.lo, !s.hi),
        native: |st, key| {
            let mut h = st.build_hasher();
            h.write(key);
            h.finish()
        },
    }
}
