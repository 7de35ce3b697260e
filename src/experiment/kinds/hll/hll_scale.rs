//! `hll_scale`: HyperLogLog at cardinalities no stream reaches, 10^6 … 2^64,
//! from registers drawn exactly in distribution for d distinct uniform
//! 64-bit hash words ([`simulate`]), with d = E[distinct words] for n distinct
//! keys: how far "any cardinality up to about 2^64" and "up to billions" hold,
//! separating the estimator's own error from the 64-bit hash's collisions.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common;
use crate::experiment::kinds::footprint::hll_bytes;
use crate::experiment::params::{Def, Seeds};
use crate::structures::hyperloglog::{estimators, hllpp, simulate, theory};

pub struct HllScale;

crate::params! {
    pub struct P {
        p: u32 [bits] = common::int(4, 18, Def::Int(14), "precision: 2^p registers"),
        min_exp: u32 [number] = common::int(0, 19, Def::Int(6), "the smallest n is 10^min_exp"),
    }
}

crate::row! {
    pub struct R, summary Rs {
        /// Distinct keys (10^k for k ≥ min_exp, then 2^60, 2^62, 2^63, 2^64).
        n: f64 [Key, count],
        /// E[distinct 64-bit hash words] for n keys.
        distinct_words: f64 [Same, count],
        /// distinct_words/n − 1: what a perfect counter of hash words would be off by.
        collision_loss_theory: f64 [Same, fraction],
        se_theory: f64 [Same, relative_error],
        /// (estimate − n)/n.
        err_ertl: f64 [relative_error],
        err_hllpp: f64 [relative_error],
        err_raw: f64 [relative_error],
        /// (estimate − distinct_words)/distinct_words: the estimator alone.
        err_ertl_vs_words: f64 [relative_error],
        /// Registers at the largest rank 65 − p (saturated).
        saturated_registers: f64 [count],
    }
}

/// The cardinalities of one trial.
pub fn cardinalities(min_exp: u32) -> Vec<f64> {
    let mut v: Vec<f64> = (min_exp..=19).map(|k| 10f64.powi(k as i32)).collect();
    v.extend([60, 62, 63, 64].map(|k| 2f64.powi(k)));
    v.sort_by(f64::total_cmp);
    v
}

impl Measure for HllScale {
    type P = P;
    type R = R;
    const NAME: &'static str = "hll_scale";
    const ABOUT: &'static str = "HyperLogLog error from 10^6 to 2^64 distinct keys (registers drawn exactly in distribution), estimator vs 64-bit hash collisions";
    const MIN_REPLICATES: u32 = 2;

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let mut rng = seeds.rng("registers");
        let m = 1usize << p.p;
        Ok(cardinalities(p.min_exp)
            .into_iter()
            .map(|n| {
                let d = simulate::expected_distinct_words(n);
                let hist = simulate::histogram_after(p.p, d.round() as u64, &mut rng);
                let q = 64 - p.p as usize;
                let ertl = estimators::ertl(&hist, m, q);
                R {
                    n,
                    distinct_words: d,
                    collision_loss_theory: d / n - 1.0,
                    se_theory: theory::standard_error(m),
                    err_ertl: ertl / n - 1.0,
                    err_hllpp: hllpp::estimate(&hist, p.p, hllpp::BiasTable::builtin()) / n - 1.0,
                    err_raw: estimators::raw(&hist, m) / n - 1.0,
                    err_ertl_vs_words: ertl / d - 1.0,
                    saturated_registers: hist[q + 1] as f64,
                }
            })
            .collect())
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let decades = 20u32.saturating_sub(p.min_exp).max(1) as f64;
        Some(Footprint::one(
            hll_bytes(p.p),
            decades * (1u64 << p.p) as f64,
        ))
    }
}
