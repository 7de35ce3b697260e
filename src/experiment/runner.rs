//! Runs a study: trials in parallel on a rayon pool, rows in trial order,
//! then results.csv (and summary.csv when the study has replicates),
//! manifest.json and the plots, each written atomically.

use super::grid::{self, Trial};
use super::params::Seeds;
use super::spec::Spec;
use crate::export::{self, Manifest};
use crate::stats;
use crate::table::{Table, Tables, Value};
use anyhow::Context;
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub out: PathBuf,
    pub quick: bool,
    pub threads: usize,
    /// Overrides the spec's seed.
    pub seed: Option<u64>,
}

/// What a finished study left behind.
#[derive(Debug)]
pub struct StudyOutput {
    pub dir: PathBuf,
    pub tables: Tables,
    pub plots: Vec<PathBuf>,
    pub trials: usize,
    pub seconds: f64,
}

/// The rows of a study, in trial order (no files written).
pub fn run_trials(
    spec: &Spec,
    opts: &RunOptions,
    pool: &rayon::ThreadPool,
    progress: &ProgressBar,
) -> anyhow::Result<Table> {
    let seed = opts.seed.unwrap_or(spec.seed);
    let kind = spec.kind;
    let trials = grid::expand(
        kind.name(),
        spec.grid(opts.quick),
        spec.replicates(opts.quick),
        seed,
    );
    let one = |t: &Trial| -> anyhow::Result<Vec<Vec<Value>>> {
        let metrics = kind.run(&t.params, Seeds(t.seed)).with_context(|| {
            format!(
                "{}: trial {:016x} ({:?}, replicate {})",
                spec.name, t.id, t.params.0, t.replicate
            )
        })?;
        let rows = metrics
            .into_iter()
            .map(|m| {
                let mut row: Vec<Value> = t.params.0.iter().map(|(_, v)| v.clone()).collect();
                row.push(Value::Int(t.replicate as i64));
                row.push(Value::Str(format!("{:016x}", t.id)));
                row.push(Value::Str(format!("{:016x}", t.seed)));
                row.extend(m);
                row
            })
            .collect();
        progress.inc(1);
        Ok(rows)
    };
    let rows: Vec<anyhow::Result<Vec<Vec<Value>>>> = if kind.timing() {
        trials.iter().map(one).collect()
    } else {
        pool.install(|| trials.par_iter().map(one).collect())
    };
    let rows: Vec<Vec<Value>> = rows
        .into_iter()
        .collect::<anyhow::Result<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect();
    let columns = kind.columns();
    if let Some(r) = rows.iter().find(|r| r.len() != columns.len()) {
        anyhow::bail!(
            "bug: kind {} produced a row of {} cells for {} columns",
            kind.name(),
            r.len(),
            columns.len()
        );
    }
    Ok(Table { columns, rows })
}

/// Runs a study and writes `OUT/<name>/{results.csv, summary.csv, manifest.json, *.svg, *.png}`.
pub fn run_study(
    spec: &Spec,
    opts: &RunOptions,
    pool: &rayon::ThreadPool,
    progress: &ProgressBar,
) -> anyhow::Result<StudyOutput> {
    let started = std::time::SystemTime::now();
    let clock = Instant::now();
    progress.set_message(spec.name.clone());
    let table = run_trials(spec, opts, pool, progress)?;
    let seconds = clock.elapsed().as_secs_f64();
    let kind = spec.kind;

    let dir = opts.out.join(&spec.name);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let csv = export::csv::to_bytes(&table)?;
    export::write_atomic(&dir.join("results.csv"), &csv)?;
    // Later stages read what this one wrote, never the structures.
    let results = export::csv::parse(&csv, &kind.columns())?;
    let mut files = vec!["results.csv".to_string()];
    let summary = if spec.replicates(opts.quick) > 1 {
        let s = super::summary::summarise(
            &results,
            &kind.param_columns(),
            &kind.fields(),
            stats::PLOT_CONFIDENCE,
        )?;
        let bytes = export::csv::to_bytes(&s)?;
        export::write_atomic(&dir.join("summary.csv"), &bytes)?;
        files.push("summary.csv".into());
        Some(export::csv::parse(&bytes, &kind.summary_columns())?)
    } else {
        // a stale summary from an earlier run with replicates must not stay beside new rows
        let stale = dir.join("summary.csv");
        if stale.exists() {
            std::fs::remove_file(&stale)
                .with_context(|| format!("removing stale {}", stale.display()))?;
        }
        None
    };
    let tables = Tables { results, summary };
    let plots = crate::plot::render_all(&kind.charts(&tables), &kind.heatmaps(&tables), &dir)?;
    files.push("manifest.json".into());
    files.extend(
        plots
            .iter()
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned()),
    );

    let manifest = Manifest {
        study: spec.name.clone(),
        kind: kind.name().to_string(),
        spec_path: spec.path.display().to_string(),
        spec_xxh3_64: spec.source_hash.clone(),
        seed: opts.seed.unwrap_or(spec.seed),
        seed_overridden: opts.seed.is_some(),
        quick: opts.quick,
        threads: opts.threads,
        trials: spec.trials(opts.quick),
        rows: tables.results.rows.len(),
        replicates: spec.replicates(opts.quick),
        crate_version: env!("CARGO_PKG_VERSION"),
        git_revision: export::git_revision(),
        reproducible: kind.reproducible(),
        process_random_key: crate::hashing::process_random_seed_if_used()
            .map(|s| format!("{:016x}{:016x}", s.hi, s.lo)),
        started_utc: export::utc(started),
        finished_utc: export::utc(std::time::SystemTime::now()),
        seconds,
        files,
        command: std::env::args().collect(),
    };
    export::write_atomic(&dir.join("manifest.json"), &manifest.to_bytes()?)?;
    Ok(StudyOutput {
        dir,
        trials: manifest.trials,
        tables,
        plots,
        seconds,
    })
}
