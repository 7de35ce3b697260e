//! Kirsch–Mitzenmacher double hashing: the `i`-th of `k` probe positions in a
//! table of `m` slots is `g_i(x) = (h1(x) + i·h2(x)) mod m`.
//!
//! This is the only place in sketchlab that derives probe indices. The
//! arithmetic is exact, as if on unbounded integers (no wrap at 2^64): the
//! probe sequence starts at `h1 mod m` and steps by `h2 mod m`, so the result
//! equals the mathematical formula, and equals the chapter's Python code
//! (whose integers never wrap and whose `%` is never negative) when the
//! halves are read as signed, via [`Probes::signed`].
//!
//! Reference: A. Kirsch and M. Mitzenmacher, "Less Hashing, Same Performance:
//! Building a Better Bloom Filter", ESA 2006.

/// `x mod m` by multiplications instead of a division (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019): with
/// c = ⌈2^128 / m⌉, `x mod m = ((c·x mod 2^128)·m) >> 128`, exact for every
/// 64-bit x and 1 ≤ m < 2^64. For a divisor fixed at construction (a
/// filter's m), this replaces a 64-bit `div` (tens of cycles) by four
/// multiplications, with the same result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastMod {
    m: u64,
    c: u128,
}

impl FastMod {
    pub fn new(m: u64) -> Self {
        assert!(m > 0, "FastMod: m must be at least 1");
        // ⌈2^128 / m⌉ = ⌊(2^128 − 1) / m⌋ + 1 (which wraps to 0 for m = 1: x mod 1 = 0)
        FastMod {
            m,
            c: (u128::MAX / m as u128).wrapping_add(1),
        }
    }

    pub fn m(&self) -> u64 {
        self.m
    }

    #[inline]
    pub fn rem(&self, x: u64) -> u64 {
        let low = self.c.wrapping_mul(x as u128);
        // (low · m) >> 128, from two 64 × 64 → 128 products
        let lo = (low as u64 as u128) * self.m as u128;
        let hi = (low >> 64) * self.m as u128;
        ((hi + (lo >> 64)) >> 64) as u64
    }
}

/// The `k` probe positions of one key, as an iterator.
#[derive(Clone, Copy, Debug)]
pub struct Probes {
    pos: u64,
    step: u64,
    m: u64,
    left: u32,
}

impl Probes {
    /// Probes for unsigned halves `h1`, `h2` (how every strategy returns them).
    #[inline]
    pub fn new(h1: u64, h2: u64, k: u32, m: u64) -> Self {
        debug_assert!(m > 0);
        Probes {
            pos: h1 % m,
            step: h2 % m,
            m,
            left: k,
        }
    }

    /// The same probes as [`Probes::new`], reducing by a precomputed [`FastMod`].
    #[inline]
    pub fn fast(h1: u64, h2: u64, k: u32, m: &FastMod) -> Self {
        Probes {
            pos: m.rem(h1),
            step: m.rem(h2),
            m: m.m,
            left: k,
        }
    }

    /// Probes for halves read as signed 64-bit integers, exactly as Python's
    /// `(h1 + i * h2) % m` computes them for `h1, h2 = mmh3.hash64(item)`.
    #[inline]
    pub fn signed(h1: i64, h2: i64, k: u32, m: u64) -> Self {
        debug_assert!(m > 0);
        let mm = m as i128;
        Probes {
            pos: (h1 as i128).rem_euclid(mm) as u64,
            step: (h2 as i128).rem_euclid(mm) as u64,
            m,
            left: k,
        }
    }
}

impl Iterator for Probes {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let out = self.pos;
        // pos, step < m, so pos + step < 2m and one subtraction reduces it.
        // (m <= 2^63 is enforced by the structures, so the sum cannot wrap.)
        let next = self.pos + self.step;
        self.pos = if next >= self.m { next - self.m } else { next };
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Probes {}

/// How probe indices are derived from the two halves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// `(h1 + i·h2) mod m` (Kirsch & Mitzenmacher 2006): the chapter's code.
    /// When the step's order modulo m is below k, probes repeat (see
    /// `structures::bloom::theory::fpr_double_hashing`).
    #[default]
    KirschMitzenmacher,
    /// `(h1 + i·h2 + (i³ − i)/6) mod m` (Dillinger & Manolios 2004, "enhanced
    /// double hashing"): the cubic term breaks the short cycles.
    Enhanced,
}

impl Scheme {
    pub const ALL: [Scheme; 2] = [Scheme::KirschMitzenmacher, Scheme::Enhanced];

    pub fn name(self) -> &'static str {
        match self {
            Scheme::KirschMitzenmacher => "double",
            Scheme::Enhanced => "enhanced",
        }
    }
}

impl Scheme {
    /// The `k` probes of one key by this scheme (one branch per probe; the
    /// Bloom filter's hot path matches on the scheme once per key instead).
    #[inline]
    pub fn probes(self, h1: u64, h2: u64, k: u32, m: u64) -> SchemeProbes {
        match self {
            Scheme::KirschMitzenmacher => SchemeProbes::Km(Probes::new(h1, h2, k, m)),
            Scheme::Enhanced => SchemeProbes::Enhanced(EnhancedProbes::new(h1, h2, k, m)),
        }
    }
}

/// Either scheme's probe iterator.
#[derive(Clone, Copy, Debug)]
pub enum SchemeProbes {
    Km(Probes),
    Enhanced(EnhancedProbes),
}

impl Iterator for SchemeProbes {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        match self {
            SchemeProbes::Km(p) => p.next(),
            SchemeProbes::Enhanced(p) => p.next(),
        }
    }
}

/// Enhanced double hashing's probes: `x ← x + y; y ← y + i` after each probe
/// (Dillinger & Manolios 2004, Fig. 5), exact modulo m.
#[derive(Clone, Copy, Debug)]
pub struct EnhancedProbes {
    pos: u64,
    step: u64,
    grow: u64,
    m: u64,
    left: u32,
}

impl EnhancedProbes {
    #[inline]
    pub fn new(h1: u64, h2: u64, k: u32, m: u64) -> Self {
        debug_assert!(m > 0);
        EnhancedProbes {
            pos: h1 % m,
            step: h2 % m,
            grow: 1 % m,
            m,
            left: k,
        }
    }

    /// The same probes as [`EnhancedProbes::new`], reducing by a precomputed [`FastMod`].
    #[inline]
    pub fn fast(h1: u64, h2: u64, k: u32, m: &FastMod) -> Self {
        EnhancedProbes {
            pos: m.rem(h1),
            step: m.rem(h2),
            grow: m.rem(1),
            m: m.m,
            left: k,
        }
    }
}

#[inline]
fn add_mod(a: u64, b: u64, m: u64) -> u64 {
    // a, b < m <= 2^63: the sum cannot wrap, and one subtraction reduces it
    let s = a + b;
    if s >= m { s - m } else { s }
}

impl Iterator for EnhancedProbes {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let out = self.pos;
        self.pos = add_mod(self.pos, self.step, self.m);
        self.step = add_mod(self.step, self.grow, self.m);
        self.grow = add_mod(self.grow, 1 % self.m, self.m);
        Some(out)
    }
}

/// The `k` probes of a key inside one block of `2^log2_bits` bits (a blocked
/// Bloom filter's cache line), all from one 64-bit hash `h`: probe i is the
/// top `log2_bits` bits of h·c_i, with c_i a fixed odd constant
/// ([`BLOCK_MULTIPLIERS`]): multiply-shift (Dietzfelbinger et al. 1997), one
/// multiplication per probe, as the split-block layout derives its eight
/// bits from eight odd salts. An arithmetic progression `start + i·step`
/// inside a block, the obvious cheaper choice, correlates the probes of
/// different keys and measured 2.5× the theory's FPR at 16 bits per key;
/// splitmix64 per probe (the previous choice) costs three multiplications.
#[inline]
pub fn block_probes(h: u64, k: u32, log2_bits: u32) -> impl Iterator<Item = u32> {
    BLOCK_MULTIPLIERS[..(k as usize).min(BLOCK_MULTIPLIERS.len())]
        .iter()
        .map(move |c| (h.wrapping_mul(*c) >> (64 - log2_bits)) as u32)
}

/// The odd multipliers of [`block_probes`], one per probe (512, a block's
/// bits, at most): splitmix64 of 1, 2, 3, … with the low bit set.
pub static BLOCK_MULTIPLIERS: [u64; 512] = block_multipliers();

const fn block_multipliers() -> [u64; 512] {
    let mut out = [0u64; 512];
    let mut i = 0;
    while i < out.len() {
        let mut z = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out[i] = (z ^ (z >> 31)) | 1;
        i += 1;
    }
    out
}

/// The largest table size the probe arithmetic supports.
pub const MAX_SLOTS: u64 = 1 << 63;

#[cfg(test)]
mod tests {

    #[test]
    fn fast_mod_equals_the_remainder() {
        let mut x = 3u64;
        let mut ms: Vec<u64> = vec![
            1,
            2,
            3,
            7,
            64,
            1000,
            9_585_059,
            (1 << 63) - 25,
            1 << 63,
            u64::MAX,
        ];
        for _ in 0..200 {
            x = crate::hashing::splitmix64(x);
            ms.push(x >> (x % 63));
        }
        for m in ms.into_iter().filter(|&m| m > 0) {
            let f = FastMod::new(m);
            for v in [0, 1, m - 1, m, m.wrapping_add(1), u64::MAX, u64::MAX - 1] {
                assert_eq!(f.rem(v), v % m, "{v} mod {m}");
            }
            for _ in 0..500 {
                x = crate::hashing::splitmix64(x);
                assert_eq!(f.rem(x), x % m, "{x} mod {m}");
            }
        }
    }

    use super::*;

    /// The formula on unbounded integers, computed the slow way.
    fn naive(h1: i128, h2: i128, i: i128, m: i128) -> u64 {
        (h1 + i * h2).rem_euclid(m) as u64
    }

    #[test]
    fn unsigned_matches_unbounded_formula() {
        let cases = [
            (u64::MAX, u64::MAX - 1, 7u32, 9_585_059u64),
            (12345, 0, 5, 16),
            (0, 1, 16, 16),
            (u64::MAX, 3, 10, 12),
        ];
        for (h1, h2, k, m) in cases {
            let got: Vec<u64> = Probes::new(h1, h2, k, m).collect();
            let want: Vec<u64> = (0..k as i128)
                .map(|i| naive(h1 as i128, h2 as i128, i, m as i128))
                .collect();
            assert_eq!(got, want, "h1={h1} h2={h2} k={k} m={m}");
        }
    }

    #[test]
    fn signed_matches_python_semantics() {
        // Python: (h1 + i*h2) % m with h1, h2 possibly negative.
        let (h1, h2) = (-8_839_064_797_231_613_815i64, -1_822_486_391_929_534_118i64);
        let got: Vec<u64> = Probes::signed(h1, h2, 7, 1000).collect();
        let want: Vec<u64> = (0..7)
            .map(|i| naive(h1 as i128, h2 as i128, i, 1000))
            .collect();
        assert_eq!(got, want);
        assert!(got.iter().all(|&p| p < 1000));
    }

    #[test]
    fn enhanced_matches_its_closed_form() {
        for (h1, h2, k, m) in [
            (5u64, 3u64, 12u32, 16u64),
            (u64::MAX, 7, 20, 1000),
            (1, 0, 9, 2),
        ] {
            let got: Vec<u64> = EnhancedProbes::new(h1, h2, k, m).collect();
            let want: Vec<u64> = (0..k as i128)
                .map(|i| {
                    (h1 as i128 + i * h2 as i128 + (i * i * i - i) / 6).rem_euclid(m as i128) as u64
                })
                .collect();
            assert_eq!(got, want, "h1={h1} h2={h2} k={k} m={m}");
        }
        // a step of order 2 mod 16 repeats under plain double hashing, not under enhanced
        let plain: std::collections::HashSet<u64> = Probes::new(0, 8, 7, 16).collect();
        let enh: std::collections::HashSet<u64> = EnhancedProbes::new(0, 8, 7, 16).collect();
        assert_eq!(plain.len(), 2);
        assert!(enh.len() > 2, "{enh:?}");
    }

    #[test]
    fn block_probes_are_uniform_inside_the_block() {
        let mut counts = [0u32; 512];
        for h in 0..20_000u64 {
            for p in block_probes(h.wrapping_mul(0x2545_F491_4F6C_DD1D), 8, 9) {
                counts[p as usize] += 1;
            }
        }
        // 160,000 probes over 512 cells: mean 312.5, sd 17.7; every cell within 6 sd
        assert!(
            counts
                .iter()
                .all(|&c| (c as f64 - 312.5).abs() < 6.0 * 17.7),
            "{counts:?}"
        );
    }

    #[test]
    fn yields_exactly_k() {
        assert_eq!(Probes::new(1, 2, 0, 10).count(), 0);
        assert_eq!(Probes::new(1, 2, 13, 10).len(), 13);
    }
}
