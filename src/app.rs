//! The whole pipeline behind the CLI; `main` only prints the error.

use crate::cli::{Cli, Command};
use crate::error::{Error, Result};
use crate::experiment::Spec;
use crate::experiment::grid;
use crate::experiment::runner::{self, RunOptions, StudyOutput};
use crate::export;
use crate::report::{self, ledger};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub fn run(cli: Cli) -> Result<()> {
    let threads = cli.threads.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let opts = RunOptions {
        out: cli.out.clone(),
        quick: cli.quick,
        threads,
        seed: cli.seed,
    };
    match &cli.command {
        Command::List => list(&cli.experiments),
        Command::Run { target } => {
            let spec = Spec::load(&resolve(&cli.experiments, target)?)?;
            let pool = pool(threads)?;
            let bar = progress(grid::count(spec.grid(opts.quick)) as u64, cli.quiet);
            let out = runner::run_study(&spec, &opts, &pool, &bar)?;
            bar.finish_and_clear();
            if !cli.quiet {
                summary(&spec, &out);
                for c in &spec.claims {
                    let r = ledger::evaluate(c, &spec.name, &out.table);
                    println!(
                        "  claim {:<28} {:<14} documented {} {}, measured {}",
                        r.claim_id,
                        r.verdict.as_str(),
                        r.documented,
                        r.unit,
                        r.measured
                            .map(|m| export::markdown::sig(m, 4))
                            .unwrap_or_else(|| "-".into())
                    );
                }
            }
            Ok(())
        }
        Command::Reproduce => reproduce(&cli.experiments, &opts, cli.quiet),
    }
}

/// `run` accepts a path or a study name.
fn resolve(dir: &Path, target: &str) -> Result<PathBuf> {
    let p = PathBuf::from(target);
    if p.is_file() {
        return Ok(p);
    }
    let named = dir.join(format!("{target}.toml"));
    if named.is_file() {
        return Ok(named);
    }
    let known = spec_files(dir).unwrap_or_default();
    let names: Vec<String> = known
        .iter()
        .filter_map(|f| f.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    Err(Error::Input(format!(
        "{target}: no such spec file, and no study of that name in {} (known: {})",
        dir.display(),
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    )))
}

fn spec_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).map_err(|e| {
        Error::Input(format!(
            "{}: cannot read the experiments directory: {e}",
            dir.display()
        ))
    })?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    Ok(files)
}

/// Every spec in `dir`, all validated before anything runs.
pub fn load_all(dir: &Path) -> Result<Vec<Spec>> {
    let specs = spec_files(dir)?
        .iter()
        .map(|f| Spec::load(f))
        .collect::<Result<Vec<_>>>()?;
    let mut seen = std::collections::HashMap::new();
    for s in &specs {
        if let Some(other) = seen.insert(s.name.clone(), s.path.clone()) {
            return Err(Error::file(
                &s.path,
                format!("name = {:?}: already used by {}", s.name, other.display()),
            ));
        }
    }
    if specs.is_empty() {
        return Err(Error::Input(format!(
            "{}: no *.toml study specs found",
            dir.display()
        )));
    }
    Ok(specs)
}

fn list(dir: &Path) -> Result<()> {
    for s in load_all(dir)? {
        println!(
            "{:<20} {:<16} {:>6} trials ({:>4} quick)  {}",
            s.name,
            s.kind.name(),
            grid::count(&s.grid),
            grid::count(&s.quick_grid),
            s.description.lines().next().unwrap_or("").trim()
        );
    }
    Ok(())
}

fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Other(anyhow::anyhow!("starting {threads} worker threads: {e}")))
}

fn progress(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:>16} [{bar:40}] {pos}/{len} trials  {elapsed_precise}  ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

fn summary(spec: &Spec, out: &StudyOutput) {
    println!(
        "{}: {} trials in {:.1} s -> {} ({} plots)",
        spec.name,
        out.trials,
        out.seconds,
        out.dir.join("results.csv").display(),
        out.plots.len()
    );
}

fn reproduce(dir: &Path, opts: &RunOptions, quiet: bool) -> Result<()> {
    let specs = load_all(dir)?;
    let clock = Instant::now();
    let pool = pool(opts.threads)?;
    let total: usize = specs.iter().map(|s| grid::count(s.grid(opts.quick))).sum();
    let bar = progress(total as u64, quiet);
    let mut outputs = Vec::new();
    for spec in &specs {
        let out = runner::run_study(spec, opts, &pool, &bar)?;
        if !quiet {
            bar.suspend(|| summary(spec, &out));
        }
        outputs.push(out);
    }
    bar.finish_and_clear();

    let mut rows = Vec::new();
    for (spec, out) in specs.iter().zip(&outputs) {
        rows.extend(
            spec.claims
                .iter()
                .map(|c| ledger::evaluate(c, &spec.name, &out.table)),
        );
    }
    export::write_atomic(&opts.out.join("claims.csv"), &ledger::to_csv(&rows)?)?;
    let studies: Vec<report::StudyResult<'_>> = specs
        .iter()
        .zip(&outputs)
        .map(|(spec, o)| report::StudyResult {
            spec,
            table: &o.table,
            plots: &o.plots,
            seconds: o.seconds,
        })
        .collect();
    let info = report::RunInfo {
        quick: opts.quick,
        threads: opts.threads,
        seconds: clock.elapsed().as_secs_f64(),
        finished_utc: export::utc(std::time::SystemTime::now()),
        git_revision: export::git_revision(),
    };
    let md = report::render(&studies, &rows, &info, &opts.out);
    export::write_atomic(&opts.out.join("REPORT.md"), md.as_bytes())?;
    if !quiet {
        let count = |v: ledger::Verdict| rows.iter().filter(|r| r.verdict == v).count();
        println!(
            "{} claims: {} hold, {} approximately, {} do not hold, {} not measured -> {}, {} ({:.0} s)",
            rows.len(),
            count(ledger::Verdict::Holds),
            count(ledger::Verdict::Approximately),
            count(ledger::Verdict::DoesNotHold),
            count(ledger::Verdict::NotMeasured),
            opts.out.join("claims.csv").display(),
            opts.out.join("REPORT.md").display(),
            info.seconds
        );
    }
    Ok(())
}
