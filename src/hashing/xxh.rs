//! xxHash (xxhash-rust crate): XXH3 (128 and 64-bit) and XXH64, seeded with `seed.lo`.

use super::{KeyHasher, Seed, StrategyInfo, seeded};
use xxhash_rust::xxh3::{xxh3_64_with_seed, xxh3_128_with_seed};
use xxhash_rust::xxh64::xxh64;

macro_rules! xxh {
    ($ty:ident, $name:literal, $width:literal, $src:literal, |$k:ident, $s:ident| $f:expr) => {
        #[derive(Clone, Debug)]
        pub struct $ty {
            seed: Seed,
            state: u64,
        }
        seeded!($ty, |s| s.lo);

        impl StrategyInfo for $ty {
            const NAME: &'static str = $name;
            const WIDTH: u32 = $width;
            const KEYED: bool = false;
            const SEED_USE: &'static str = "64-bit seed (lo)";
            const SOURCE: &'static str = $src;
        }

        impl KeyHasher for $ty {
            fn width(&self) -> u32 {
                $width
            }
            #[inline]
            fn native(&self, $k: &[u8]) -> u128 {
                let $s = self.state;
                ($f) as u128
            }
            fn derive(&self, index: u64) -> Self {
                Self::new(self.seed.derive(index))
            }
        }
    };
}

xxh!(
    Xxh3,
    "xxh3",
    128,
    "xxhash_rust::xxh3::xxh3_128_with_seed",
    |k, s| xxh3_128_with_seed(k, s)
);
xxh!(
    Xxh3_64,
    "xxh3_64",
    64,
    "xxhash_rust::xxh3::xxh3_64_with_seed",
    |k, s| xxh3_64_with_seed(k, s)
);
xxh!(Xxh64, "xxh64", 64, "xxhash_rust::xxh64::xxh64", |k, s| {
    xxh64(k, s)
});
