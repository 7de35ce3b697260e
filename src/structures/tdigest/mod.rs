//! The merging t-digest (Dunning & Ertl 2019) with the k1 (arcsine) scale
//! function, written here (the `datasketches` crate's t-digest is measured
//! beside it in the `tdigest` study).
//!
//! # Properties
//! * Values are buffered and merged into centroids (mean, weight) sorted by
//!   mean; adjacent centroids are combined while k1(q_right) − k1(q_left) ≤ 1,
//!   k1(q) = δ/(2π)·asin(2q − 1), so centroids near q = 0 and 1 stay tiny:
//!   the error is smallest at the extremes (∝ √(q(1 − q)), [`theory::max_share`]).
//! * At most ~δ centroids (16 bytes each) whatever the stream length.
//! * Quantiles interpolate between centroid means, with the exact minimum
//!   and maximum at the ends; they are monotone in q (tested).
//! * Mergeable: merging two digests re-compresses the union of their
//!   centroids (approximate, like the digest itself).
//!
//! # Usage
//! ```
//! use sketchlab::structures::tdigest::TDigest;
//! let mut d = TDigest::new(100.0).unwrap();
//! for i in 0..100_000 { d.add(i as f64); }
//! let p99 = d.quantile(0.99).unwrap();
//! assert!((p99 - 99_000.0).abs() < 200.0);
//! ```
//!
//! # References
//! * T. Dunning, O. Ertl, arXiv:1902.04023, 2019.

pub mod theory;

use super::{ParamError, Quantiles, invalid};

#[derive(Clone, Copy, Debug, PartialEq)]
struct Centroid {
    mean: f64,
    weight: f64,
}

#[derive(Clone, Debug)]
pub struct TDigest {
    compression: f64,
    centroids: Vec<Centroid>,
    buffer: Vec<f64>,
    total: f64,
    min: f64,
    max: f64,
}

impl TDigest {
    /// Compression δ > 0 (finite): about δ centroids.
    pub fn new(compression: f64) -> Result<Self, ParamError> {
        if !(compression > 0.0 && compression.is_finite()) {
            return Err(invalid(
                "compression",
                compression,
                "must be a finite number > 0",
            ));
        }
        Ok(TDigest {
            compression,
            centroids: Vec::new(),
            buffer: Vec::with_capacity(Self::buffer_len(compression)),
            total: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        })
    }

    fn buffer_len(compression: f64) -> usize {
        (5.0 * compression).ceil() as usize + 10
    }

    /// Adds one value (NaN is ignored).
    pub fn add(&mut self, x: f64) {
        if x.is_nan() {
            return;
        }
        self.min = self.min.min(x);
        self.max = self.max.max(x);
        self.buffer.push(x);
        if self.buffer.len() >= Self::buffer_len(self.compression) {
            self.flush();
        }
    }

    /// Values added.
    pub fn count(&self) -> f64 {
        self.total + self.buffer.len() as f64
    }

    /// Centroids after merging the buffer.
    pub fn centroid_count(&mut self) -> usize {
        self.flush();
        self.centroids.len()
    }

    /// Bytes of the centroids (mean and weight as f64) plus min and max.
    pub fn bytes(&mut self) -> usize {
        16 * self.centroid_count() + 16
    }

    fn flush(&mut self) {
        if self.buffer.is_empty() {
            return;
        }
        let mut all: Vec<Centroid> = self
            .buffer
            .drain(..)
            .map(|x| Centroid {
                mean: x,
                weight: 1.0,
            })
            .chain(self.centroids.drain(..))
            .collect();
        all.sort_by(|a, b| a.mean.total_cmp(&b.mean));
        self.compress(all);
    }

    /// The merging pass: combine neighbours while k1 grows by at most 1.
    fn compress(&mut self, sorted: Vec<Centroid>) {
        let total: f64 = sorted.iter().map(|c| c.weight).sum();
        let mut out: Vec<Centroid> = Vec::with_capacity(self.compression as usize * 2);
        let mut done = 0.0; // weight before the current centroid
        let mut k_left = theory::k1(0.0, self.compression);
        let mut cur = sorted[0];
        for c in sorted.into_iter().skip(1) {
            let q_right = (done + cur.weight + c.weight) / total;
            if theory::k1(q_right, self.compression) - k_left <= 1.0 {
                let w = cur.weight + c.weight;
                cur.mean += (c.mean - cur.mean) * c.weight / w;
                cur.weight = w;
            } else {
                done += cur.weight;
                k_left = theory::k1(done / total, self.compression);
                out.push(cur);
                cur = c;
            }
        }
        out.push(cur);
        self.centroids = out;
        self.total = total;
    }

    /// Merges another digest (re-compressing the union of centroids).
    pub fn merge(&mut self, other: &TDigest) {
        let mut o = other.clone();
        o.flush();
        self.flush();
        if o.centroids.is_empty() {
            return;
        }
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        let mut all: Vec<Centroid> = self.centroids.drain(..).chain(o.centroids).collect();
        all.sort_by(|a, b| a.mean.total_cmp(&b.mean));
        self.compress(all);
    }

    /// The q-quantile (q in [0, 1]); `None` when empty. Each centroid's mass
    /// is centred on its mean; between two means the quantile is linear in
    /// rank, and the first and last half-centroids run to the exact min and max.
    pub fn quantile(&mut self, q: f64) -> Option<f64> {
        self.flush();
        if self.centroids.is_empty() || q.is_nan() {
            return None;
        }
        let q = q.clamp(0.0, 1.0);
        let c = &self.centroids;
        let target = q * self.total;
        if c.len() == 1 {
            return Some(lerp(self.min, self.max, q));
        }
        // rank at the centre of centroid i
        let mut below = 0.0;
        let first_centre = c[0].weight / 2.0;
        if target <= first_centre {
            let f = if first_centre > 0.0 {
                target / first_centre
            } else {
                0.0
            };
            return Some(lerp(self.min, c[0].mean, f));
        }
        for i in 0..c.len() - 1 {
            let centre = below + c[i].weight / 2.0;
            let next = below + c[i].weight + c[i + 1].weight / 2.0;
            if target <= next {
                let f = (target - centre) / (next - centre);
                return Some(lerp(c[i].mean, c[i + 1].mean, f));
            }
            below += c[i].weight;
        }
        let last = c[c.len() - 1];
        let centre = self.total - last.weight / 2.0;
        let f = ((target - centre) / (last.weight / 2.0)).clamp(0.0, 1.0);
        Some(lerp(last.mean, self.max, f))
    }
}

/// a + (b − a)·f for a ≤ b and f in [0, 1], kept inside [a, b]: the
/// rounded expression is monotone in f but can overshoot b by an ulp at
/// f = 1, which would put a quantile above the maximum (or above the start
/// of the next segment).
fn lerp(a: f64, b: f64, f: f64) -> f64 {
    (a + (b - a) * f).clamp(a.min(b), a.max(b))
}

impl Quantiles for TDigest {
    fn add(&mut self, x: f64) {
        TDigest::add(self, x)
    }
    fn quantile(&self, q: f64) -> Option<f64> {
        TDigest::quantile(&mut self.clone(), q)
    }
    fn count(&self) -> u64 {
        TDigest::count(self) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_points_never_give_a_quantile_above_the_maximum() {
        // found by the property test: the interpolation overshot max by an ulp
        let mut d = TDigest::new(10.0).unwrap();
        let (hi, lo) = (-51_711.113_585_747_44, -547_478.879_475_025_7);
        d.add(hi);
        d.add(lo);
        let mut last = f64::NEG_INFINITY;
        for j in 0..=200 {
            let v = d.quantile(j as f64 / 200.0).unwrap();
            assert!(
                v >= last && (lo..=hi).contains(&v),
                "q = {}: {v} after {last}",
                j as f64 / 200.0
            );
            last = v;
        }
    }

    #[test]
    fn quantiles_of_a_permutation_are_close_and_monotone() {
        let mut d = TDigest::new(100.0).unwrap();
        let n = 200_000u64;
        // a fixed permutation of 0..n
        for i in 0..n {
            d.add(((i * 7_919) % n) as f64);
        }
        assert!(d.centroid_count() <= 200, "{}", d.centroid_count());
        let mut last = f64::NEG_INFINITY;
        for j in 0..=1000 {
            let q = j as f64 / 1000.0;
            let x = d.quantile(q).unwrap();
            assert!(x >= last, "q = {q}: {x} < {last}");
            last = x;
        }
        assert_eq!(d.quantile(0.0), Some(0.0));
        assert_eq!(d.quantile(1.0), Some((n - 1) as f64));
        // rank error |F(x̂_q) − q| within half the largest centroid k1 allows
        // there, (π/δ)·√(q(1 − q)): far smaller at the tails than in the middle
        let err = |d: &mut TDigest, q: f64| (d.quantile(q).unwrap() / n as f64 - q).abs();
        for q in [0.5, 0.9, 0.99, 0.999, 0.9999] {
            let bound = theory::max_share(q, 100.0) / 2.0;
            assert!(
                err(&mut d, q) <= bound,
                "q = {q}: {} > {bound}",
                err(&mut d, q)
            );
        }
        assert!(TDigest::new(0.0).is_err() && TDigest::new(f64::NAN).is_err());
    }

    #[test]
    fn merge_of_halves_is_close_to_the_whole() {
        let (mut a, mut b, mut w) = (
            TDigest::new(100.0).unwrap(),
            TDigest::new(100.0).unwrap(),
            TDigest::new(100.0).unwrap(),
        );
        for i in 0..100_000u64 {
            let x = ((i * 104_729) % 100_000) as f64;
            if i % 2 == 0 {
                a.add(x)
            } else {
                b.add(x)
            }
            w.add(x);
        }
        a.merge(&b);
        assert_eq!(a.count(), 100_000.0);
        for q in [0.01, 0.5, 0.99] {
            let (x, y) = (a.quantile(q).unwrap(), w.quantile(q).unwrap());
            assert!((x - y).abs() / 100_000.0 < 0.005, "q = {q}: {x} vs {y}");
        }
    }
}
