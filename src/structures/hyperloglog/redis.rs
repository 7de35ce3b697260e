//! A Redis-compatible HyperLogLog: what `PFADD` and `PFCOUNT` compute in Redis
//! ≥ 5 (`src/hyperloglog.c`), written from its description: MurmurHash64A with
//! seed 0xadc83b19 over the element's bytes, p = 14; the register index is the
//! hash's low 14 bits and the rank is the number of trailing zeros of
//! (hash >> 14) | 2^50, plus one; registers are 6 bits wide, packed densely
//! (register i at bits 6i … 6i + 5, least significant bit first), 12,288 bytes;
//! the count is Ertl's estimator rounded to the nearest integer. Redis's sparse
//! encoding stores the same register values, so it counts the same.

use super::estimators;
use crate::hashing::{KeyHasher, Murmur64a, Seed};

pub const P: u32 = 14;
pub const REGISTERS: usize = 1 << P;
/// Bits of the hash left after the index: ranks are 1 ..= Q + 1.
pub const Q: u32 = 64 - P;
pub const SEED: u64 = 0xadc8_3b19;

/// m registers of 6 bits packed into ⌈6m/8⌉ bytes.
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

    /// Bytes of register storage (12,288 for m = 16,384; one spare byte for
    /// the two-byte reads is not counted).
    pub fn bytes_used(&self) -> usize {
        self.data.len() - 1
    }

    #[inline]
    pub fn get(&self, i: usize) -> u8 {
        let bit = 6 * i;
        let (byte, shift) = (bit / 8, bit % 8);
        let w = self.data[byte] as u16 | (self.data[byte + 1] as u16) << 8;
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

/// Register index and rank of one hash, Redis's way.
#[inline]
pub fn index_and_rank(hash: u64) -> (usize, u8) {
    let index = (hash & (REGISTERS as u64 - 1)) as usize;
    let rest = (hash >> P) | 1u64 << Q;
    (index, rest.trailing_zeros() as u8 + 1)
}

/// The Redis-compatible sketch.
#[derive(Clone, Debug)]
pub struct RedisHll {
    registers: Packed6,
    hasher: Murmur64a,
}

impl Default for RedisHll {
    fn default() -> Self {
        Self::new()
    }
}

impl RedisHll {
    pub fn new() -> Self {
        RedisHll {
            registers: Packed6::new(REGISTERS),
            hasher: Murmur64a::new(Seed::fixed(SEED)),
        }
    }

    /// `PFADD`: returns whether a register changed (Redis's reply 1 or 0).
    pub fn add(&mut self, element: &[u8]) -> bool {
        let (i, rank) = index_and_rank(self.hasher.native(element) as u64);
        if rank > self.registers.get(i) {
            self.registers.set(i, rank);
            true
        } else {
            false
        }
    }

    /// `PFCOUNT`: Ertl's estimate, rounded half away from zero (`llroundl`).
    pub fn count(&self) -> u64 {
        self.estimate().round() as u64
    }

    /// The unrounded estimate.
    pub fn estimate(&self) -> f64 {
        estimators::ertl(&self.registers.histogram(), REGISTERS, Q as usize)
    }

    pub fn registers(&self) -> &Packed6 {
        &self.registers
    }

    /// `PFMERGE`: the register-wise maximum.
    pub fn merge(&mut self, other: &RedisHll) {
        for i in 0..REGISTERS {
            let v = other.registers.get(i);
            if v > self.registers.get(i) {
                self.registers.set(i, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_registers_round_trip_without_touching_neighbours() {
        let mut r = Packed6::new(REGISTERS);
        assert_eq!(r.bytes_used(), 12_288);
        for i in [0usize, 1, 2, 3, 4, 5, 100, 16_383] {
            r.set(i, (i % 64) as u8);
        }
        r.set(2, 63);
        assert_eq!(r.get(1), 1);
        assert_eq!(r.get(2), 63);
        assert_eq!(r.get(3), 3);
        assert_eq!(r.get(16_383), (16_383 % 64) as u8);
        assert_eq!(r.histogram().iter().sum::<u32>(), REGISTERS as u32);
    }

    #[test]
    fn index_and_rank_follow_redis() {
        // low 14 bits index; the first 1 at bit 14 gives rank 1
        assert_eq!(index_and_rank(0b101 | 1 << 14), (5, 1));
        // the first 1 at bit 17: three zeros then a one, rank 4
        assert_eq!(index_and_rank(7 | 1 << 17), (7, 4));
        // no bit above the index: rank Q + 1 = 51
        assert_eq!(index_and_rank(42), (42, 51));
    }

    #[test]
    fn counts_are_close_and_duplicates_are_free() {
        let mut h = RedisHll::new();
        for i in 0..100_000u32 {
            h.add(format!("key-{i}").as_bytes());
        }
        let once = h.count();
        for i in 0..100_000u32 {
            h.add(format!("key-{i}").as_bytes());
        }
        assert_eq!(h.count(), once);
        // 5 standard errors of 1.04/128
        assert!((once as f64 / 1e5 - 1.0).abs() < 5.0 * 0.008125, "{once}");
    }
}
