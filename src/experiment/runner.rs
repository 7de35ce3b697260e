//! Runs a study: trials in parallel on a rayon pool, rows in trial order,
//! then results.csv, manifest.json and the plots, each written atomically.

use super::grid::{self, Trial};
use super::spec::Spec;
use super::table::{Cell, Table};
use crate::export::{self, Manifest};
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
    pub table: Table,
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
    let trials = grid::expand(spec.grid(opts.quick), seed);
    let kind = spec.kind;
    let one = |t: &Trial| -> anyhow::Result<Vec<Cell>> {
        let metrics = kind
            .run(&t.params, t.seed)
            .with_context(|| format!("{}: trial {} ({:?})", spec.name, t.index, t.params.0))?;
        let mut row: Vec<Cell> = t.params.0.iter().map(|(_, v)| param_cell(v)).collect();
        row.push(Cell::Int(t.index as i64));
        row.push(Cell::Str(format!("{:016x}", t.seed)));
        row.extend(metrics.into_cells());
        progress.inc(1);
        Ok(row)
    };
    let rows: Vec<anyhow::Result<Vec<Cell>>> = if kind.serial() {
        trials.iter().map(one).collect()
    } else {
        pool.install(|| trials.par_iter().map(one).collect())
    };
    let rows = rows.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Table {
        columns: kind.columns().into_iter().map(String::from).collect(),
        rows,
    })
}

fn param_cell(v: &super::Value) -> Cell {
    match v {
        super::Value::Int(i) => Cell::Int(*i),
        super::Value::Float(x) => Cell::Float(*x),
        super::Value::Str(s) => Cell::Str(s.clone()),
        super::Value::Bool(b) => Cell::Str(b.to_string()),
    }
}

/// Runs a study and writes `OUT/<name>/{results.csv, manifest.json, *.svg, *.png}`.
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

    let dir = opts.out.join(&spec.name);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let csv = export::csv::to_bytes(&table)?;
    export::write_atomic(&dir.join("results.csv"), &csv)?;

    // Later stages read what this one wrote, never the structures.
    let table = export::csv::parse(&csv)?;
    let plots =
        crate::plot::render_all(&spec.kind.charts(&table), &spec.kind.heatmaps(&table), &dir)?;

    let manifest = Manifest::new(spec, opts, table.rows.len(), started, seconds, &plots);
    export::write_atomic(&dir.join("manifest.json"), &manifest.to_bytes()?)?;
    Ok(StudyOutput {
        dir,
        table,
        plots,
        trials: manifest.trials,
        seconds,
    })
}
