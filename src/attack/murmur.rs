//! Seed-independent differentials of MurmurHash (derived here, following
//! the idea of Aumasson, Bernstein and Boßlet 2012).
//!
//! Every MurmurHash body first maps each input word `k` to `K` by an
//! invertible map (multiplications by odd constants and a rotation, or an
//! xorshift), then XORs `K` into the state. Working in this K-space:
//!
//! - **MurmurHash3_x86_32** (4-byte blocks; state update
//!   `h = rotl(h ^ K, 13) * 5 + 0xe6546b64`). XOR `0x0004_0000` (bit 18)
//!   into the K of one block: after `rotl 13` the difference is bit 31, and
//!   `x * 5 = x + 4x` keeps a bit-31 difference as exactly bit 31 (the `4x`
//!   term shifts it out). XORing `0x8000_0000` into the next block's K
//!   cancels it, whatever the state, hence whatever the seed. Each 8-byte
//!   pair toggles independently: n pairs give 2^n inputs with one hash.
//! - **MurmurHash64A** (8-byte words; `h = (h ^ K) * m`, m odd). A bit-63
//!   difference survives multiplication by an odd m as bit 63; XOR bit 63
//!   into K of two consecutive words and the second cancels the first.
//! - **MurmurHash3_x64_128** (16-byte blocks of two words; per block
//!   `h1 = (rotl(h1 ^ K1, 27) + h2) * 5 + c`, then
//!   `h2 = (rotl(h2 ^ K2, 31) + h1) * 5 + c'`). In a 32-byte chunk of two
//!   blocks: bit 36 in K1 becomes bit 63 of h1 (rotl 27; + and ×5 keep a
//!   top-bit difference); bit 32 in K2 becomes bit 63 after rotl 31, and
//!   the two top-bit differences cancel in `+ h1`, so h2 is unchanged; bit
//!   63 in the next block's K1 cancels h1's. The chunk's twin has the same
//!   128-bit output for every seed.
//!
//! Only words of the body (not the tail) may be changed; lengths are kept.

const X86_C1: u32 = 0xcc9e_2d51;
const X86_C2: u32 = 0x1b87_3593;
pub(crate) const M64A: u64 = 0xc6a4_a793_5bd1_e995;
const X64_C1: u64 = 0x87c3_7b91_1142_53d5;
const X64_C2: u64 = 0x4cf5_ad43_2745_937f;

/// The multiplicative inverse of an odd number mod 2^32.
pub(crate) const fn inv32(a: u32) -> u32 {
    let mut x = a; // Newton: each step doubles the correct low bits
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u32.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// The multiplicative inverse of an odd number mod 2^64.
pub(crate) const fn inv64(a: u64) -> u64 {
    let mut x = a;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// Undoes `h ^= h >> s` on 64 bits (one step when s ≥ 32: the top s bits
/// pass unchanged).
pub(crate) fn unshift(h: u64, s: u32) -> u64 {
    let mut x = h;
    let mut k = s;
    while k < 64 {
        x = h ^ (x >> s);
        k += s;
    }
    x
}

fn word32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn word64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// MurmurHash3_x86_32's block map k -> K, and back.
pub(crate) fn x86_k(k: u32) -> u32 {
    k.wrapping_mul(X86_C1).rotate_left(15).wrapping_mul(X86_C2)
}
fn x86_k_inv(big: u32) -> u32 {
    big.wrapping_mul(inv32(X86_C2))
        .rotate_right(15)
        .wrapping_mul(inv32(X86_C1))
}

/// MurmurHash64A's word map k -> K, and back.
pub(crate) fn m64a_k(k: u64) -> u64 {
    let k = k.wrapping_mul(M64A);
    (k ^ (k >> 47)).wrapping_mul(M64A)
}
pub(crate) fn m64a_k_inv(big: u64) -> u64 {
    unshift(big.wrapping_mul(inv64(M64A)), 47).wrapping_mul(inv64(M64A))
}

/// MurmurHash64A's finaliser (h ^= h >> 47; h *= m; h ^= h >> 47) run
/// backwards: the state after the last block, from the output.
pub(crate) fn m64a_unfinalise(output: u64) -> u64 {
    unshift(unshift(output, 47).wrapping_mul(inv64(M64A)), 47)
}

/// MurmurHash3_x64_128's maps for the first and second word of a block, and back.
fn x64_k1(k: u64) -> u64 {
    k.wrapping_mul(X64_C1).rotate_left(31).wrapping_mul(X64_C2)
}
fn x64_k1_inv(big: u64) -> u64 {
    big.wrapping_mul(inv64(X64_C2))
        .rotate_right(31)
        .wrapping_mul(inv64(X64_C1))
}
fn x64_k2(k: u64) -> u64 {
    k.wrapping_mul(X64_C2).rotate_left(33).wrapping_mul(X64_C1)
}
fn x64_k2_inv(big: u64) -> u64 {
    big.wrapping_mul(inv64(X64_C1))
        .rotate_right(33)
        .wrapping_mul(inv64(X64_C2))
}

/// Applies a K-space XOR to the 32-bit word at `at`.
fn flip32(b: &mut [u8], at: usize, delta: u32) {
    let k = x86_k_inv(x86_k(word32(b, at)) ^ delta);
    b[at..at + 4].copy_from_slice(&k.to_le_bytes());
}

fn flip64(b: &mut [u8], at: usize, delta: u64, map: fn(u64) -> u64, inv: fn(u64) -> u64) {
    let k = inv(map(word64(b, at)) ^ delta);
    b[at..at + 8].copy_from_slice(&k.to_le_bytes());
}

/// Which hash a differential targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// 8-byte units (two 4-byte blocks).
    Murmur3x86_32,
    /// 16-byte units (two 8-byte words).
    Murmur64a,
    /// 32-byte units (two 16-byte blocks).
    Murmur3x64_128,
}

impl Target {
    pub const ALL: [Target; 3] = [
        Target::Murmur3x86_32,
        Target::Murmur64a,
        Target::Murmur3x64_128,
    ];

    /// Bytes one independent difference spans.
    pub fn unit(self) -> usize {
        match self {
            Target::Murmur3x86_32 => 8,
            Target::Murmur64a => 16,
            Target::Murmur3x64_128 => 32,
        }
    }

    /// The hashing layer's strategy name.
    pub fn strategy(self) -> &'static str {
        match self {
            Target::Murmur3x86_32 => "murmur3_x86_32",
            Target::Murmur64a => "murmur64a",
            Target::Murmur3x64_128 => "murmur3_x64_128",
        }
    }

    /// How many independent units fit in the body of a `len`-byte message.
    pub fn units(self, len: usize) -> usize {
        let block = match self {
            Target::Murmur3x86_32 => 4,
            Target::Murmur64a => 8,
            Target::Murmur3x64_128 => 16,
        };
        (len / block * block) / self.unit()
    }

    /// Applies the differential to unit `i` of `msg` (its twin there). The
    /// map is an involution: applying it twice gives `msg` back.
    pub fn toggle(self, msg: &mut [u8], i: usize) {
        assert!(i < self.units(msg.len()), "unit {i} is outside the body");
        let at = i * self.unit();
        match self {
            Target::Murmur3x86_32 => {
                flip32(msg, at, 0x0004_0000);
                flip32(msg, at + 4, 0x8000_0000);
            }
            Target::Murmur64a => {
                flip64(msg, at, 1 << 63, m64a_k, m64a_k_inv);
                flip64(msg, at + 8, 1 << 63, m64a_k, m64a_k_inv);
            }
            Target::Murmur3x64_128 => {
                flip64(msg, at, 1 << 36, x64_k1, x64_k1_inv);
                flip64(msg, at + 8, 1 << 32, x64_k2, x64_k2_inv);
                flip64(msg, at + 16, 1 << 63, x64_k1, x64_k1_inv);
            }
        }
    }

    /// The twin of `msg`: the differential applied to its first unit.
    pub fn twin(self, msg: &[u8]) -> Vec<u8> {
        let mut t = msg.to_vec();
        self.toggle(&mut t, 0);
        t
    }

    /// Member `index` of the 2^units family built on `base`: unit j toggled
    /// when bit j of `index` is set. Every member has the same hash as `base`
    /// under every seed.
    pub fn member(self, base: &[u8], index: u64) -> Vec<u8> {
        let mut m = base.to_vec();
        for j in 0..self.units(base.len()).min(64) {
            if index >> j & 1 == 1 {
                self.toggle(&mut m, j);
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{KeyHasher, Seed, StrategyId};

    #[test]
    fn inverses_invert() {
        for a in [X86_C1, X86_C2, 5, 0xffff_ffff] {
            assert_eq!(a.wrapping_mul(inv32(a)), 1);
        }
        for a in [M64A, X64_C1, X64_C2] {
            assert_eq!(a.wrapping_mul(inv64(a)), 1);
        }
        for k in [0u64, 1, 0xdead_beef_cafe_f00d, u64::MAX] {
            assert_eq!(m64a_k_inv(m64a_k(k)), k);
            assert_eq!(x64_k1_inv(x64_k1(k)), k);
            assert_eq!(x64_k2_inv(x64_k2(k)), k);
            assert_eq!(x86_k_inv(x86_k(k as u32)), k as u32);
        }
    }

    /// Every family member collides with the base under random seeds, and
    /// the members are distinct inputs.
    #[test]
    fn families_collide_for_every_seed() {
        let mut rng = 0x5eed_u64;
        let mut next = || {
            rng = crate::hashing::splitmix64(rng);
            rng
        };
        for t in Target::ALL {
            let id = StrategyId::from_name(t.strategy()).unwrap();
            let base: Vec<u8> = (0..t.unit() * 6 + 5).map(|_| next() as u8).collect();
            assert_eq!(t.units(base.len()), 6);
            let members: Vec<Vec<u8>> = (0..64).map(|i| t.member(&base, i)).collect();
            let distinct: std::collections::HashSet<&Vec<u8>> = members.iter().collect();
            assert_eq!(distinct.len(), 64, "{t:?}");
            for _ in 0..5 {
                let h = id.build(Seed {
                    lo: next(),
                    hi: next(),
                });
                let want = h.native(&base);
                for m in &members {
                    assert_eq!(h.native(m), want, "{t:?}");
                }
            }
            // toggling twice gives the message back
            let mut m = base.clone();
            t.toggle(&mut m, 3);
            t.toggle(&mut m, 3);
            assert_eq!(m, base);
        }
    }
}
