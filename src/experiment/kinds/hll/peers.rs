//! Other crates' HyperLogLogs, fed the same key bytes as sketchlab's, each
//! through its own documented API and its own hash (what a user of that
//! crate gets): Apache DataSketches (`datasketches` 0.6, HLL_8, its default
//! estimate, which is HIP for a sketch that was never merged, and its
//! order-independent "composite" estimate), `hyperloglogplus` 0.4 (HLL++ with
//! its sparse mode; xxh3 seeded from the trial as its `BuildHasher`) and
//! `cardinality-estimator` 1.0 (Cloudflare; WyHash, 6-bit registers).

use cardinality_estimator::CardinalityEstimator;
use datasketches::hash::value::raw_bytes;
use datasketches::hll::{HllSketch, HllType};
use hyperloglogplus::{HyperLogLog as _, HyperLogLogPlus};
use xxhash_rust::xxh3::Xxh3Builder;

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

impl Peer for HyperLogLogPlus<[u8], Xxh3Builder> {
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
        let pp = HyperLogLogPlus::new(p as u8, Xxh3Builder::new().with_seed(seed))
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
