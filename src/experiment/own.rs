//! Your own structure through sketchlab: a filter of any crate, wrapped in
//! [`Membership`], measured by the same pipeline as sketchlab's own (the
//! trials, results.csv with theory columns, the manifest, the declared
//! charts, the report section) with one call, [`measure_filter`].
//!
//! ```no_run
//! use sketchlab::structures::{InsertError, Membership};
//! use sketchlab::stats::Proportion;
//!
//! /// A HashSet: no false positives, 8 bytes a key and then some.
//! struct Exact(std::collections::HashSet<Vec<u8>>);
//! impl Membership for Exact {
//!     fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
//!         self.0.insert(key.to_vec());
//!         Ok(())
//!     }
//!     fn contains(&self, key: &[u8]) -> bool { self.0.contains(key) }
//!     fn fill_ratio(&self) -> f64 { 1.0 }
//!     fn fill(&self) -> Proportion { Proportion::new(1, 1) }
//!     fn bytes(&self) -> usize { self.0.capacity() * 32 }
//! }
//!
//! let spec = r#"
//! name = "exact"
//! kind = "own_filter"
//! description = "a HashSet"
//! seed = 1
//! [grid]
//! n = [10_000, 100_000]
//! fpr = 0.01
//! "#;
//! let study = sketchlab::experiment::own::measure_filter(
//!     |n, _fpr, _seed| Exact(std::collections::HashSet::with_capacity(n as usize)),
//!     spec,
//!     std::path::Path::new("/tmp/own"),
//! )?;
//! println!("{}", study.dir.display()); // /tmp/own/exact: results.csv, manifest.json, charts
//! # Ok::<(), sketchlab::error::Error>(())
//! ```

use super::disk;
use super::kinds::common::{self, KEYS, QUERIES};
use super::kinds::{Footprint, Kind, Study};
use super::params::{Def, Seeds};
use super::runner::{self, RunOptions};
use super::spec::Spec;
use crate::error::{Error, Result};
use crate::stats::Proportion;
use crate::structures::Membership;
use crate::structures::bloom::theory as bloom;
use crate::table::Interval;
use crate::workload::{KeyGen, KeyType};
use std::path::{Path, PathBuf};

/// Builds the user's filter for `(n, fpr, seed)`; `seed` derives from the
/// trial's, for a filter that takes one (ignore it otherwise).
pub type Build = dyn Fn(u64, f64, u64) -> Box<dyn Membership + Send> + Send + Sync;

/// The `own_filter` kind: a user's filter, sized by its own builder for
/// (n, ε), filled with `n` keys and queried with `queries` absent ones.
pub struct OwnFilter {
    build: Box<Build>,
}

crate::params! {
    pub struct P {
        n: u64 = common::count(Def::Int(100_000), "keys inserted"),
        fpr: f64 = common::rate(Def::Required, "the false-positive rate ε the builder is asked for"),
        keys: KeyType = KEYS,
        queries: u64 = QUERIES,
    }
}

crate::row! {
    pub struct R, summary Rs {
        /// What the filter reports it holds (`Membership::bytes`).
        bytes: usize [Same],
        bits_per_key: f64 [Same],
        fpr_measured: Proportion,
        /// The ε it was built for: what a correctly sized filter should give.
        fpr_target: f64 [Same],
        members_checked: u64 [Sum],
        false_negatives: u64 [Max],
        /// log2(1/ε) at the measured ε: the fewest bits per key any filter
        /// with this FPR needs (Carter et al. 1978).
        limit_bits: Option<Interval>,
        /// Bits per key over that limit, in percent.
        waste_pct: Option<Interval>,
        /// Bits per key / a space-optimal Bloom filter's 1.44·log2(1/ε).
        bloom_ratio: Option<Interval>,
    }
}

/// `f` of a measured rate with its interval (a decreasing `f` swaps the ends).
fn of_rate(p: Proportion, f: impl Fn(f64) -> f64) -> Option<Interval> {
    (p.successes > 0).then(|| {
        let (a, b) = (f(p.lo), f(p.hi));
        Interval::new(f(p.rate), a.min(b), a.max(b))
    })
}

impl Study for OwnFilter {
    type P = P;
    type R = R;
    const NAME: &'static str = "own_filter";
    const ABOUT: &'static str = "your own filter (through the library): sized by its builder for (n, ε), measured FPR, bits per key and the waste over log2(1/ε)";

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
        Ok(R {
            bytes: f.bytes(),
            bits_per_key: bits,
            fpr_measured: fpr,
            fpr_target: p.fpr,
            members_checked,
            false_negatives,
            limit_bits: of_rate(fpr, limit),
            waste_pct: of_rate(fpr, |e| 100.0 * (bits / limit(e) - 1.0)),
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

/// What [`measure_filter`] leaves: the study's directory and its tables.
pub struct Measured {
    pub dir: PathBuf,
    pub study: disk::Study,
}

/// Measures a user's filter: `spec` is a study TOML with `kind =
/// "own_filter"` (grid over `n`, `fpr`, `keys` — a key type or a key file —
/// and `queries`, quick sizes, claims and `[[chart]]`s as for any study);
/// `build(n, fpr, seed)` makes the filter. Writes `out/<name>/` (results.csv
/// with `fpr_target` beside `fpr_measured`, summary.csv with replicates,
/// manifest.json and the declared charts) and returns the tables.
pub fn measure_filter<F: Membership + Send + 'static>(
    build: impl Fn(u64, f64, u64) -> F + Send + Sync + 'static,
    spec: &str,
    out: &Path,
) -> Result<Measured> {
    let kind: &'static dyn Kind = Box::leak(Box::new(OwnFilter {
        build: Box::new(move |n, fpr, seed| Box::new(build(n, fpr, seed))),
    }));
    let spec = Spec::parse_for(Path::new("own_filter.toml"), spec, kind)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opts = RunOptions {
        out: out.to_path_buf(),
        quick: false,
        threads,
        seed: None,
        resume: false,
        shard: None,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Other(e.into()))?;
    let run = runner::run_study(&spec, &opts, &pool, &indicatif::ProgressBar::hidden())?;
    let study = disk::render_study_for(&run.dir, Some(kind))?;
    Ok(Measured {
        dir: run.dir,
        study,
    })
}
