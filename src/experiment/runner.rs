//! Runs a study: trials in parallel on a rayon pool, each finished trial
//! journaled as it ends (so `--resume` skips it after a kill), rows in trial
//! order, then results.csv, spec.toml and manifest.json, each written
//! atomically; or, for `--shard i/N`, only that shard's trials into a shard
//! file that `merge` assembles. Summaries and plots are drawn afterwards from
//! the files alone ([`super::report_stage`]).

use super::grid::{self, Trial};
use super::journal::{self, Header, Record};
use super::kinds::Kind;
use super::params::Seeds;
pub use super::records::to_table;
use super::shard::{self, Shard};
use super::spec::Spec;
use crate::error::{Error, Result};
use crate::export::{self, Manifest};
use crate::table::{Table, Value};
use anyhow::Context;
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub out: PathBuf,
    pub quick: bool,
    pub threads: usize,
    /// Overrides the spec's seed.
    pub seed: Option<u64>,
    /// Continue from the journal (or keep a complete result) instead of starting over.
    pub resume: bool,
    pub shard: Option<Shard>,
}

/// What a run of one study left on disk.
#[derive(Debug)]
pub struct StudyRun {
    pub dir: PathBuf,
    /// Trials of this run (this shard's, when sharded).
    pub trials: usize,
    /// Of those, how many came from the journal.
    pub resumed: usize,
    pub seconds: f64,
    /// Where the rows are: results.csv, or the shard file.
    pub rows_file: PathBuf,
    /// `--resume` found the study already complete and ran nothing.
    pub reused: bool,
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks running studies to stop after their running trials (Ctrl-C).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The journal's header for this spec and these options.
pub fn header(spec: &Spec, opts: &RunOptions) -> Header {
    Header {
        study: spec.name.clone(),
        spec_path: spec.path.display().to_string(),
        kind: spec.kind.name().to_string(),
        spec_xxh3_64: spec.source_hash.clone(),
        seed: opts.seed.unwrap_or(spec.seed),
        quick: opts.quick,
        trials: spec.trials(opts.quick),
        shard: opts.shard.map(Shard::pair),
        key_files: spec.key_files.iter().map(|f| f.identity()).collect(),
        build: journal::this_build(),
    }
}

/// The manifest's record of a key file.
fn key_file_info(f: &crate::workload::file::KeyFile) -> export::KeyFileInfo {
    export::KeyFileInfo {
        path: f.path.clone(),
        format: f.format.name().to_string(),
        gzipped: f.gzipped,
        bytes: f.bytes,
        xxh3_64: format!("{:016x}", f.xxh3_64),
        records: f.records,
        duplicates_dropped: f.duplicates,
        distinct_keys: f.len(),
        split: crate::workload::file::SPLIT.to_string(),
    }
}

/// The study's trials, in row order.
pub fn trials(spec: &Spec, opts: &RunOptions) -> Vec<Trial> {
    grid::expand(
        spec.kind.name(),
        spec.grid(opts.quick),
        spec.except(opts.quick),
        spec.max_replicates(opts.quick),
        opts.seed.unwrap_or(spec.seed),
    )
}

/// Which trials each shard runs (every shard computes the same list).
pub fn shard_of(spec: &Spec, trials: &[Trial], count: u32) -> Vec<u32> {
    let mut placed = balanced_shards(spec, trials, count);
    // trials with hash_seed = "random" use their process's OS key: they share
    // one shard (one process, one key), so merge can record the key they used
    if let Some(first) = trials.iter().position(|t| uses_random_key_here(&t.params)) {
        let s = placed[first];
        for (t, p) in trials.iter().zip(placed.iter_mut()) {
            if uses_random_key_here(&t.params) {
                *p = s;
            }
        }
    }
    placed
}

/// Shards by cost (or identity), a sequential setting's replicates together.
fn balanced_shards(spec: &Spec, trials: &[Trial], count: u32) -> Vec<u32> {
    let start = (xxhash_rust::xxh3::xxh3_64(spec.name.as_bytes()) % count as u64) as u32;
    let cost = |t: &Trial| spec.kind.footprint(&t.params).map(|f| f.work);
    if spec.sequential.is_none() {
        let costs: Option<Vec<f64>> = trials.iter().map(cost).collect();
        return shard::assign(trials, costs.as_deref(), count, start);
    }
    // sequential: a setting's replicates stay together (its rule reads them
    // all), placed by its first trial at the cost of the whole budget
    let firsts: Vec<Trial> = trials
        .iter()
        .filter(|t| t.replicate == 0)
        .cloned()
        .collect();
    let per = (trials.len() / firsts.len().max(1)) as f64;
    let costs: Option<Vec<f64>> = firsts.iter().map(|t| cost(t).map(|c| c * per)).collect();
    let placed = shard::assign(&firsts, costs.as_deref(), count, start);
    let per = per as usize;
    trials.iter().map(|t| placed[t.index / per]).collect()
}

/// The command to resume this run: the same arguments plus `--resume`.
fn resume_command() -> String {
    let mut args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--resume") {
        args.push("--resume".into());
    }
    args.join(" ")
}

fn hex_key(s: crate::hashing::Seed) -> String {
    format!("{:016x}{:016x}", s.hi, s.lo)
}

/// Records already in a journal, checked against this run.
fn resumed_records(
    path: &Path,
    want: &Header,
    trials: &[Trial],
    mine: &[bool],
) -> Result<(journal::Contents, HashMap<usize, Record>)> {
    let contents = journal::read(path).map_err(|e| Error::Input(format!("{e:#}")))?;
    let diff = contents.header.differences(want);
    if !diff.is_empty() {
        return Err(Error::Input(format!(
            "{}: the journal was written by a different run (journal vs this run: {}); run without --resume to start over",
            path.display(),
            diff.join(", ")
        )));
    }
    let mut done = HashMap::new();
    for r in &contents.records {
        let ok = trials
            .get(r.index)
            .is_some_and(|t| t.id == r.id && mine[r.index]);
        if !ok || done.insert(r.index, r.clone()).is_some() {
            return Err(Error::Input(format!(
                "{}: record for trial {} ({:016x}) does not belong to this run or is repeated; run without --resume to start over",
                path.display(),
                r.index,
                r.id
            )));
        }
    }
    if let Some(key) = contents.records.iter().find_map(|r| r.key.as_deref()) {
        let seed = crate::hashing::Seed {
            hi: u64::from_str_radix(&key[..16], 16).unwrap_or(0),
            lo: u64::from_str_radix(&key[16..], 16).unwrap_or(0),
        };
        if let Err(drawn) = crate::hashing::adopt_process_random_seed(seed) {
            return Err(Error::Input(format!(
                "{}: its trials used the random hash key {key}, but this process already drew {}; resume this study on its own (sketchlab run {} --resume)",
                path.display(),
                hex_key(drawn),
                want.study
            )));
        }
    }
    Ok((contents, done))
}

/// A complete, matching result from an earlier run (`--resume` keeps it):
/// the same spec, seed, size and trials, and a results.csv whose header is
/// the kind's columns today (a kind that gained a column reruns the study
/// rather than leave rows the report cannot read).
/// A key file changed since that run is refused: its rows are not the rows
/// this file would give, and rerunning silently would hide the change.
fn already_complete(dir: &Path, want: &Header, kind: &dyn Kind) -> Result<bool> {
    let Ok(bytes) = crate::input::read(&dir.join("manifest.json"), crate::input::SMALL) else {
        return Ok(false);
    };
    let Ok(m) = Manifest::from_bytes(&bytes) else {
        return Ok(false);
    };
    let files: Vec<String> = m
        .key_files
        .iter()
        .map(|f| {
            let format = crate::workload::file::Format::from_name(&f.format)
                .unwrap_or(crate::workload::file::Format::Lines);
            let name = crate::workload::file::canonical(&f.path, format);
            format!("{name} xxh3={}", f.xxh3_64)
        })
        .collect();
    if m.spec_xxh3_64 == want.spec_xxh3_64 && files != want.key_files {
        return Err(Error::Input(format!(
            "{}: the finished run drew keys from {}, but the key files now read {}: a key file changed since; run without --resume to start over",
            dir.display(),
            files.join(", "),
            want.key_files.join(", ")
        )));
    }
    let header: Vec<String> = kind.columns().into_iter().map(|c| c.name).collect();
    let current = export::read_output(dir, "results.csv")
        .is_ok_and(|b| b.split(|&c| c == b'\n').next() == Some(header.join(",").as_bytes()));
    Ok(m.spec_xxh3_64 == want.spec_xxh3_64
        && m.seed == want.seed
        && m.quick == want.quick
        && m.trials == want.trials
        && current)
}

/// Runs a study (or one shard of it) and writes its rows.
pub fn run_study(
    spec: &Spec,
    opts: &RunOptions,
    pool: &rayon::ThreadPool,
    progress: &ProgressBar,
) -> Result<StudyRun> {
    let started = std::time::SystemTime::now();
    let clock = Instant::now();
    progress.set_message(spec.name.clone());
    let kind = spec.kind;
    let want = header(spec, opts);
    let all = trials(spec, opts);
    let mine: Vec<bool> = match opts.shard {
        Some(s) => shard_of(spec, &all, s.count)
            .into_iter()
            .map(|i| i == s.index)
            .collect(),
        None => vec![true; all.len()],
    };
    let count = mine.iter().filter(|&&m| m).count();
    // a link at the output folder or the study's folder is refused before
    // anything is read or written there
    crate::export::contain::check_dir(&opts.out)?;
    let dir = opts.out.join(&spec.name);
    crate::export::contain::check_dir(&dir)?;
    let path = dir.join(match opts.shard {
        Some(s) => s.file_name(),
        None => "journal".into(),
    });
    // a FIFO or a device where the journal goes would block or never end
    if let Ok(m) = std::fs::symlink_metadata(&path)
        && !m.is_file()
    {
        return Err(Error::file(
            &path,
            "the journal is not a regular file (a FIFO, a link, a device?): remove it",
        ));
    }
    // an empty journal (a full disk before its header) is no journal
    let exists = std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() > 0);
    export::remove_temporaries(&dir);
    let finished = |resumed: usize, reused: bool, rows_file: PathBuf| StudyRun {
        dir: dir.clone(),
        trials: count,
        resumed,
        seconds: clock.elapsed().as_secs_f64(),
        rows_file,
        reused,
    };
    if opts.resume && !exists && opts.shard.is_none() && already_complete(&dir, &want, kind)? {
        progress.inc(count as u64);
        let rows = export::output_path(&dir, "results.csv").unwrap_or(dir.join("results.csv"));
        return Ok(finished(count, true, rows));
    }
    let (writer, done) = if opts.resume && exists {
        let (contents, done) = resumed_records(&path, &want, &all, &mine)?;
        if !contents.damaged.is_empty() {
            eprintln!(
                "note: {}: {} damaged line(s) skipped (every whole record is kept; their trials run again)",
                path.display(),
                contents.damaged.len()
            );
        }
        if contents.complete {
            progress.inc(count as u64);
            return Ok(finished(count, true, path));
        }
        (journal::Writer::reopen(&path, &contents)?, done)
    } else {
        crate::export::contain::dir_within(&opts.out, Path::new(&spec.name))?;
        (journal::Writer::create(&path, &want)?, HashMap::new())
    };
    progress.inc(done.len() as u64);
    let resumed = done.len();

    // rounds: one for a fixed-size study; a sequential one adds replicates
    // to its undecided settings until each is decided or at its budget
    let mut done = done;
    let mut wanted;
    loop {
        wanted = super::sequential::wanted(spec, opts.quick, &all, &done)?;
        let todo: Vec<&Trial> = all
            .iter()
            .filter(|t| mine[t.index] && wanted[t.index] && !done.contains_key(&t.index))
            .collect();
        if todo.is_empty() {
            break;
        }
        let one = |t: &&Trial| -> anyhow::Result<Option<Record>> {
            if interrupted() {
                return Ok(None);
            }
            let rec = run_one(spec, t)?;
            writer.append(&rec)?;
            progress.inc(1);
            Ok(Some(rec))
        };
        let ran: Vec<anyhow::Result<Option<Record>>> = if kind.timing() {
            todo.iter().map(one).collect()
        } else {
            pool.install(|| todo.par_iter().map(one).collect())
        };
        let ran: Vec<Option<Record>> = ran.into_iter().collect::<anyhow::Result<_>>()?;
        if ran.iter().any(Option::is_none) {
            let kept = done.len() + ran.iter().flatten().count();
            return Err(Error::Interrupted(format!(
                "interrupted: {kept} of {count} trials of {} are kept in {}; resume with:\n  {}",
                spec.name,
                path.display(),
                resume_command()
            )));
        }
        done.extend(ran.into_iter().flatten().map(|r| (r.index, r)));
    }
    // trials a sequential setting did not need
    let count = (0..all.len()).filter(|&i| mine[i] && wanted[i]).count();
    progress.inc(
        all.iter()
            .filter(|t| mine[t.index])
            .count()
            .saturating_sub(count) as u64,
    );
    let mut records: Vec<Record> = done.into_values().collect();
    records.sort_by_key(|r| r.index);
    let finished = |resumed: usize, reused: bool, rows_file: PathBuf| StudyRun {
        trials: count,
        ..finished(resumed, reused, rows_file)
    };
    let table = to_table(spec, &records)?;
    if opts.shard.is_some() {
        writer.finish(clock.elapsed().as_secs_f64())?;
        export::write_atomic(&dir.join("spec.toml"), spec.source.as_bytes())?;
        return Ok(finished(resumed, false, path));
    }
    drop(writer);
    let csv = export::csv::to_bytes(&table)?;
    let rows = export::write_output(&dir, "results.csv", &csv)?;
    export::write_atomic(&dir.join("spec.toml"), spec.source.as_bytes())?;
    let mut manifest = manifest(
        spec,
        opts,
        &table,
        &rows,
        resumed,
        clock.elapsed().as_secs_f64(),
        started,
    );
    manifest.sequential = super::sequential::describe(spec, opts.quick, &wanted);
    let run = finished(resumed, false, rows);
    export::write_atomic(&dir.join("manifest.json"), &manifest.to_bytes()?)?;
    std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
    Ok(run)
}

/// The manifest of a finished (or merged) study whose rows went to `rows`.
pub fn manifest(
    spec: &Spec,
    opts: &RunOptions,
    table: &Table,
    rows: &Path,
    resumed: usize,
    seconds: f64,
    started: std::time::SystemTime,
) -> Manifest {
    let kind = spec.kind;
    Manifest {
        study: spec.name.clone(),
        kind: kind.name().to_string(),
        spec_path: spec.path.display().to_string(),
        spec_xxh3_64: spec.source_hash.clone(),
        seed: opts.seed.unwrap_or(spec.seed),
        seed_overridden: opts.seed.is_some_and(|s| s != spec.seed),
        quick: opts.quick,
        threads: opts.threads,
        trials: spec.trials(opts.quick),
        rows: table.rows.len(),
        replicates: spec.replicates(opts.quick),
        crate_version: env!("CARGO_PKG_VERSION").to_string(),
        git_revision: export::git_revision(),
        // rows that used the per-process OS key differ from run to run
        reproducible: kind.reproducible() && !uses_random_key(spec, opts),
        process_random_key: uses_random_key(spec, opts)
            .then(crate::hashing::process_random_seed_if_used)
            .flatten()
            .map(hex_key),
        started_utc: export::utc(started),
        finished_utc: export::utc(std::time::SystemTime::now()),
        seconds,
        resumed_trials: resumed,
        peak_rss_bytes: crate::metrics::process::peak_rss_bytes(),
        sequential: None,
        key_files: spec.key_files.iter().map(|f| key_file_info(f)).collect(),
        derived_from_key_files: spec
            .derived(opts.quick)
            .map(String::from)
            .into_iter()
            .collect(),
        files: vec![
            export::file_name(rows),
            "spec.toml".into(),
            "manifest.json".into(),
        ],
        command: std::env::args().collect(),
        columns: kind.schema(),
    }
}

/// Whether a trial draws the per-process OS key (`hash_seed = "random"`).
fn uses_random_key_here(p: &super::params::Params) -> bool {
    p.0.iter()
        .any(|(name, v)| *name == "hash_seed" && matches!(v, Value::Str(s) if s == "random"))
}

/// Whether any trial of the study does (the key is process-wide: a study
/// records it only when its own rows depend on it).
fn uses_random_key(spec: &Spec, opts: &RunOptions) -> bool {
    spec.grid(opts.quick).iter().any(|(name, vals)| {
        *name == "hash_seed"
            && vals
                .iter()
                .any(|v| matches!(v, Value::Str(s) if s == "random"))
    })
}

/// Runs one trial: its rows as results.csv cells (parameters, replicate,
/// identity, metrics; the trial's seed is not written: it derives from the
/// study's seed and the identity, [`super::grid::trial_seed`]).
fn run_one(spec: &Spec, t: &Trial) -> anyhow::Result<Record> {
    let metrics = spec.kind.run(&t.params, Seeds(t.seed)).with_context(|| {
        format!(
            "{}: trial {:016x} ({:?}, replicate {})",
            spec.name, t.id, t.params.0, t.replicate
        )
    })?;
    let rows = metrics
        .into_iter()
        .map(|m| {
            let mut row: Vec<String> = t.params.0.iter().map(|(_, v)| v.to_string()).collect();
            row.push(t.replicate.to_string());
            row.push(format!("{:016x}", t.id));
            row.extend(m.iter().map(Value::to_string));
            row
        })
        .collect();
    Ok(Record {
        index: t.index,
        id: t.id,
        key: uses_random_key_here(&t.params)
            .then(crate::hashing::process_random_seed_if_used)
            .flatten()
            .map(hex_key),
        rows,
    })
}

/// The rows of a study, in trial order, without writing anything (tests).
pub fn run_trials(spec: &Spec, opts: &RunOptions, pool: &rayon::ThreadPool) -> Result<Table> {
    let all = trials(spec, opts);
    let mut done: HashMap<usize, Record> = HashMap::new();
    loop {
        let wanted = super::sequential::wanted(spec, opts.quick, &all, &done)?;
        let todo: Vec<&Trial> = all
            .iter()
            .filter(|t| wanted[t.index] && !done.contains_key(&t.index))
            .collect();
        if todo.is_empty() {
            break;
        }
        let records: Vec<anyhow::Result<Record>> =
            pool.install(|| todo.par_iter().map(|t| run_one(spec, t)).collect());
        for r in records {
            let r = r?;
            done.insert(r.index, r);
        }
    }
    let mut records: Vec<Record> = done.into_values().collect();
    records.sort_by_key(|r| r.index);
    to_table(spec, &records)
}
