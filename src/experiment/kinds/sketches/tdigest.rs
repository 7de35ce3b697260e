//! `tdigest`: quantiles of uniform, normal, log-normal and Pareto streams by
//! sketchlab's merging t-digest (K2 or k1 scale, compression δ), the Apache DataSketches
//! t-digest and KLL, and a uniform reservoir sample holding as many bytes as
//! sketchlab's digest: the rank error |F(x̂_q) − q| against the exact
//! empirical CDF, at q = 0.5 … 0.9999 (one row per q).

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common;
use crate::experiment::params::{Def, Seeds};
use crate::structures::tdigest::{Scale, TDigest, theory};
use datasketches::common::SearchCriteria;
use datasketches::kll::{KllFloat, KllSketch};
use datasketches::tdigest::TDigestMut;
use rand::RngExt;

pub struct TDigestStudy;

/// The quantiles read.
pub const QS: [f64; 6] = [0.5, 0.9, 0.95, 0.99, 0.999, 0.9999];

pub use crate::workload::values::{Dist, mid_rank, sort as sort_values};

crate::params! {
    pub struct P {
        dist: Dist = common::choice(Dist::NAMES, Def::Required, "uniform(0,1), normal(0,1), lognormal(0,1), pareto(scale 1, shape 1.5), log-normal sorted or reverse_sorted, adversarial (10^12 − 10^(12(1−u)))"),
        n: u64 [count] = common::count(Def::Int(1_000_000), "values in the stream"),
        compression: f64 [number] = common::positive(100_000.0, Def::Float(100.0), "t-digest compression delta (also DataSketches' k)"),
        scale: Scale = common::choice(Scale::NAMES, Def::Str("k2"), "sketchlab's t-digest scale function: k2 (the reference's) or k1 (arcsine)"),
        kll_k: u64 [count] = common::int(8, 65_535, Def::Int(200), "DataSketches KLL k"),
    }
}

crate::row! {
    pub struct R {
        q: f64 [Key, fraction],
        rank_err_tdigest: f64 [fraction],
        rank_err_reservoir: f64 [fraction],
        rank_err_ds_tdigest: f64 [fraction],
        rank_err_ds_kll: f64 [fraction],
        /// The rank errors as a share of the tail beyond q, min(q, 1 − q):
        /// what a latency monitor reads (an error of 0.005 at p99 is half of
        /// the 1% the quantile separates off, at the median 1%).
        tail_err_tdigest: f64 [fraction],
        tail_err_reservoir: f64 [fraction],
        /// Half the largest centroid share the scale allows at q: K2's
        /// q(1 − q)/(2η), k1's (π/δ)·√(q(1 − q)).
        tdigest_bound: f64 [Same, fraction],
        /// A uniform sample of s values: sd of its rank error √(q(1 − q)/s).
        reservoir_sd_theory: f64 [fraction],
        bytes_tdigest: f64 [bytes],
        reservoir_values: f64 [count],
        bytes_ds_tdigest: f64 [bytes],
        bytes_ds_kll: f64 [bytes],
    }
}

/// The stream of a trial: `n` values of the distribution `dist` from the
/// trial's seeds, in stream order ([`crate::workload::values::draw`]).
pub fn draw_values(dist: Dist, n: u64, seeds: Seeds) -> anyhow::Result<Vec<f64>> {
    Ok(crate::workload::values::draw(
        dist,
        n,
        &mut seeds.rng("values"),
    ))
}

/// A uniform sample of `s` of the values (Algorithm R, from the trial's
/// seeds), sorted.
pub fn reservoir_sample(values: &[f64], s: usize, seeds: Seeds) -> Vec<f64> {
    let mut rng = seeds.rng("reservoir");
    let mut reservoir: Vec<f64> = Vec::with_capacity(s);
    for (i, &x) in values.iter().enumerate() {
        if reservoir.len() < s {
            reservoir.push(x);
        } else {
            let j = rng.random_range(0..=i);
            if j < s {
                reservoir[j] = x;
            }
        }
    }
    sort_values(&mut reservoir);
    reservoir
}

impl Measure for TDigestStudy {
    type P = P;
    type R = R;
    const NAME: &'static str = "tdigest";
    const ABOUT: &'static str = "t-digest rank error by quantile vs a same-bytes reservoir sample, DataSketches t-digest and KLL";
    const MIN_REPLICATES: u32 = 2;
    /// DataSketches' KLL flips its compaction coins from a thread-local
    /// generator seeded by `RandomState` (OS randomness) that no caller can
    /// seed, so `rank_err_ds_kll` differs from process to process once the
    /// sketch compacts (every other column is reproducible).
    const REPRODUCIBLE: bool = false;

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let values = draw_values(p.dist, p.n, seeds)?;
        let scale = p.scale;
        let mut td = TDigest::with_scale(p.compression, scale)?;
        let mut ds = TDigestMut::new(p.compression.min(65_535.0) as u16)?;
        let mut kll = KllSketch::<KllFloat<f64>>::new(p.kll_k as u16)?;
        for &x in &values {
            td.add(x);
            ds.update(x);
            kll.update(KllFloat::<f64>::new(x)?);
        }
        // a reservoir of as many f64 values as the digest's bytes hold (Algorithm R)
        let bytes = td.bytes();
        let s = (bytes / 8).max(1);
        let reservoir = reservoir_sample(&values, s, seeds);
        let mut sorted = values;
        sort_values(&mut sorted);
        let rank = |x: f64| mid_rank(&sorted, x);
        let ds_bytes = ds.serialize().len() as f64;
        let kll_bytes = kll.serialize().len() as f64;
        QS.iter()
            .map(|&q| {
                let err = |x: Option<f64>| x.map(|x| (rank(x) - q).abs()).unwrap_or(f64::NAN);
                let res_x = reservoir[((q * s as f64) as usize).min(s - 1)];
                let tail = q.min(1.0 - q);
                let (e_td, e_res) = (err(td.quantile(q)), err(Some(res_x)));
                Ok(R {
                    q,
                    rank_err_tdigest: e_td,
                    rank_err_reservoir: e_res,
                    tail_err_tdigest: e_td / tail,
                    tail_err_reservoir: e_res / tail,
                    rank_err_ds_tdigest: err(ds.quantile(q)?),
                    rank_err_ds_kll: err(kll.quantile(q, SearchCriteria::Inclusive)?.map(|v| *v)),
                    tdigest_bound: theory::half_centroid(scale, q, p.compression, p.n as f64),
                    reservoir_sd_theory: (q * (1.0 - q) / s as f64).sqrt(),
                    bytes_tdigest: bytes as f64,
                    reservoir_values: s as f64,
                    bytes_ds_tdigest: ds_bytes,
                    bytes_ds_kll: kll_bytes,
                })
            })
            .collect()
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // the stream kept for the exact ranks (and its sorted copy), beside the sketches
        let n = p.n as f64;
        Some(
            Footprint::one(p.compression * 20.0 + p.kll_k as f64 * 40.0, n * 4.0)
                .plus(2.0 * n * 8.0),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::sort_values;

    #[test]
    fn radix_sort_orders_as_total_cmp() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut v: Vec<f64> = (0..20_000)
            .map(|i| {
                x = crate::hashing::splitmix64(x);
                match i % 5 {
                    // any bits: subnormals, infinities and NaNs of both signs among them
                    0 => f64::from_bits(x),
                    1 => (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5,
                    2 => ((x % 7) as f64 - 3.0) * 1e12,
                    _ => -((x >> 40) as f64),
                }
            })
            .chain([
                0.0,
                -0.0,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::MIN_POSITIVE,
            ])
            .collect();
        let mut by_cmp = v.clone();
        by_cmp.sort_by(f64::total_cmp);
        sort_values(&mut v);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&v), bits(&by_cmp));
    }
}
