//! Strategy outputs against reference implementations.
//!
//! Vectors were produced with Python 3.11 and the PyPI packages `mmh3` 5.3.1
//! (`mmh3.hash128(key, seed)`, `mmh3.hash64(key, seed)`) and `xxhash` 3.x
//! (libxxhash 0.8, `xxhash.xxh3_128_intdigest(key, seed)`). Keys are hex.

use sketchlab::hashing::{
    HashStrategy, KeyHasher, Murmur3x64_128, Seed, SeedPolicy, Sip13, StrategyKind, Xxh3,
};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn as_u128((lo, hi): (u64, u64)) -> u128 {
    (hi as u128) << 64 | lo as u128
}

// (key hex, seed, mmh3.hash128, xxh3_128)
const VECTORS: &[(&str, u64, u128, u128)] = &[
    (
        "",
        0,
        0x00000000000000000000000000000000,
        0x99aa06d3014798d86001c324468d497f,
    ),
    (
        "61",
        0,
        0xe6b53a48510e895a85555565f6597889,
        0xa96faf705af16834e6c632b61e964e1f,
    ),
    (
        "616263",
        0,
        0x3ba2744126ca2d52b4963f3f3fad7867,
        0x06b05ab6733a618578af5f94892f3950,
    ),
    (
        "68656c6c6f",
        0,
        0x5b1e906a48ae1d19cbd8a7b341bd9b02,
        0xb5e9c1ad071b3e7fc779cfaa5e523818,
    ),
    (
        "68656c6c6f20776f726c64",
        0,
        0xab97467d60eb63b1533f6046eb7f610e,
        0xdf8d09e93f874900a99b8775cc15b6c7,
    ),
    (
        "54686520717569636b2062726f776e20666f78206a756d7073206f76657220746865206c617a7920646f67",
        0,
        0x7a433ca9c49a9347e34bbc7bbc071b6c,
        0xddd650205ca3e7fa24a1cc2e3a8a7651,
    ),
    (
        "000102030405060708090a0b0c0d0e0f10",
        0,
        0xc15f026b9edaa8245c76f40f9fe7c20e,
        0x685bc458b37d057fc06e233df7729217,
    ),
    (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
        0,
        0x55ac8073a7d6a30b7d41281bfaba4612,
        0x02175c3aabb00637e08d84951339de86,
    ),
    (
        "",
        42,
        0xd1016610da11cbb9f02aa77dfa1b8523,
        0x16c20acd33f7af2f3c1d09e9fe249164,
    ),
    (
        "61",
        42,
        0x25ebca9125f82b1528259ca4fdf626b0,
        0x28df5945863b24b74c437dd47f0716f4,
    ),
    (
        "616263",
        42,
        0x7510712b42353d300d85089fb3cff7d6,
        0x4bc24859f045e0b4d8438def21bbdcc3,
    ),
    (
        "68656c6c6f",
        42,
        0x2334b875b0efbc7ac4b8b3c960af6f08,
        0x6ce89a0bdba81f088c2f5b7e4cd59e16,
    ),
    (
        "68656c6c6f20776f726c64",
        42,
        0x85bdab5e19e59315c05292b747fc78c0,
        0x5a5ecb4a698378a282c1ce3b43a636ba,
    ),
];

#[test]
fn murmur3_x64_128_equals_python_mmh3_hash128() {
    for &(key, seed, want, _) in VECTORS {
        let h = Murmur3x64_128::new(Seed::fixed(seed));
        assert_eq!(
            as_u128(h.hash128(&unhex(key))),
            want,
            "key {key} seed {seed}"
        );
    }
    // 255 bytes of 'x': a length that is not a multiple of 4, 8 or 16
    let h = Murmur3x64_128::new(Seed::fixed(0));
    assert_eq!(
        as_u128(h.hash128(&[b'x'; 255])),
        0x67fb2ca49d704dead1a161d018039a7e
    );
}

#[test]
fn murmur3_halves_equal_python_mmh3_hash64_signed() {
    // mmh3.hash64(b"apple") == (-1903218603626193817, -2636715928632380305)
    let (h1, h2) = Murmur3x64_128::new(Seed::fixed(0)).hash128(b"apple");
    assert_eq!(
        (h1 as i64, h2 as i64),
        (-1_903_218_603_626_193_817, -2_636_715_928_632_380_305)
    );
}

#[test]
fn xxh3_128_equals_python_xxhash() {
    for &(key, seed, _, want) in VECTORS {
        let h = Xxh3::new(Seed::fixed(seed));
        assert_eq!(
            as_u128(h.hash128(&unhex(key))),
            want,
            "key {key} seed {seed}"
        );
    }
    assert_eq!(
        as_u128(Xxh3::new(Seed::fixed(0)).hash128(&[b'x'; 255])),
        0x1aa97e65e6ae70b02be953982ac8bd9d
    );
}

#[test]
fn sip13_uses_both_key_halves() {
    use siphasher::sip128::SipHasher13;
    let seed = Seed {
        lo: 0x0706050403020100,
        hi: 0x0f0e0d0c0b0a0908,
    };
    for key in [&b""[..], b"a", b"hello world", &[7u8; 100]] {
        let want = SipHasher13::new_with_keys(seed.lo, seed.hi).hash(key);
        assert_eq!(Sip13::new(seed).hash128(key), (want.h1, want.h2));
    }
}

#[test]
fn enum_dispatch_equals_concrete_types() {
    for kind in StrategyKind::ALL {
        let e = HashStrategy::new(kind, SeedPolicy::Fixed(42));
        assert_eq!(e.kind(), kind);
        let concrete = match kind {
            StrategyKind::Sip13 => Sip13::new(Seed::fixed(42)).hash128(b"key"),
            StrategyKind::Xxh3 => Xxh3::new(Seed::fixed(42)).hash128(b"key"),
            StrategyKind::Murmur3x64_128 => Murmur3x64_128::new(Seed::fixed(42)).hash128(b"key"),
        };
        assert_eq!(e.hash128(b"key"), concrete, "{kind:?}");
        assert_ne!(
            e.derive(1).hash128(b"key"),
            concrete,
            "derived seeds must differ for {kind:?}"
        );
    }
}
