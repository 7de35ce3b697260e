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

/// The largest table size the probe arithmetic supports.
pub const MAX_SLOTS: u64 = 1 << 63;

#[cfg(test)]
mod tests {
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
    fn yields_exactly_k() {
        assert_eq!(Probes::new(1, 2, 0, 10).count(), 0);
        assert_eq!(Probes::new(1, 2, 13, 10).len(), 13);
    }
}
