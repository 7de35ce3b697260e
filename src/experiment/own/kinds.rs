//! The kinds behind [`super::measure_filter`], [`super::measure_cardinality`]
//! and [`super::measure_frequency`]: a user's structure measured like
//! sketchlab's own (their views are in `crate::experiment::view`).

use crate::experiment::kinds::common::{self, KEYS, QUERIES};
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, Seeds};
use crate::stats::Proportion;
use crate::structures::bloom::theory as bloom;
use crate::structures::{Cardinality, Frequency, Membership};
use crate::table::Interval;
use crate::workload::{KeyGen, KeyType};

/// Builds the user's filter for `(n, fpr, seed)`; `seed` derives from the
/// trial's, for a filter that takes one (ignore it otherwise).
pub type Build = dyn Fn(u64, f64, u64) -> Box<dyn Membership + Send> + Send + Sync;

/// The `own_filter` kind: a user's filter, sized by its own builder for
/// (n, ε), filled with `n` keys and queried with `queries` absent ones.
pub struct OwnFilter {
    pub(super) build: Box<Build>,
}

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Int(100_000), "keys inserted"),
        fpr: f64 [fraction] = common::rate(Def::Required, "the false-positive rate ε the builder is asked for"),
        keys: KeyType = KEYS,
        queries: u64 [count] = QUERIES,
    }
}

crate::row! {
    pub struct R, summary Rs {
        /// What the filter reports it holds (`Membership::bytes`).
        bytes: usize [Same, bytes],
        bits_per_key: f64 [Same, bits_per_key],
        fpr_measured: Proportion [fraction],
        /// The ε it was built for: what a correctly sized filter should give.
        fpr_target: f64 [Same, fraction],
        members_checked: u64 [Sum, count],
        false_negatives: u64 [Max, count],
        /// log2(1/ε) at the measured ε: the fewest bits per key any filter
        /// with this FPR needs (Carter et al. 1978).
        limit_bits: Option<Interval> [bits_per_key],
        /// Bits per key over that limit, in percent.
        waste_pct: Option<Interval> [percent],
        /// Bits per key / a space-optimal Bloom filter's 1.44·log2(1/ε).
        bloom_ratio: Option<Interval> [ratio],
    }
}

impl Measure for OwnFilter {
    type P = P;
    type R = R;
    const NAME: &'static str = "own_filter";
    const ABOUT: &'static str = "your own filter (through the library): sized by its builder for (n, ε), measured FPR, bits per key and the waste over log2(1/ε)";
    /// sketchlab cannot know whether a user's structure draws randomness of
    /// its own (a crate's `RandomState`): its rows are not promised byte-identical.
    const REPRODUCIBLE: bool = false;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let mut f = (self.build)(p.n, p.fpr, seeds.derive("structure"));
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        for id in 0..p.n {
            f.insert(keys.key(id))
                .map_err(|e| anyhow::anyhow!("insert of key {id} failed: {e}"))?;
        }
        let (false_negatives, members_checked) = common::missing_members(&*f, &mut keys, p.n);
        let positives = common::count_positives(&*f, &mut keys, p.n..p.n + p.queries);
        let fpr = Proportion::new(positives, p.queries);
        let bits = 8.0 * f.bytes() as f64 / p.n as f64;
        let limit = |e: f64| (1.0 / e).log2();
        use crate::experiment::kinds::filters::filter_frontier::{of_rate, waste};
        Ok(R {
            bytes: f.bytes(),
            bits_per_key: bits,
            fpr_measured: fpr,
            fpr_target: p.fpr,
            members_checked,
            false_negatives,
            limit_bits: of_rate(fpr, limit),
            waste_pct: of_rate(fpr, |e| waste(bits, e)),
            bloom_ratio: of_rate(fpr, |e| bits / bloom::bits_per_element(e)),
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n + p.queries)
    }

    fn draws(&self, p: &P, metric: &str) -> Option<f64> {
        (metric == "fpr_measured").then_some(p.queries as f64)
    }

    fn footprint(&self, _p: &P) -> Option<Footprint> {
        None // the user's structure: its size is known once built
    }
}

/// Builds the user's sketch from a seed derived from the trial's.
pub type BuildSketch = dyn Fn(u64) -> Box<dyn Cardinality + Send> + Send + Sync;

/// The `own_cardinality` kind: a user's distinct-count sketch fed `n`
/// distinct keys; one row per estimator it offers, its relative error.
pub struct OwnCardinality {
    pub(super) build: Box<BuildSketch>,
}

pub mod cardinality {
    //! `own_cardinality`'s parameters and row.
    use super::*;

    crate::params! {
        pub struct P {
            n: u64 [count] = common::count(Def::Int(100_000), "distinct keys inserted"),
            rse: f64 [relative_error] = common::rate(Def::Required, "the relative standard error the sketch claims (e.g. 1.04/sqrt(m) for HyperLogLog)"),
            keys: KeyType = KEYS,
        }
    }

    crate::row! {
        pub struct R, summary Rs {
            estimator: String [Key],
            estimate: f64 [count],
            /// estimate / n − 1: its mean over replicates is the bias.
            rel_error: f64 [relative_error],
            /// (estimate / n − 1)²: its mean is the MSE, √ of it the RSE.
            sq_rel_error: f64 [squared_relative_error],
            /// The RSE the sketch claims.
            rse_target: f64 [Same, relative_error],
        }
    }
}

impl Measure for OwnCardinality {
    type P = cardinality::P;
    type R = cardinality::R;
    const NAME: &'static str = "own_cardinality";
    const ABOUT: &'static str = "your own distinct-count sketch (through the library): relative error per estimator over replicates against the RSE it claims";
    const MIN_REPLICATES: u32 = 2;
    /// sketchlab cannot know whether a user's structure draws randomness of
    /// its own (a crate's `RandomState`): its rows are not promised byte-identical.
    const REPRODUCIBLE: bool = false;

    fn run_rows(&self, p: &Self::P, seeds: Seeds) -> anyhow::Result<Vec<Self::R>> {
        let mut s = (self.build)(seeds.derive("structure"));
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        for id in 0..p.n {
            s.insert(keys.key(id));
        }
        s.estimators()
            .iter()
            .map(|e| {
                let est = s.estimate(e).ok_or_else(|| {
                    anyhow::anyhow!("the sketch lists estimator {e:?} but gives no estimate")
                })?;
                let err = est / p.n as f64 - 1.0;
                Ok(cardinality::R {
                    estimator: e.to_string(),
                    estimate: est,
                    rel_error: err,
                    sq_rel_error: err * err,
                    rse_target: p.rse,
                })
            })
            .collect()
    }

    fn key_ids(&self, p: &Self::P) -> Option<u64> {
        Some(p.n)
    }
}

/// Builds the user's frequency sketch from a seed derived from the trial's.
pub type BuildCounter = dyn Fn(u64) -> Box<dyn Frequency + Send> + Send + Sync;

/// The `own_frequency` kind: a user's frequency sketch fed a Zipf stream,
/// every key of the universe queried against its exact count.
pub struct OwnFrequency {
    pub(super) build: Box<BuildCounter>,
}

pub mod frequency {
    //! `own_frequency`'s parameters and row.
    use super::*;

    crate::params! {
        pub struct P {
            universe: u64 [count] = common::count(Def::Int(100_000), "distinct keys the stream draws from"),
            updates: u64 [count] = common::count(Def::Int(1_000_000), "stream length N (each update adds 1)"),
            s: f64 [number] = common::positive(10.0, Def::Float(1.1), "Zipf exponent of the stream"),
            epsilon: f64 [fraction] = common::rate(Def::Required, "the additive error the sketch claims: |estimate - count| <= epsilon * N"),
            delta: f64 [fraction] = common::rate(Def::Required, "the probability it claims a key exceeds that"),
            keys: KeyType = KEYS,
        }
    }

    crate::row! {
        pub struct R, summary Rs {
            /// Updates the sketch reports (`Frequency::total`).
            total: u64 [Same, count],
            /// Keys of the universe whose |estimate − count| > ε·N.
            exceed: Proportion [fraction],
            /// The δ the sketch claims for that share.
            delta: f64 [Same, fraction],
            /// Mean |estimate − count| / N over the universe.
            mean_abs_error_over_n: f64 [fraction],
            /// The largest |estimate − count|, in units of ε·N.
            max_error_over_eps_n: f64 [ratio],
            /// Keys estimated below their count.
            underestimates: u64 [Sum, count],
        }
    }
}

impl Measure for OwnFrequency {
    type P = frequency::P;
    type R = frequency::R;
    const NAME: &'static str = "own_frequency";
    const ABOUT: &'static str = "your own frequency sketch (through the library): the share of keys beyond epsilon*N against the delta it claims, on a Zipf stream";
    /// sketchlab cannot know whether a user's structure draws randomness of
    /// its own (a crate's `RandomState`): its rows are not promised byte-identical.
    const REPRODUCIBLE: bool = false;

    fn run(&self, p: &Self::P, seeds: Seeds) -> anyhow::Result<Self::R> {
        let mut f = (self.build)(seeds.derive("structure"));
        let mut stream =
            crate::workload::zipf::ZipfStream::new(p.universe, p.s, seeds.derive("stream"))
                .map_err(anyhow::Error::msg)?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let mut truth = vec![0u64; p.universe as usize];
        for _ in 0..p.updates {
            let id = stream.next_id();
            truth[id as usize] += 1;
            f.update(keys.key(id), 1);
        }
        let n = p.updates as f64;
        let eps_n = p.epsilon * n;
        let (mut exceed, mut under, mut sum_abs, mut max_abs) = (0u64, 0u64, 0f64, 0f64);
        for (id, &t) in truth.iter().enumerate() {
            let est = f.estimate(keys.key(id as u64));
            let err = est as f64 - t as f64;
            exceed += (err.abs() > eps_n) as u64;
            under += (est < t) as u64;
            sum_abs += err.abs();
            max_abs = max_abs.max(err.abs());
        }
        Ok(frequency::R {
            total: f.total(),
            exceed: Proportion::new(exceed, p.universe),
            delta: p.delta,
            mean_abs_error_over_n: sum_abs / p.universe as f64 / n,
            max_error_over_eps_n: max_abs / eps_n,
            underestimates: under,
        })
    }

    fn key_ids(&self, p: &Self::P) -> Option<u64> {
        Some(p.universe)
    }

    fn draws(&self, p: &Self::P, metric: &str) -> Option<f64> {
        (metric == "exceed").then_some(p.universe as f64)
    }
}
