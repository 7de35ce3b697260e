//! A Redis-compatible HyperLogLog: what `PFADD` and `PFCOUNT` compute in Redis
//! ≥ 5 (`src/hyperloglog.c`), written from its description: MurmurHash64A with
//! seed 0xadc83b19 over the element's bytes, p = 14, the register index from
//! the hash's low 14 bits and the rank from the trailing zeros of the rest
//! ([`super::index_and_rank`]), 6-bit registers packed densely (12,288 bytes),
//! and the count is Ertl's estimator rounded half away from zero (`llroundl`).
//! Redis's sparse encoding stores the same register values, so it counts the
//! same; `tests/redis.rs` checks this against a real redis-server.

use super::HyperLogLog;
use crate::hashing::{Murmur64a, Seed};

pub const P: u32 = 14;
pub const SEED: u64 = 0xadc8_3b19;

#[derive(Clone, Debug)]
pub struct RedisHll(HyperLogLog<Murmur64a>);

impl Default for RedisHll {
    fn default() -> Self {
        Self::new()
    }
}

impl RedisHll {
    pub fn new() -> Self {
        RedisHll(HyperLogLog::new(P, Murmur64a::new(Seed::fixed(SEED))).expect("p = 14 is valid"))
    }

    /// `PFADD`: whether a register changed (Redis's reply 1 or 0).
    pub fn add(&mut self, element: &[u8]) -> bool {
        self.0.insert(element)
    }

    /// `PFCOUNT`.
    pub fn count(&self) -> u64 {
        self.0.ertl().round() as u64
    }

    /// `PFMERGE`.
    pub fn merge(&mut self, other: &RedisHll) {
        self.0.merge(&other.0).expect("same p");
    }

    pub fn sketch(&self) -> &HyperLogLog<Murmur64a> {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_close_and_duplicates_are_free() {
        let mut h = RedisHll::new();
        for i in 0..100_000u32 {
            h.add(format!("key-{i}").as_bytes());
        }
        let once = h.count();
        for i in 0..100_000u32 {
            assert!(!h.add(format!("key-{i}").as_bytes()));
        }
        assert_eq!(h.count(), once);
        assert_eq!(h.sketch().bytes_used(), 12_288);
        assert!((once as f64 / 1e5 - 1.0).abs() < 5.0 * 0.008125, "{once}");
    }
}
