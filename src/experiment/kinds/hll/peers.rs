//! Other crates' HyperLogLogs, fed the same key bytes as sketchlab's, each
//! through its own documented API and its own hash (what a user of that
//! crate gets): Apache DataSketches (`datasketches` 0.6, HLL_8, its default
//! estimate, which is HIP for a sketch that was never merged, and its
//! order-independent "composite" estimate), `hyperloglogplus` 0.4 (HLL++ with
//! its sparse mode; xxh3 seeded from the trial as its `BuildHasher`: the
//! values of xxhash-rust's `Xxh3Builder::with_seed`, see [`SeededXxh3`]) and
//! `cardinality-estimator` 1.0 (Cloudflare; WyHash, 6-bit registers).

use cardinality_estimator::CardinalityEstimator;
use datasketches::hash::value::raw_bytes;
use datasketches::hll::{HllSketch, HllType};
use hyperloglogplus::{HyperLogLog as _, HyperLogLogPlus};
use std::hash::{BuildHasher, Hasher};

/// The peers' estimates, in [`NAMES`] order.
pub const NAMES: [&str; 4] = [
    "datasketches",
    "datasketches_composite",
    "hyperloglogplus",
    "cardinality_estimator",
];

/// A peer's sketch at one precision.
trait Peer: Send {
    fn insert(&mut self, key: &[u8]);
    fn estimates(&mut self) -> Vec<f64>;
}

impl Peer for HllSketch {
    fn insert(&mut self, key: &[u8]) {
        self.update(raw_bytes::from_slice(key));
    }
    fn estimates(&mut self) -> Vec<f64> {
        vec![self.estimate(), self.composite_estimate()]
    }
}

/// Seeded xxh3 as a `BuildHasher` whose hashers return exactly what
/// `xxhash_rust::xxh3::Xxh3Builder::new().with_seed(seed)`'s do (a test
/// compares them): the bytes written are buffered and hashed once, by the
/// one-shot `xxh3_64_with_seed`, which the streaming state equals by xxh3's
/// specification. `Xxh3Builder` derives a 192-byte secret from the seed for
/// every hasher it builds, once per key through `hyperloglogplus`'s insert:
/// four fifths of the time hll_registers spent on its peers.
#[derive(Clone, Copy)]
struct SeededXxh3(u64);

/// The bytes a [`SeededXxh3`] hasher was given: inline up to 64 bytes
/// (a slice key's length prefix and the key), in a `Vec` beyond.
struct Xxh3Buffer {
    seed: u64,
    inline: [u8; 64],
    len: usize,
    spill: Vec<u8>,
}

impl BuildHasher for SeededXxh3 {
    type Hasher = Xxh3Buffer;
    #[inline]
    fn build_hasher(&self) -> Xxh3Buffer {
        Xxh3Buffer {
            seed: self.0,
            inline: [0; 64],
            len: 0,
            spill: Vec::new(),
        }
    }
}

impl Hasher for Xxh3Buffer {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        if self.spill.is_empty() && self.len + bytes.len() <= self.inline.len() {
            self.inline[self.len..self.len + bytes.len()].copy_from_slice(bytes);
            self.len += bytes.len();
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline[..self.len]);
            }
            self.spill.extend_from_slice(bytes);
        }
    }
    #[inline]
    fn finish(&self) -> u64 {
        let all = if self.spill.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.spill[..]
        };
        xxhash_rust::xxh3::xxh3_64_with_seed(all, self.seed)
    }
}

impl Peer for HyperLogLogPlus<[u8], SeededXxh3> {
    fn insert(&mut self, key: &[u8]) {
        hyperloglogplus::HyperLogLog::insert(self, key);
    }
    fn estimates(&mut self) -> Vec<f64> {
        vec![self.count()]
    }
}

impl<const P: usize> Peer for CardinalityEstimator<[u8], wyhash::WyHash, P, 6> {
    fn insert(&mut self, key: &[u8]) {
        CardinalityEstimator::insert(self, key);
    }
    fn estimates(&mut self) -> Vec<f64> {
        vec![self.estimate() as f64]
    }
}

fn cardinality_estimator(p: u32) -> Box<dyn Peer> {
    macro_rules! at {
        ($($p:literal)*) => {
            match p {
                $($p => Box::new(CardinalityEstimator::<[u8], wyhash::WyHash, $p, 6>::new()),)*
                _ => unreachable!("p = {p} checked by the caller"),
            }
        };
    }
    at!(4 5 6 7 8 9 10 11 12 13 14 15 16 17 18)
}

/// Every peer's sketch at precision p (4..=18), fed together.
pub struct Peers(Vec<Box<dyn Peer>>);

impl Peers {
    pub fn new(p: u32, seed: u64) -> anyhow::Result<Self> {
        anyhow::ensure!((4..=18).contains(&p), "peers: p = {p} outside 4..=18");
        let ds = HllSketch::new(p as u8, HllType::Hll8)?;
        let pp = HyperLogLogPlus::new(p as u8, SeededXxh3(seed))
            .map_err(|e| anyhow::anyhow!("hyperloglogplus: {e:?}"))?;
        Ok(Peers(vec![
            Box::new(ds),
            Box::new(pp),
            cardinality_estimator(p),
        ]))
    }

    #[inline]
    pub fn insert(&mut self, key: &[u8]) {
        for s in &mut self.0 {
            s.insert(key);
        }
    }

    /// Estimates in [`NAMES`] order.
    pub fn estimates(&mut self) -> Vec<f64> {
        self.0.iter_mut().flat_map(|s| s.estimates()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_xxh3_hashes_as_xxhash_rusts_builder() {
        let theirs = xxhash_rust::xxh3::Xxh3Builder::new();
        for seed in [0, 1, 0x9e37_79b9_7f4a_7c15] {
            let (ours, theirs) = (SeededXxh3(seed), theirs.with_seed(seed));
            // slice keys as `Hash` writes them (a length prefix, then the
            // bytes), across the inline buffer's edge and past 240 bytes
            for len in (0..=80).chain([100, 239, 240, 241, 1000, 5000]) {
                let key: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
                assert_eq!(
                    ours.hash_one(&key[..]),
                    theirs.hash_one(&key[..]),
                    "seed {seed}, {len} bytes"
                );
            }
            // several writes, the second crossing into the spill
            let (mut a, mut b) = (ours.build_hasher(), theirs.build_hasher());
            for part in [&[1u8; 40][..], &[2; 40], &[3; 3]] {
                a.write(part);
                b.write(part);
            }
            assert_eq!(a.finish(), b.finish(), "seed {seed}, three writes");
        }
    }

    #[test]
    fn every_peer_counts_within_five_standard_errors() {
        let mut peers = Peers::new(12, 7).unwrap();
        for i in 0..20_000u32 {
            peers.insert(&i.to_le_bytes());
            peers.insert(&i.to_le_bytes());
        }
        let e = peers.estimates();
        assert_eq!(e.len(), NAMES.len());
        for (name, v) in NAMES.iter().zip(e) {
            assert!(
                (v / 2e4 - 1.0).abs() < 5.0 * 1.04 / 64.0,
                "{name}: {v} for 20,000"
            );
        }
    }
}
