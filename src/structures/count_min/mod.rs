//! The Count-Min sketch (Cormode & Muthukrishnan 2005): d rows of w counters;
//! an update adds to one cell per row, a query reports the smallest of the d.
//!
//! # Properties
//! * Never underestimates while no counter saturates: each cell holds the
//!   key's count plus whatever collided there. Counters are u32 or u64 and
//!   saturate (never wrap); a saturated cell can then underestimate, which
//!   [`CountMin::saturated`] reports.
//! * With w = ⌈e/ε⌉ and d = ⌈ln(1/δ)⌉, one query's overshoot exceeds εN with
//!   probability at most δ (N = the total of all updates). The guarantee is
//!   per query: over many keys, about δ of them may exceed it.
//! * Linear: merging two sketches of the same shape and hash (cell-wise sum)
//!   gives exactly the sketch of the concatenated streams.
//! * Conservative update ([`CountMin::update_conservative`], Estan & Varghese
//!   2002) raises each cell only to the new minimum: still never below the
//!   truth, never above plain Count-Min, but no longer mergeable by sums.
//!
//! # Row hashing
//! One hash per key gives two 64-bit halves (h1, h2); row i uses column
//! (h1 + i·s) mod w with step s = 1 + (h2 mod (w − 1)), never ≡ 0 mod w, so the
//! rows cannot collapse onto one column (a plain h2 with h2 ≡ 0 mod w would
//! make every row the same: tested). This is [`Rows::Double`], the default:
//! two keys that agree in (h1 mod w, s) share every row, which happens to a
//! pair with probability 1/(w(w − 1)), whatever d is. [`Rows::Independent`]
//! makes row i a different function of the 128-bit hash (splitmix64 of h1
//! mixed with h2 + i), so two keys share each row independently, as the
//! textbook's "each row has its own hash function" assumes (the
//! count_min_depth study measures the difference).
//!
//! # Usage
//! ```
//! use sketchlab::hashing::{HashStrategy, SeedPolicy, StrategyId};
//! use sketchlab::structures::count_min::CountMin;
//! // the fast path: 64-bit counters, XXH3-128 under this process's random key
//! let mut fast = CountMin::sized(0.001, 0.01).unwrap();
//! fast.update(b"apple", 3);
//! assert!(fast.estimate(b"apple") >= 3);
//! // 32-bit counters and a strategy named at run time (one `match` per key)
//! let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
//! let mut cm = CountMin::<u32, _>::with_error(0.001, 0.01, h).unwrap();
//! cm.update(b"apple", 3);
//! cm.update(b"banana", 2);
//! assert!(cm.estimate(b"apple") >= 3);
//! assert_eq!(cm.total(), 5);
//! ```
//!
//! # References
//! * G. Cormode, S. Muthukrishnan, J. Algorithms 55(1), 2005.
//! * C. Estan, G. Varghese, "New directions in traffic measurement and
//!   accounting", SIGCOMM 2002 (conservative update).

pub mod theory;
pub mod top;

use super::{Frequency, MergeError, Mergeable, ParamError, invalid};
use crate::hashing::double::FastMod;
use crate::hashing::{KeyHasher, Xxh3, process_random_seed};

/// A counter cell: u32 or u64, adding with saturation.
pub trait Counter: Copy + Default + Ord + Send + Sync + std::fmt::Debug + 'static {
    const MAX: u64;
    const BYTES: u64;
    fn get(self) -> u64;
    /// `self + by`, saturating at `MAX`.
    fn plus(self, by: u64) -> Self;
    fn from_u64_saturating(v: u64) -> Self;
}

macro_rules! counter {
    ($t:ty) => {
        impl Counter for $t {
            const MAX: u64 = <$t>::MAX as u64;
            const BYTES: u64 = std::mem::size_of::<$t>() as u64;
            #[inline]
            fn get(self) -> u64 {
                self as u64
            }
            #[inline]
            fn plus(self, by: u64) -> Self {
                Self::from_u64_saturating((self as u64).saturating_add(by))
            }
            #[inline]
            fn from_u64_saturating(v: u64) -> Self {
                v.min(<$t>::MAX as u64) as $t
            }
        }
    };
}
counter!(u32);
counter!(u64);

/// A Count-Min sketch of d rows × w counters of type `C`, its row columns
/// from one 128-bit hash per key. The hasher is a type parameter chosen at
/// construction (default [`Xxh3`], [`CountMin::sized`]), so updates and
/// queries are monomorphised around it.
#[derive(Clone, Debug)]
pub struct CountMin<C: Counter = u64, H = Xxh3> {
    w: u64,
    d: u64,
    /// w and w − 1 with their precomputed remainders: a key's first column
    /// and its step take no division.
    fm_w: FastMod,
    fm_step: FastMod,
    cells: Vec<C>,
    hasher: H,
    total: u64,
    /// Whether any update reached a saturated cell (estimates may then be low).
    saturated: bool,
    rows: Rows,
}

crate::closed_set! {
    /// How the d row columns derive from the key's one 128-bit hash.
    #[derive(Default)]
    pub enum Rows {
        /// (h1 + i·s) mod w, s = 1 + (h2 mod (w − 1)).
        #[default]
        Double = "double",
        /// splitmix64(h1 ⊕ splitmix64(h2 + i)) mod w.
        Independent = "independent",
    }
}

/// The probe that tells two hashers apart without comparing their types.
const FINGERPRINT_KEY: &[u8] = b"sketchlab count-min merge fingerprint";

impl CountMin {
    /// The public fast path: w = ⌈e/ε⌉, d = ⌈ln(1/δ)⌉ as [`Self::with_error`]
    /// sizes it, 64-bit counters, hashed by XXH3-128 under this process's
    /// random key (two sketches merge only within one process, or when both
    /// are built [`Self::with_error`] with the same seeded hasher).
    pub fn sized(eps: f64, delta: f64) -> Result<Self, ParamError> {
        Self::with_error(eps, delta, Xxh3::new(process_random_seed()))
    }
}

impl<C: Counter, H: KeyHasher> CountMin<C, H> {
    /// w columns, d rows (both ≥ 1).
    pub fn new(w: u64, d: u64, hasher: H) -> Result<Self, ParamError> {
        if w == 0 {
            return Err(invalid("w", w, "must be at least 1"));
        }
        if d == 0 {
            return Err(invalid("d", d, "must be at least 1"));
        }
        let cells = (w as usize)
            .checked_mul(d as usize)
            .filter(|&n| n <= 1 << 34)
            .ok_or_else(|| invalid("w·d", w as u128 * d as u128, "must be at most 2^34 cells"))?;
        Ok(CountMin {
            w,
            d,
            fm_w: FastMod::new(w),
            fm_step: FastMod::new((w - 1).max(1)),
            cells: vec![C::default(); cells],
            hasher,
            total: 0,
            saturated: false,
            rows: Rows::Double,
        })
    }

    /// The same sketch with its row columns derived as `rows` says (set it
    /// before the first update: the cells hold the old rows' counts).
    pub fn with_rows(mut self, rows: Rows) -> Self {
        self.rows = rows;
        self
    }

    pub fn rows(&self) -> Rows {
        self.rows
    }

    /// w = ⌈e/ε⌉, d = ⌈ln(1/δ)⌉, ε and δ in (0, 1).
    pub fn with_error(eps: f64, delta: f64, hasher: H) -> Result<Self, ParamError> {
        if !(eps > 0.0 && eps < 1.0) {
            return Err(invalid("eps", eps, "must be in (0, 1)"));
        }
        if !(delta > 0.0 && delta < 1.0) {
            return Err(invalid("delta", delta, "must be in (0, 1)"));
        }
        Self::new(theory::width(eps), theory::depth(delta), hasher)
    }

    pub fn width(&self) -> u64 {
        self.w
    }

    pub fn depth(&self) -> u64 {
        self.d
    }

    pub fn bytes(&self) -> u64 {
        theory::bytes(self.w, self.d, C::BYTES)
    }

    /// N: the sum of all update counts (exact, in a u64).
    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn saturated(&self) -> bool {
        self.saturated
    }

    /// The column of `key` in each row.
    #[inline]
    pub fn columns(&self, key: &[u8]) -> impl Iterator<Item = usize> + use<C, H> {
        let (h1, h2) = self.hasher.hash128(key);
        self.columns_of(h1, h2)
    }

    /// [`row_columns_with`] for this sketch, its two remainders by
    /// multiplication (the same columns).
    #[inline]
    fn columns_of(&self, h1: u64, h2: u64) -> RowColumns {
        let step = if self.w > 1 {
            1 + self.fm_step.rem(h2)
        } else {
            0
        };
        RowColumns::start(self.rows, (h1, h2), self.w, self.d, self.fm_w.rem(h1), step)
    }

    /// Every cell, row after row.
    pub fn cells(&self) -> Vec<u64> {
        self.cells.iter().map(|c| c.get()).collect()
    }

    /// The d cells `key` maps to, row by row (one hash per call).
    pub fn cells_of(&self, key: &[u8]) -> impl Iterator<Item = u64> + '_ {
        let w = self.w as usize;
        self.columns(key)
            .enumerate()
            .map(move |(i, c)| self.cells[i * w + c].get())
    }

    /// Adds `count` to the key's cell in every row.
    #[inline]
    pub fn update(&mut self, key: &[u8], count: u64) {
        let (h1, h2) = self.hasher.hash128(key);
        self.add_at(h1, h2, count);
    }

    #[inline]
    fn add_at(&mut self, h1: u64, h2: u64, count: u64) {
        let w = self.w as usize;
        for (i, c) in self.columns_of(h1, h2).enumerate() {
            let cell = &mut self.cells[i * w + c];
            if cell.get().saturating_add(count) > C::MAX {
                self.saturated = true;
            }
            *cell = cell.plus(count);
        }
        self.total = self.total.saturating_add(count);
    }

    /// [`Self::update`] of every key of `keys` by `count`: the same cells
    /// (additions commute, and a saturating one saturates whatever the
    /// order), with each window of 16 keys hashed and all its cells
    /// prefetched before any is written, so an out-of-cache build overlaps
    /// its misses.
    pub fn update_batch<K: AsRef<[u8]>>(&mut self, keys: &[K], count: u64) {
        const WINDOW: usize = 16;
        let w = self.w as usize;
        let mut hashes = [(0u64, 0u64); WINDOW];
        for chunk in keys.chunks(WINDOW) {
            for (h, key) in hashes.iter_mut().zip(chunk) {
                *h = self.hasher.hash128(key.as_ref());
                for (i, c) in self.columns_of(h.0, h.1).enumerate() {
                    crate::structures::bloom::prefetch(&self.cells[i * w + c]);
                }
            }
            for &(h1, h2) in &hashes[..chunk.len()] {
                self.add_at(h1, h2, count);
            }
        }
    }

    /// Conservative update: each of the key's cells becomes max(cell, min + count).
    pub fn update_conservative(&mut self, key: &[u8], count: u64) {
        let w = self.w as usize;
        // one hash; the columns walked twice (their arithmetic is a few
        // additions), first for the minimum, then to raise the cells
        let (h1, h2) = self.hasher.hash128(key);
        let min = self
            .columns_of(h1, h2)
            .enumerate()
            .fold(u64::MAX, |m, (i, c)| m.min(self.cells[i * w + c].get()));
        let target = min.saturating_add(count);
        if target > C::MAX {
            self.saturated = true;
        }
        let t = C::from_u64_saturating(target);
        for (i, c) in self.columns_of(h1, h2).enumerate() {
            let cell = &mut self.cells[i * w + c];
            *cell = (*cell).max(t);
        }
        self.total = self.total.saturating_add(count);
    }

    /// The smallest of the key's d cells.
    #[inline]
    pub fn estimate(&self, key: &[u8]) -> u64 {
        // a fold of `min` (a conditional move), not `Iterator::min`, whose
        // comparisons of d random counts branch unpredictably
        let w = self.w as usize;
        // (d ≥ 1, so some cell is read)
        self.columns(key)
            .enumerate()
            .fold(u64::MAX, |m, (i, c)| m.min(self.cells[i * w + c].get()))
    }

    fn fingerprint(&self) -> (u64, u64) {
        self.hasher.hash128(FINGERPRINT_KEY)
    }
}

/// Row i's column: (h1 + i·s) mod w, s = 1 + (h2 mod (w − 1)) (s = 0 when w = 1).
/// Computed incrementally: both terms are below w, so one conditional
/// subtraction per row replaces a division.
#[inline]
pub fn row_columns(h1: u64, h2: u64, w: u64, d: u64) -> RowColumns {
    row_columns_with(Rows::Double, h1, h2, w, d)
}

/// The d columns of a key whose 128-bit hash is (h1, h2), as `rows` derives them.
#[inline]
pub fn row_columns_with(rows: Rows, h1: u64, h2: u64, w: u64, d: u64) -> RowColumns {
    let step = if w > 1 { 1 + h2 % (w - 1) } else { 0 };
    RowColumns::start(rows, (h1, h2), w, d, h1 % w, step)
}

/// The iterator [`row_columns_with`] returns.
pub struct RowColumns {
    rows: Rows,
    h1: u64,
    h2: u64,
    w: u64,
    step: u64,
    col: u64,
    i: u64,
    d: u64,
}

impl RowColumns {
    /// Row 0 at `col` = h1 mod w, moving by `step` = 1 + h2 mod (w − 1)
    /// (however the caller computed the two remainders).
    #[inline]
    fn start(rows: Rows, (h1, h2): (u64, u64), w: u64, d: u64, col: u64, step: u64) -> Self {
        RowColumns {
            rows,
            h1,
            h2,
            w,
            step,
            col,
            i: 0,
            d,
        }
    }
}

impl Iterator for RowColumns {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.i == self.d {
            return None;
        }
        let out = match self.rows {
            Rows::Double => {
                let out = self.col;
                self.col += self.step;
                if self.col >= self.w {
                    self.col -= self.w;
                }
                out
            }
            Rows::Independent => {
                use crate::hashing::splitmix64;
                splitmix64(self.h1 ^ splitmix64(self.h2.wrapping_add(self.i))) % self.w
            }
        };
        self.i += 1;
        Some(out as usize)
    }
}

impl<C: Counter, H: KeyHasher> Mergeable for CountMin<C, H> {
    /// Cell-wise sum: exactly the sketch of the concatenated streams
    /// (saturating like an update).
    fn merge(&mut self, other: &Self) -> Result<(), MergeError> {
        if (self.w, self.d, self.rows) != (other.w, other.d, other.rows) {
            return Err(MergeError::Shape(format!(
                "{} × {} ({:?} rows) vs {} × {} ({:?} rows)",
                self.d, self.w, self.rows, other.d, other.w, other.rows
            )));
        }
        if self.fingerprint() != other.fingerprint() {
            return Err(MergeError::Seed);
        }
        for (a, b) in self.cells.iter_mut().zip(&other.cells) {
            if a.get().saturating_add(b.get()) > C::MAX {
                self.saturated = true;
            }
            *a = a.plus(b.get());
        }
        self.total = self.total.saturating_add(other.total);
        self.saturated |= other.saturated;
        Ok(())
    }
}

impl<C: Counter, H: KeyHasher> Frequency for CountMin<C, H> {
    fn update(&mut self, key: &[u8], count: u64) {
        CountMin::update(self, key, count)
    }
    fn estimate(&self, key: &[u8]) -> u64 {
        CountMin::estimate(self, key)
    }
    fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_batch_update_writes_the_cells_one_by_one_updates_write() {
        use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
        let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(9));
        // u32 counters: some saturate
        let keys: Vec<[u8; 8]> = (0..5_003u64).map(|i| (i % 700).to_le_bytes()).collect();
        let mut one = CountMin::<u32, _>::new(50, 4, h).unwrap();
        let mut batch = one.clone();
        keys.iter().for_each(|k| one.update(k, 200_000_000));
        batch.update_batch(&keys, 200_000_000);
        assert!(one.saturated);
        assert_eq!(one.cells, batch.cells);
        assert_eq!((one.saturated, one.total), (batch.saturated, batch.total));
    }

    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};

    fn h(seed: u64) -> HashStrategy {
        HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(seed))
    }

    #[test]
    fn incremental_columns_equal_the_closed_form() {
        let mut x = 1u64;
        for _ in 0..2000 {
            x = crate::hashing::splitmix64(x);
            let (h1, h2) = (x, crate::hashing::splitmix64(x ^ 7));
            let w = 1 + (x >> 40) % 70_000;
            let d = 1 + (x >> 20) % 12;
            let step = if w > 1 { 1 + h2 % (w - 1) } else { 0 };
            let want: Vec<usize> = (0..d)
                .map(|i| ((h1 % w) as u128 + i as u128 * step as u128) % w as u128)
                .map(|c| c as usize)
                .collect();
            assert_eq!(row_columns(h1, h2, w, d).collect::<Vec<_>>(), want);
        }
    }

    #[test]
    fn independent_rows_do_not_share_every_row_when_they_share_two() {
        // keys whose (h1, h2) agree mod w and mod (w - 1) share every double
        // row; independent rows separate them after the first coincidence
        let (w, d) = (101u64, 6u64);
        let a = (5u64, 7u64);
        let b = (5 + w * (w - 1) * 3, 7 + w * (w - 1) * 5);
        let double = |(h1, h2): (u64, u64)| row_columns(h1, h2, w, d).collect::<Vec<_>>();
        assert_eq!(double(a), double(b));
        let ind = |(h1, h2): (u64, u64)| {
            row_columns_with(Rows::Independent, h1, h2, w, d).collect::<Vec<_>>()
        };
        let shared = ind(a).iter().zip(ind(b)).filter(|(x, y)| **x == *y).count();
        assert!(shared < d as usize, "{:?} {:?}", ind(a), ind(b));
        // and each independent row is spread over the columns: 10^5 keys'
        // row-3 columns pass a chi-square test at 4.5 sigma
        let mut counts = vec![0f64; w as usize];
        for x in 0..100_000u64 {
            let (h1, h2) = (
                crate::hashing::splitmix64(x),
                crate::hashing::splitmix64(!x),
            );
            counts[row_columns_with(Rows::Independent, h1, h2, w, d)
                .nth(3)
                .unwrap()] += 1.0;
        }
        let e = 100_000.0 / w as f64;
        let chi2: f64 = counts.iter().map(|c| (c - e) * (c - e) / e).sum();
        let df = (w - 1) as f64;
        assert!((chi2 - df).abs() < 4.5 * (2.0 * df).sqrt(), "{chi2}");
    }

    #[test]
    fn rows_never_collapse_onto_one_column() {
        // h2 a multiple of w: a plain (h1 + i·h2) mod w would give one column
        // (columns of different rows may coincide; they index different arrays)
        for w in [2u64, 6, 7, 2719] {
            let cols: Vec<usize> = row_columns(5, 3 * w, w, 4).collect();
            assert!(cols.windows(2).all(|p| p[0] != p[1]), "w = {w}: {cols:?}");
        }
        // over many keys, rows 0 and 1 agree on the column only ~1/w of the time
        let cm = CountMin::<u32, _>::new(64, 4, h(1)).unwrap();
        let same = (0..10_000u32)
            .filter(|i| {
                let c: Vec<usize> = cm.columns(&i.to_le_bytes()).collect();
                c[0] == c[1]
            })
            .count();
        assert_eq!(
            same, 0,
            "a nonzero step never repeats a column in the next row"
        );
    }

    #[test]
    fn overestimates_only_merges_exactly_and_saturates() {
        let (mut a, mut b, mut ab) = (
            CountMin::<u32, _>::new(50, 3, h(2)).unwrap(),
            CountMin::<u32, _>::new(50, 3, h(2)).unwrap(),
            CountMin::<u32, _>::new(50, 3, h(2)).unwrap(),
        );
        let mut truth = std::collections::HashMap::new();
        for i in 0..3_000u32 {
            let key = (i % 300).to_le_bytes();
            *truth.entry(i % 300).or_insert(0u64) += 1;
            if i % 2 == 0 {
                a.update(&key, 1)
            } else {
                b.update(&key, 1)
            }
            ab.update(&key, 1);
        }
        a.merge(&b).unwrap();
        assert_eq!(a.cells, ab.cells);
        assert_eq!(a.total(), 3_000);
        for (k, &t) in &truth {
            assert!(a.estimate(&k.to_le_bytes()) >= t);
        }
        assert!(matches!(
            a.merge(&CountMin::new(51, 3, h(2)).unwrap()),
            Err(MergeError::Shape(_))
        ));
        assert_eq!(
            a.merge(&CountMin::new(50, 3, h(3)).unwrap()),
            Err(MergeError::Seed)
        );
        // u32 cells saturate instead of wrapping
        let mut s = CountMin::<u32, _>::new(8, 2, h(4)).unwrap();
        s.update(b"x", u32::MAX as u64 - 1);
        s.update(b"x", 10);
        assert_eq!(s.estimate(b"x"), u32::MAX as u64);
        assert!(s.saturated());
        assert_eq!(s.total(), u32::MAX as u64 + 9);
        assert!(CountMin::<u64, _>::with_error(0.0, 0.5, h(1)).is_err());
        assert!(CountMin::<u64, _>::with_error(0.1, 1.0, h(1)).is_err());
        assert!(CountMin::<u64, _>::new(0, 3, h(1)).is_err());
    }

    #[test]
    fn conservative_update_is_between_the_truth_and_plain() {
        let (mut plain, mut cons) = (
            CountMin::<u64, _>::new(40, 3, h(5)).unwrap(),
            CountMin::<u64, _>::new(40, 3, h(5)).unwrap(),
        );
        let mut truth = vec![0u64; 500];
        for i in 0..20_000u64 {
            let k = (crate::hashing::splitmix64(i) % 500) as usize;
            truth[k] += 1;
            plain.update(&(k as u32).to_le_bytes(), 1);
            cons.update_conservative(&(k as u32).to_le_bytes(), 1);
        }
        for (k, &t) in truth.iter().enumerate() {
            let key = (k as u32).to_le_bytes();
            let (p, c) = (plain.estimate(&key), cons.estimate(&key));
            assert!(
                t <= c && c <= p,
                "key {k}: truth {t}, conservative {c}, plain {p}"
            );
        }
    }
}
