//! `hll_intersection`: |A ∩ B| by inclusion–exclusion, |Â| + |B̂| − |Â∪B|,
//! from HyperLogLog sketches (Ertl's estimator; the union is the register-wise
//! maximum), against the truth as |A|/|B| grows from 1 to 10^4 at a fixed
//! share of B inside A. One pass per trial: B is sketched once, A grows
//! along one stream and is read at each size ratio.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::kinds::footprint::hll_bytes;
use crate::experiment::params::{Def, HashSeed, ParamDef, Seeds};
use crate::hashing::StrategyId;
use crate::structures::hyperloglog::{HyperLogLog, theory};
use crate::workload::{KeyGen, KeyType};

pub struct HllIntersection;

crate::params! {
    pub struct P {
        p: u32 [bits] = common::int(4, 18, Def::Int(14), "precision of both sketches"),
        small: u64 [count] = common::count(Def::Int(1000), "|B|, the smaller set"),
        max_ratio: u64 [ratio] = common::int(1, 1_000_000, Def::Int(10_000), "the largest |A|/|B|"),
        per_decade: u32 [count] = common::int(1, 100, Def::Int(5), "log-spaced ratios per decade"),
        overlap: f64 [fraction] = ParamDef::new("", crate::experiment::kinds::bloom::bloom_overfill::FRACTION, Def::Float(1.0), "share of B that is also in A (|A∩B| = overlap·|B|)"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R, summary Rs {
        /// |A|/|B| at this checkpoint.
        ratio: u64 [Key, ratio],
        a_size: u64 [Same, count],
        intersection: u64 [Same, count],
        /// (estimate − |A∩B|)/|A∩B|.
        err_intersection: f64 [Pitchfork, relative_error],
        err_a: f64 [relative_error],
        err_union: f64 [relative_error],
        /// 1.04/√m·√(|A|² + |B|² + |A∪B|²)/|A∩B|: the relative sd if the
        /// three estimates' errors were independent.
        sd_independent_theory: f64 [Same, relative_error],
        /// 1 when the estimate is off by more than the intersection itself
        /// (the summary's mean is the share of such sketches).
        garbage: f64 [flag],
    }
}

impl Measure for HllIntersection {
    type P = P;
    type R = R;
    const NAME: &'static str = "hll_intersection";
    const ABOUT: &'static str = "|A∩B| by inclusion-exclusion from HyperLogLogs vs the truth as |A|/|B| goes from 1 to 10^4";
    const MIN_REPLICATES: u32 = 5;

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if (p.overlap * p.small as f64).round() < 1.0 {
            return Err(crate::error::Error::invalid(
                "overlap",
                "overlap·small must be at least 1",
            ));
        }
        Ok(())
    }

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let mut a = HyperLogLog::new(p.p, hasher.clone())?;
        let mut b = HyperLogLog::new(p.p, hasher)?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        // B = ids 0..small; A = the first `common` of them, then ids from `small` on
        for id in 0..p.small {
            b.insert(keys.key(id));
        }
        let common = (p.overlap * p.small as f64).round() as u64;
        for id in 0..common {
            a.insert(keys.key(id));
        }
        let (mut a_size, mut next) = (common, p.small);
        let mut rows = Vec::new();
        let se = theory::standard_error(a.m());
        for ratio in super::hll_range::checkpoints(p.max_ratio, p.per_decade) {
            let want = ratio * p.small;
            while a_size < want {
                a.insert(keys.key(next));
                next += 1;
                a_size += 1;
            }
            let mut u = a.clone();
            u.merge(&b)?;
            let union_size = a_size + p.small - common;
            let (ea, eb, eu) = (a.ertl(), b.ertl(), u.ertl());
            let est = ea + eb - eu;
            let truth = common as f64;
            let err = est / truth - 1.0;
            let sizes = [a_size, p.small, union_size].map(|x| (x as f64).powi(2));
            rows.push(R {
                ratio,
                a_size,
                intersection: common,
                err_intersection: err,
                err_a: ea / a_size as f64 - 1.0,
                err_union: eu / union_size as f64 - 1.0,
                sd_independent_theory: se * sizes.iter().sum::<f64>().sqrt() / truth,
                garbage: if err.abs() > 1.0 { 1.0 } else { 0.0 },
            });
        }
        Ok(rows)
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        // B is ids 0..small; A adds fresh ids up to max_ratio·small of its own
        Some(p.small.saturating_mul(p.max_ratio.saturating_add(1)))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        Some(Footprint::one(
            2.0 * hll_bytes(p.p),
            p.small as f64 * (1.0 + p.max_ratio as f64),
        ))
    }
}
