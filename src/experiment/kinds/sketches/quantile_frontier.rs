//! `quantile_frontier`: rank error against bytes for every quantile sketch
//! a user would pick: sketchlab's merging t-digest and DataSketches'
//! t-digest (compression δ = `size`), DataSketches' KLL (k = `size`) and
//! REQ (k = `size`, high-rank accuracy), Datadog's DDSketch (the
//! `sketches-ddsketch` crate: relative accuracy α = 1/`size`, its default
//! 2,048 bins) and a uniform reservoir of `size` values. One stream per
//! trial; each structure's estimate of the q-quantile is scored by its
//! exact mid-rank against q (and by its relative distance from the exact
//! q-quantile, DDSketch's own guarantee), at q = 0.5, 0.99, 0.999 and
//! 0.9999 (one row per q), beside the bytes of its serialized state.

use super::tdigest::{Dist, draw_values, mid_rank, reservoir_sample, sort_values};
use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common;
use crate::experiment::params::{Def, Seeds};
use crate::structures::tdigest::{Scale, TDigest, theory};
use datasketches::common::SearchCriteria;
use datasketches::kll::{KllFloat, KllSketch};
use datasketches::req::{RankAccuracy, ReqFloat, ReqSketch};
use datasketches::tdigest::TDigestMut;
use sketches_ddsketch::{Config as DdConfig, DDSketch};

/// DDSketch's bins (the crate's default) and the smallest positive value it
/// tells from zero (its default, 1e-9).
const DD_MAX_BINS: u32 = 2048;
const DD_MIN_VALUE: f64 = 1e-9;

pub struct QuantileFrontier;

/// The quantiles read.
pub const QS: [f64; 4] = [0.5, 0.99, 0.999, 0.9999];

crate::closed_set! {
    /// The values of `structure`.
    pub enum Structure {
        Tdigest = "tdigest",
        DatasketchesTdigest = "datasketches_tdigest",
        Kll = "kll",
        Req = "req",
        Ddsketch = "ddsketch",
        Reservoir = "reservoir",
    }
}

crate::params! {
    pub struct P {
        structure: Structure = common::choice(Structure::NAMES, Def::Required, "the sketch (size: δ for the t-digests, k for KLL and REQ, 1/α for DDSketch, values for the reservoir)"),
        size: u64 [count] = common::int(8, 1024, Def::Int(200), "the structure's size knob (REQ: even)"),
        dist: Dist = common::choice(Dist::NAMES, Def::Str("lognormal"), "the stream's distribution"),
        n: u64 [count] = common::count(Def::Int(1_000_000), "values in the stream"),
    }
}

crate::row! {
    pub struct R {
        q: f64 [Key, fraction],
        /// |mid-rank of the estimate − q|.
        rank_err: f64 [fraction],
        /// Bytes of the serialized state (reservoir: 8 per value).
        bytes: f64 [bytes],
        /// sketchlab's t-digest: half the largest centroid share K2 allows at
        /// q, q(1 − q)/(2η); the reservoir: its rank error's sd
        /// √(q(1 − q)/s) where s·min(q, 1 − q) ≥ 5 (a normal approximation
        /// needs a few sampled values beyond q); none for the others.
        rank_err_theory: Option<f64> [Same, fraction],
        /// |estimate − x_q| / |x_q| against the exact q-quantile x_q (the
        /// ⌈q·n⌉-th smallest value): DDSketch guarantees α.
        value_err: f64 [relative_error],
        /// The rank error no answer can beat: one value's half rank, 1/(2n).
        rank_err_floor: f64 [Same, fraction],
    }
}

impl Measure for QuantileFrontier {
    type P = P;
    type R = R;
    const NAME: &'static str = "quantile_frontier";
    const ABOUT: &'static str =
        "rank error at q = 0.5 … 0.9999 against bytes: both t-digests, KLL, REQ and a reservoir";
    const MIN_REPLICATES: u32 = 2;
    /// DataSketches' KLL and REQ flip their compaction coins from a
    /// generator seeded by OS randomness that no caller can seed.
    const REPRODUCIBLE: bool = false;

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if p.structure == Structure::Req && p.size % 2 == 1 {
            return Err(crate::error::Error::invalid("size", "even for req (its k)"));
        }
        Ok(())
    }

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let values = draw_values(p.dist, p.n, seeds)?;
        let size = p.size as f64;
        let n = p.n as f64;
        // each structure's estimate at every q, its bytes, and its theory
        type Theory = Box<dyn Fn(f64) -> Option<f64>>;
        let (estimates, bytes, theory): (Vec<Option<f64>>, f64, Theory) = match p.structure {
            Structure::Tdigest => {
                let mut td = TDigest::new(size)?;
                values.iter().for_each(|&x| td.add(x));
                let e = QS.iter().map(|&q| td.quantile(q)).collect();
                (
                    e,
                    td.bytes() as f64,
                    Box::new(move |q| Some(theory::half_centroid(Scale::K2, q, size, n))),
                )
            }
            Structure::DatasketchesTdigest => {
                let mut ds = TDigestMut::new(p.size as u16)?;
                values.iter().for_each(|&x| ds.update(x));
                let e = QS
                    .iter()
                    .map(|&q| ds.quantile(q))
                    .collect::<Result<_, _>>()?;
                (e, ds.serialize().len() as f64, Box::new(|_| None))
            }
            Structure::Kll => {
                let mut kll = KllSketch::<KllFloat<f64>>::new(p.size as u16)?;
                for &x in &values {
                    kll.update(KllFloat::<f64>::new(x)?);
                }
                let mut e = Vec::new();
                for &q in &QS {
                    e.push(kll.quantile(q, SearchCriteria::Inclusive)?.map(|v| *v));
                }
                (e, kll.serialize().len() as f64, Box::new(|_| None))
            }
            Structure::Req => {
                let mut req =
                    ReqSketch::<ReqFloat<f64>>::new(p.size as u16, RankAccuracy::HighRank)?;
                for &x in &values {
                    req.update(ReqFloat::<f64>::new(x)?);
                }
                let mut e = Vec::new();
                for &q in &QS {
                    e.push(req.quantile(q, SearchCriteria::Inclusive)?.map(|v| *v));
                }
                (e, req.serialize().len() as f64, Box::new(|_| None))
            }
            Structure::Ddsketch => {
                let mut dd = DDSketch::new(DdConfig::new(1.0 / size, DD_MAX_BINS, DD_MIN_VALUE));
                values.iter().for_each(|&x| dd.add(x));
                let e = QS
                    .iter()
                    .map(|&q| dd.quantile(q))
                    .collect::<Result<_, _>>()?;
                (e, dd.to_java_bytes().len() as f64, Box::new(|_| None))
            }
            _ => {
                let s = p.size as usize;
                let r = reservoir_sample(&values, s, seeds);
                let e = QS
                    .iter()
                    .map(|&q| Some(r[((q * s as f64) as usize).min(s - 1)]))
                    .collect();
                // the normal approximation needs a few sampled values beyond q
                let sd = move |q: f64| {
                    (size * q.min(1.0 - q) >= 5.0).then(|| (q * (1.0 - q) / size).sqrt())
                };
                (e, 8.0 * size, Box::new(sd))
            }
        };
        let mut sorted = values;
        sort_values(&mut sorted);
        let exact = |q: f64| sorted[((q * n).ceil() as usize).clamp(1, sorted.len()) - 1];
        Ok(QS
            .iter()
            .zip(estimates)
            .map(|(&q, x)| R {
                q,
                rank_err: x
                    .map(|x| (mid_rank(&sorted, x) - q).abs())
                    .unwrap_or(f64::NAN),
                bytes,
                rank_err_theory: theory(q),
                value_err: x
                    .map(|x| (x - exact(q)).abs() / exact(q).abs())
                    .unwrap_or(f64::NAN),
                rank_err_floor: 0.5 / n,
            })
            .collect())
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // the stream and its sorted copy, beside one sketch
        let n = p.n as f64;
        Some(Footprint::one(p.size as f64 * 100.0, n * 4.0).plus(2.0 * n * 8.0))
    }
}
