//! The HyperLogLog sketch: m = 2^p six-bit registers packed densely, fed by
//! any hash strategy, with every estimator computed from the same registers.
//!
//! Layout (Redis's, for any p): the register index is the low p bits of the
//! 64-bit hash word and the rank is the number of trailing zeros of
//! (word >> p) | 2^(64−p), plus one, so ranks are 1 ..= 65 − p (≤ 61: six
//! bits hold it).

use super::estimators;
use crate::hashing::{KeyHasher, Xxh3_64, process_random_seed};
use crate::structures::{MergeError, ParamError, invalid};
use crate::vocab::HllEstimator;

/// m registers of 6 bits packed into ⌈6m/8⌉ bytes (register i at bits
/// 6i … 6i + 5, least significant first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed6 {
    data: Vec<u8>,
    m: usize,
}

impl Packed6 {
    pub fn new(m: usize) -> Self {
        Packed6 {
            data: vec![0; (6 * m).div_ceil(8) + 1],
            m,
        }
    }

    pub fn m(&self) -> usize {
        self.m
    }

    /// Bytes of register storage (12,288 for m = 16,384; the spare byte that
    /// lets every register be read as two bytes is not counted).
    pub fn bytes_used(&self) -> usize {
        self.data.len() - 1
    }

    #[inline]
    pub fn get(&self, i: usize) -> u8 {
        let bit = 6 * i;
        let (byte, shift) = (bit / 8, bit % 8);
        let w = u16::from_le_bytes([self.data[byte], self.data[byte + 1]]);
        ((w >> shift) & 0x3f) as u8
    }

    #[inline]
    pub fn set(&mut self, i: usize, v: u8) {
        let bit = 6 * i;
        let (byte, shift) = (bit / 8, bit % 8);
        let mut w = self.data[byte] as u16 | (self.data[byte + 1] as u16) << 8;
        w = (w & !(0x3f << shift)) | ((v as u16 & 0x3f) << shift);
        self.data[byte] = w as u8;
        self.data[byte + 1] = (w >> 8) as u8;
    }

    /// hist[k] = registers holding k (k ≤ 63).
    pub fn histogram(&self) -> Vec<u32> {
        let mut h = vec![0u32; 64];
        for i in 0..self.m {
            h[self.get(i) as usize] += 1;
        }
        h
    }
}

/// Register index and rank of one 64-bit hash word at precision p.
#[inline]
pub fn index_and_rank(word: u64, p: u32) -> (usize, u8) {
    let index = (word & ((1u64 << p) - 1)) as usize;
    let rest = (word >> p) | 1u64 << (64 - p);
    (index, rest.trailing_zeros() as u8 + 1)
}

/// The hasher is a type parameter chosen at construction (default
/// [`Xxh3_64`], [`HyperLogLog::with_precision`]), so inserts are
/// monomorphised around it.
#[derive(Clone, Debug)]
pub struct HyperLogLog<H = Xxh3_64> {
    p: u32,
    registers: Packed6,
    hasher: H,
    /// HIP state (Ting 2014; Ertl 2017 §4): the running estimate, and
    /// Σ 2^−M[i], whose m-th part is the chance the next new key changes a register.
    hip: f64,
    inv_sum: f64,
    /// False after a merge: HIP's history does not survive one.
    hip_valid: bool,
}

impl HyperLogLog {
    /// The public fast path: 2^p registers hashed by XXH3-64 under this
    /// process's random key (sketches to merge across processes must share a
    /// seeded hasher: build them with [`Self::new`] and `Xxh3_64::new(Seed::fixed(s))`).
    pub fn with_precision(p: u32) -> Result<Self, ParamError> {
        Self::new(p, Xxh3_64::new(process_random_seed()))
    }
}

/// The largest precision: the range of HyperLogLog++'s empirical tables
/// (Heule et al. 2013), which the sketch's estimators and tests cover.
pub const P_MAX: u32 = 18;

impl<H: KeyHasher> HyperLogLog<H> {
    /// Precision p in 4..=[`P_MAX`] (m = 2^p registers).
    pub fn new(p: u32, hasher: H) -> Result<Self, ParamError> {
        if !(4..=P_MAX).contains(&p) {
            return Err(invalid("p", p, "must be in 4..=18"));
        }
        let m = 1usize << p;
        Ok(HyperLogLog {
            p,
            registers: Packed6::new(m),
            hasher,
            hip: 0.0,
            inv_sum: m as f64,
            hip_valid: true,
        })
    }

    pub fn p(&self) -> u32 {
        self.p
    }

    pub fn m(&self) -> usize {
        self.registers.m()
    }

    pub fn registers(&self) -> &Packed6 {
        &self.registers
    }

    /// The sketch's hash strategy (an empty sketch to merge into takes the same one).
    pub fn clone_hasher(&self) -> H {
        self.hasher.clone()
    }

    pub fn bytes_used(&self) -> usize {
        self.registers.bytes_used()
    }

    /// The hash word of a key: the top 64 bits of a 128-bit output.
    #[inline]
    fn word(&self, key: &[u8]) -> u64 {
        let v = self.hasher.native(key);
        if self.hasher.width() == 128 {
            (v >> 64) as u64
        } else {
            v as u64
        }
    }

    /// Adds a key; returns whether a register changed.
    #[inline]
    pub fn insert(&mut self, key: &[u8]) -> bool {
        self.insert_word(self.word(key))
    }

    /// Adds one 64-bit hash word as if a key had hashed to it (what a
    /// simulation that draws words instead of keys feeds); returns whether
    /// a register changed.
    #[inline]
    pub fn insert_word(&mut self, word: u64) -> bool {
        let (i, rank) = index_and_rank(word, self.p);
        let old = self.registers.get(i);
        if rank <= old {
            return false;
        }
        // HIP: before the change, a new key would have changed a register with
        // probability inv_sum / m; count it as 1 / that probability
        self.hip += self.m() as f64 / self.inv_sum;
        self.inv_sum += inv_pow2(rank) - inv_pow2(old);
        self.registers.set(i, rank);
        true
    }

    pub fn raw(&self) -> f64 {
        estimators::raw(&self.registers.histogram(), self.m())
    }

    pub fn linear_counting(&self) -> f64 {
        estimators::linear_counting(&self.registers.histogram(), self.m())
    }

    pub fn ertl(&self) -> f64 {
        estimators::ertl(&self.registers.histogram(), self.m(), 64 - self.p as usize)
    }

    /// HyperLogLog++'s bias-corrected estimate (the committed tables).
    pub fn hllpp(&self) -> f64 {
        super::hllpp::estimate(
            &self.registers.histogram(),
            self.p,
            super::hllpp::BiasTable::builtin(),
        )
    }

    /// The HIP estimate; `None` once the sketch has been merged.
    pub fn hip(&self) -> Option<f64> {
        self.hip_valid.then_some(self.hip)
    }

    /// The union: the register-wise maximum. HIP becomes unavailable.
    pub fn merge(&mut self, other: &Self) -> Result<(), MergeError> {
        if self.p != other.p {
            return Err(MergeError::Shape(format!("p {} vs {}", self.p, other.p)));
        }
        for i in 0..self.m() {
            let v = other.registers.get(i);
            if v > self.registers.get(i) {
                self.registers.set(i, v);
            }
        }
        self.hip_valid = false;
        Ok(())
    }
}

impl<H: KeyHasher> HyperLogLog<H> {
    /// The estimate by one estimator (HIP: `None` once a merge or a
    /// register edit voided its running count).
    pub fn estimate_by(&self, e: HllEstimator) -> Option<f64> {
        match e {
            HllEstimator::Raw => Some(self.raw()),
            HllEstimator::LinearCounting => Some(self.linear_counting()),
            HllEstimator::Hllpp => Some(self.hllpp()),
            HllEstimator::Ertl => Some(self.ertl()),
            HllEstimator::Hip => self.hip(),
        }
    }
}

impl<H: KeyHasher> crate::structures::Cardinality for HyperLogLog<H> {
    fn estimators(&self) -> &'static [&'static str] {
        &HllEstimator::NAMES
    }
    fn insert(&mut self, key: &[u8]) {
        HyperLogLog::insert(self, key);
    }
    fn estimate(&self, estimator: &str) -> Option<f64> {
        self.estimate_by(HllEstimator::parse(estimator)?)
    }
}

impl<H: KeyHasher> crate::structures::Mergeable for HyperLogLog<H> {
    fn merge(&mut self, other: &Self) -> Result<(), MergeError> {
        HyperLogLog::merge(self, other)
    }
}

/// 2^−r, exactly (the bits of the power of two; `2f64.powi(−r)` gives the
/// same value through a library call on every register change).
#[inline]
fn inv_pow2(r: u8) -> f64 {
    debug_assert!(r <= 66);
    f64::from_bits((1023 - r as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};

    fn h() -> HashStrategy {
        HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(11))
    }

    #[test]
    fn packed_registers_round_trip_without_touching_neighbours() {
        let mut r = Packed6::new(1 << 14);
        assert_eq!(r.bytes_used(), 12_288);
        for i in [0usize, 1, 2, 3, 4, 5, 100, 16_383] {
            r.set(i, (i % 64) as u8);
        }
        r.set(2, 63);
        assert_eq!((r.get(1), r.get(2), r.get(3)), (1, 63, 3));
        assert_eq!(r.get(16_383), (16_383 % 64) as u8);
        assert_eq!(r.histogram().iter().sum::<u32>(), 1 << 14);
    }

    #[test]
    fn inv_pow2_is_the_power_of_two() {
        for r in 0..=66u8 {
            assert_eq!(super::inv_pow2(r), 2f64.powi(-(r as i32)), "{r}");
        }
    }

    #[test]
    fn index_and_rank_follow_redis() {
        assert_eq!(index_and_rank(0b101 | 1 << 14, 14), (5, 1));
        assert_eq!(index_and_rank(7 | 1 << 17, 14), (7, 4));
        assert_eq!(index_and_rank(42, 14), (42, 51));
        assert_eq!(index_and_rank(0, 4), (0, 61));
    }

    #[test]
    fn estimators_agree_with_the_truth_and_merge_is_the_union() {
        let (mut a, mut b, mut u) = (
            HyperLogLog::new(12, h()).unwrap(),
            HyperLogLog::new(12, h()).unwrap(),
            HyperLogLog::new(12, h()).unwrap(),
        );
        for i in 0..50_000u32 {
            let k = i.to_le_bytes();
            if i % 2 == 0 {
                a.insert(&k)
            } else {
                b.insert(&k)
            };
            u.insert(&k);
        }
        // 5 standard errors of 1.04/64
        for (name, e) in [
            ("ertl", u.ertl()),
            ("hip", u.hip().unwrap()),
            ("lc/raw", u.linear_counting()),
        ] {
            assert!((e / 5e4 - 1.0).abs() < 5.0 * 1.04 / 64.0, "{name}: {e}");
        }
        a.merge(&b).unwrap();
        assert_eq!(a.registers(), u.registers());
        assert_eq!(a.hip(), None, "HIP is not mergeable");
        assert!(HyperLogLog::new(3, h()).is_err() && HyperLogLog::new(19, h()).is_err());
    }
}
