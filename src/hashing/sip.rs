//! SipHash (siphasher crate): keyed PRFs, the hash Python and Rust use
//! against hash flooding; and std's `DefaultHasher::new()`, the same function
//! with the public constant key (0, 0).

use super::strategy;
use siphasher::sip128::{SipHasher13, SipHasher24};
use std::hash::Hasher;

strategy! {
    /// SipHash-1-3, 128-bit output, keyed by `(seed.lo, seed.hi)`.
    Sip13 {
        name: "sip13",
        width: 128,
        keyed: true,
        seed_use: "128-bit key (lo, hi)",
        source: "siphasher::sip128::SipHasher13",
        state: SipHasher13 = |s| SipHasher13::new_with_keys(s.lo, s.hi),
        native: |st, key| st.hash(key).as_u128(),
        halves: |st, key| {
            let h = st.hash(key);
            (h.h1, h.h2)
        },
    }
}

strategy! {
    /// SipHash-2-4, 128-bit output, keyed by `(seed.lo, seed.hi)`.
    Sip24 {
        name: "sip24",
        width: 128,
        keyed: true,
        seed_use: "128-bit key (lo, hi)",
        source: "siphasher::sip128::SipHasher24",
        state: SipHasher24 = |s| SipHasher24::new_with_keys(s.lo, s.hi),
        native: |st, key| st.hash(key).as_u128(),
        halves: |st, key| {
            let h = st.hash(key);
            (h.h1, h.h2)
        },
    }
}

strategy! {
    /// `std::hash::DefaultHasher::new()` fed the key bytes with `write`: today
    /// SipHash-1-3 with the public key (0, 0), 64-bit output. The seed is
    /// ignored, which is the point: every process computes the same function
    /// (so derived hashers are the same function too).
    StdDefault {
        name: "std_default",
        width: 64,
        keyed: false,
        seed_use: "ignored (key is the constant 0, 0)",
        source: "std::hash::DefaultHasher::new()",
        state: () = |_s| (),
        native: |_st, key| {
            let mut h = std::hash::DefaultHasher::new();
            h.write(key);
            h.finish()
        },
    }
}
