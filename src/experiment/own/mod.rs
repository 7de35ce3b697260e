//! Your own structure through sketchlab: a filter of any crate, wrapped in
//! [`Membership`], or a distinct-count sketch, wrapped in [`Cardinality`],
//! measured by the same pipeline as sketchlab's own (the trials,
//! results.csv with theory columns, summary.csv over replicates, the
//! manifest, the declared charts, the report section) with one call,
//! [`measure_filter`], [`measure_cardinality`] or, for a frequency sketch
//! wrapped in [`Frequency`], [`measure_frequency`].
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

pub(crate) mod kinds;

pub use kinds::{Build, BuildCounter, BuildSketch, OwnCardinality, OwnFilter, OwnFrequency};

use crate::error::{Error, Result};
use crate::experiment::kinds::Kind;
use crate::experiment::report_stage;
use crate::experiment::runner::{self, RunOptions};
use crate::experiment::spec::{Own, Spec};
use crate::experiment::view::{self, View};
use crate::structures::{Cardinality, Frequency, Membership};
use std::path::{Path, PathBuf};

/// What [`measure_filter`] leaves: the study's directory and its tables.
pub struct Measured {
    pub dir: PathBuf,
    pub study: report_stage::StudyFolder,
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
    run_own(kind, &view::own_filter::OwnFilterView, spec, out)
}

/// Runs and renders a study of an unregistered kind.
fn run_own(
    kind: &'static dyn Kind,
    view: &'static dyn View,
    spec: &str,
    out: &Path,
) -> Result<Measured> {
    let spec = Spec::parse_for(
        Path::new(&format!("{}.toml", kind.name())),
        spec,
        kind,
        view,
    )?;
    run_spec(&spec, Some((kind, view)), out, None)
}

/// Runs a parsed study at its full sizes into `out/<name>/` and renders it
/// (`own` for a kind that is not registered), on `threads` workers (all cores
/// by default), with no progress bar: the library's and `keys check`'s path.
pub fn run_spec(
    spec: &Spec,
    own: Option<Own>,
    out: &Path,
    threads: Option<usize>,
) -> Result<Measured> {
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
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
    let run = runner::run_study(spec, &opts, &pool, &indicatif::ProgressBar::hidden())?;
    let study = report_stage::render_study_for(&run.dir, own)?;
    Ok(Measured {
        dir: run.dir,
        study,
    })
}

/// Measures a user's distinct-count sketch: `spec` is a study TOML with
/// `kind = "own_cardinality"` (grid over `n`, `rse` — the error it claims —
/// and `keys`, with `replicates >= 2`); `build(seed)` makes a fresh sketch.
/// Writes `out/<name>/` (results.csv, summary.csv with each estimator's
/// bias and mean squared error, manifest.json, the declared charts).
pub fn measure_cardinality<C: Cardinality + Send + 'static>(
    build: impl Fn(u64) -> C + Send + Sync + 'static,
    spec: &str,
    out: &Path,
) -> Result<Measured> {
    let kind: &'static dyn Kind = Box::leak(Box::new(OwnCardinality {
        build: Box::new(move |seed| Box::new(build(seed))),
    }));
    run_own(kind, &view::own_cardinality::OwnCardinalityView, spec, out)
}

/// Measures a user's frequency sketch: `spec` is a study TOML with `kind =
/// "own_frequency"` (grid over `universe`, `updates`, `s`, `epsilon` and
/// `delta` — the guarantee it claims — and `keys`); `build(seed)` makes a
/// fresh sketch. Writes `out/<name>/` (results.csv with the share of keys
/// beyond ε·N beside δ, manifest.json, the declared charts).
pub fn measure_frequency<F: Frequency + Send + 'static>(
    build: impl Fn(u64) -> F + Send + Sync + 'static,
    spec: &str,
    out: &Path,
) -> Result<Measured> {
    let kind: &'static dyn Kind = Box::leak(Box::new(OwnFrequency {
        build: Box::new(move |seed| Box::new(build(seed))),
    }));
    run_own(kind, &view::own_frequency::OwnFrequencyView, spec, out)
}
