//! The whole pipeline behind the CLI; `main` only prints the error.

mod compare;
mod design;
mod hllpp;
mod keys;
mod keys_check;
mod progress;
use compare::{baseline_name, compare_command, save_baseline_as};
pub use keys::MAX_KEY_BYTES;
use keys::{estimate_hll, hash_command};
use progress::progress;

use crate::cli::{Cli, Command};
use crate::error::{Error, Result};
use crate::experiment::Spec;
use crate::experiment::lock::OutLock;
use crate::experiment::report_stage::{self, RunRecord};
use crate::experiment::runner::{self, RunOptions, StudyRun};
use crate::export;
use crate::report::ledger;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A progress or summary line of a long command (run, reproduce, merge,
/// report, hllpp-bias): its product is the files it writes, so a closed or
/// failing stdout (`| head -1`, `> /dev/full`) must not end it early. The
/// first failure is said once on stderr; later lines are dropped.
pub(crate) fn say(args: std::fmt::Arguments) {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    static GONE: AtomicBool = AtomicBool::new(false);
    if GONE.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    // text from specs and file names: control characters shown, not obeyed
    let text = crate::export::text::terminal(&args.to_string()).into_owned();
    if let Err(e) = out
        .write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
    {
        GONE.store(true, Ordering::Relaxed);
        eprintln!("note: stdout failed ({e}); the run goes on and writes its files");
    }
}

macro_rules! say {
    ($($t:tt)*) => {
        say(format_args!($($t)*))
    };
}

/// `--threads` may ask for up to this many workers per available core.
pub const MAX_THREADS_PER_CORE: usize = 4;

pub fn run(cli: Cli) -> Result<()> {
    crate::input::set_table_bound(cli.max_input_bytes);
    // the revision a run's manifests name is the tree it started from
    let _ = export::git_revision();
    crate::experiment::journal::allow_other_build(cli.allow_other_build);
    if let Some(url) = &cli.redis_url {
        // a server named but not answering is bad input, said before anything runs
        crate::peer::redis::set_url(url).map_err(|e| Error::Input(format!("--redis-url: {e}")))?;
    }
    // an output folder that is a file is bad input, refused before anything runs
    if let Some(out) = &cli.out
        && out.exists()
        && !out.is_dir()
    {
        return Err(Error::Input(format!(
            "--out {}: exists and is not a folder",
            out.display()
        )));
    }
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let threads = cli.threads.map(usize::from).unwrap_or(cores);
    // more workers than 4 per core only queue (65,535 of them took minutes to start)
    if threads > MAX_THREADS_PER_CORE * cores {
        return Err(Error::Input(format!(
            "--threads = {threads}: must be at most {} ({MAX_THREADS_PER_CORE} per core; this machine has {cores})",
            MAX_THREADS_PER_CORE * cores
        )));
    }
    let opts = RunOptions {
        out: cli.out_dir(),
        quick: cli.quick,
        threads,
        seed: cli.seed,
        resume: cli.resume,
        shard: cli
            .shard
            .as_deref()
            .map(crate::experiment::shard::Shard::parse)
            .transpose()?,
    };
    match &cli.command {
        Command::List {
            hashes: false,
            kinds: false,
        } => list(&cli.experiments),
        Command::List { hashes: true, .. } => {
            print!("{}", crate::export::text::terminal(&list_hashes()));
            Ok(())
        }
        Command::List { kinds: true, .. } => {
            print!("{}", crate::export::text::terminal(&list_kinds()));
            Ok(())
        }
        Command::Hash {
            strategy,
            file: Some(file),
            format,
            ..
        } => keys::hash_file(strategy, cli.seed, file, format),
        Command::Hash {
            strategy,
            hex,
            keys,
            file: None,
            ..
        } => hash_command(strategy, cli.seed, *hex, keys, cli.max_key_bytes as usize),
        Command::Keys(crate::cli::KeysWhat::Check {
            file,
            format,
            hashes,
            n,
        }) => {
            // Ctrl-C stops it cleanly too (its temporary folder removed)
            on_ctrl_c();
            keys_check::keys_check(file, format, hashes, *n, cli.out.as_deref(), threads)
        }
        Command::Keys(crate::cli::KeysWhat::Expand { file, trial }) => {
            keys_check::keys_expand(file, trial.as_deref())
        }
        Command::Run { target } => {
            let spec = Spec::load(&resolve(&cli.experiments, target)?)?;
            let plan = crate::experiment::plan::plan(&spec, &opts);
            if !cli.quiet {
                println!("{}", crate::export::text::terminal(&plan.line()));
            }
            plan.check(&spec)?;
            // everything checked: take the output directory before writing
            let _lock = OutLock::acquire(&opts.out, true)?;
            let pool = pool(threads)?;
            on_ctrl_c();
            let bar = progress(spec.trials(opts.quick) as u64, cli.quiet);
            let run = runner::run_study(&spec, &opts, &pool, &bar)?;
            bar.finish_and_clear();
            if opts.shard.is_some() {
                if !cli.quiet {
                    summary(&spec, &run);
                }
                return Ok(());
            }
            let st = report_stage::render_study(&run.dir)?;
            if !cli.quiet {
                summary(&spec, &run);
                print_section(&st.spec.section(&st.tables), &run.dir);
                for c in &spec.claims {
                    let r = ledger::evaluate(c, &spec.name, &st.tables);
                    say!(
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
        Command::Plan { target, json } => {
            let spec = Spec::load(&resolve(&cli.experiments, target)?)?;
            let mut plan = crate::experiment::plan::plan(&spec, &opts);
            crate::experiment::plan::calibrate(&spec, &opts, &mut plan)?;
            if *json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&plan).map_err(anyhow::Error::from)?
                );
            } else {
                println!("{}", crate::export::text::terminal(&plan.line()));
                if let Some(c) = &plan.calibration {
                    println!("  time: {c}");
                }
                if let Err(e) = plan.check(&spec) {
                    println!("  `run` would refuse it: {e}");
                }
            }
            Ok(())
        }
        Command::Report { dir } => {
            // a directory that is not there is refused by rebuild, as before
            let _lock = dir
                .is_dir()
                .then(|| OutLock::acquire(dir, false))
                .transpose()?;
            let rebuilt = report_stage::rebuild(dir)?;
            if !cli.quiet {
                print_counts(&rebuilt.ledger, dir, rebuilt.run.seconds);
            }
            Ok(())
        }
        Command::Merge { dirs } => {
            let rebuilt = crate::experiment::merge::merge(dirs, &cli.out_dir(), threads)?;
            if !cli.quiet {
                say!(
                    "merged {} studies from {} folders into {}",
                    rebuilt.run.studies.len(),
                    dirs.len(),
                    cli.out_dir().display()
                );
                print_counts(&rebuilt.ledger, &cli.out_dir(), rebuilt.run.seconds);
            }
            Ok(())
        }
        Command::Reproduce {
            save_baseline,
            baseline,
            fail_on,
        } => {
            let names =
                [save_baseline, baseline].map(|n| n.as_deref().map(baseline_name).transpose());
            let [save, against] = names;
            let (save, against) = (save?, against?);
            // a metric no kind measures is refused before the run, not after it
            let metrics = crate::experiment::kinds::metric_names();
            if let Some(f) = fail_on.iter().find(|f| !metrics.contains(f.as_str())) {
                let some: Vec<&str> = metrics
                    .iter()
                    .map(String::as_str)
                    .filter(|m| m.starts_with("fpr") || m.starts_with("ns_"))
                    .take(4)
                    .collect();
                return Err(Error::Input(format!(
                    "--fail-on {f}: no study measures a metric of that name (of the {} that some do: {}, …)",
                    metrics.len(),
                    some.join(", ")
                )));
            }
            if !fail_on.is_empty() && against.is_none() {
                return Err(Error::Input(
                    "--fail-on compares with a baseline: give --baseline NAME too".into(),
                ));
            }
            if let Some(b) = &against
                && !opts.out.join("baselines").join(b).is_dir()
            {
                return Err(Error::Input(format!(
                    "--baseline {b}: no baseline {} (save one with --save-baseline {b})",
                    opts.out.join("baselines").join(b).display()
                )));
            }
            reproduce(&cli.experiments, &opts, cli.quiet)?;
            if let Some(b) = save {
                save_baseline_as(&opts.out, b)?;
            }
            match against {
                Some(b) => compare_command(
                    &opts.out.join("baselines").join(b).display().to_string(),
                    &opts.out.display().to_string(),
                    fail_on,
                    "md",
                ),
                None => Ok(()),
            }
        }
        Command::Compare {
            old,
            new,
            fail_on,
            format,
        } => compare_command(old, new, fail_on, format),
        Command::Design(d) => design::design(d, cli.out.as_deref(), cli.quiet),
        Command::Claims {
            verdict,
            document,
            strict,
        } => {
            let table =
                crate::report::print::run_ledger(&cli.out_dir(), *verdict, *document, *strict)?;
            print!("{}", crate::export::text::terminal(&table));
            Ok(())
        }
        Command::HllppBias { trials, file } => hllpp::hllpp_bias(
            *trials,
            cli.seed.unwrap_or(2013),
            file,
            &pool(threads)?,
            cli.quiet,
        ),
        Command::Estimate {
            what:
                crate::cli::EstimateWhat::Hll {
                    p,
                    estimator,
                    redis,
                    strategy,
                    hex,
                    file,
                    format,
                },
        } => estimate_hll(
            *p,
            estimator,
            *redis,
            strategy,
            cli.seed,
            match file {
                Some(path) => keys::Source::File(path, format),
                None => keys::Source::Stdin { hex: *hex },
            },
            cli.max_key_bytes as usize,
        ),
    }
}

/// `run` accepts a path or a study name.
fn resolve(dir: &Path, target: &str) -> Result<PathBuf> {
    let p = PathBuf::from(target);
    if p.is_file() {
        return Ok(p);
    }
    // there, but not a file a spec can be read from (a directory, a device, a FIFO)
    if let Ok(m) = std::fs::metadata(&p) {
        return Err(Error::Input(format!(
            "{target}: not a spec file ({}); give a .toml file or a study name",
            if m.is_dir() {
                "a directory"
            } else {
                "not a regular file"
            }
        )));
    }
    // a study name is a spec's stem in `dir`, never a path out of it
    let is_name = !target.is_empty()
        && target
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    let named = dir.join(format!("{target}.toml"));
    if is_name && named.is_file() {
        return Ok(named);
    }
    let known = spec_files(dir).unwrap_or_default();
    let names: Vec<String> = known
        .iter()
        .filter_map(|f| f.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    // the nearest names, when one is near: a typo gets "did you mean"
    let mut near: Vec<(usize, &String)> = names
        .iter()
        .map(|n| (strsim::damerau_levenshtein(target, n), n))
        .filter(|(d, n)| *d <= 2.max(n.len() / 5))
        .collect();
    near.sort();
    let hint = match near.first() {
        Some((_, best)) => format!(
            "did you mean {best}? (`sketchlab list` shows all {})",
            names.len()
        ),
        None if names.is_empty() => "it holds no studies".into(),
        None => format!("known: {}", names.join(", ")),
    };
    Err(Error::Input(format!(
        "{target}: no such spec file, and no study of that name in {}; {hint}",
        dir.display(),
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
        // the whole description, re-flowed onto one line
        let description = s
            .description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        // a sequential study runs up to its budget
        let most = if s.sequential.is_some() { "≤" } else { "" };
        println!(
            "{:<20} {:<16} {:>6} trials ({:>4} quick)  {}",
            s.name,
            s.kind.name(),
            format!("{most}{}", s.trials(false)),
            s.trials(true),
            crate::export::text::terminal(&description)
        );
    }
    Ok(())
}

/// The kinds table `list --kinds` prints: each kind's parameters and columns,
/// from the same declarations the validator and the CSV header use.
pub fn list_kinds() -> String {
    let mut s = String::new();
    for k in crate::experiment::kinds::KINDS {
        s += &format!("{}: {}\n", k.name(), k.about());
        for d in k.params() {
            let default = d
                .default_value()
                .map(|v| format!(" (default {})", v.toml_repr()))
                .unwrap_or_else(|| " (required)".into());
            s += &format!("  {:<22} {}{default}: {}\n", d.name, d.allowed(), d.help);
        }
        s += &format!("  columns: {}\n\n", k.metric_columns().join(", "));
    }
    s
}

/// The strategy table `list --hashes` prints.
pub fn list_hashes() -> String {
    let mut s = format!(
        "{:<16} {:>5}  {:<5}  {:<50} {}\n",
        "strategy", "bits", "keyed", "seed", "computed by"
    );
    for &k in crate::hashing::StrategyId::ALL {
        s += &format!(
            "{:<16} {:>5}  {:<5}  {:<50} {}\n",
            k.name(),
            k.width(),
            if k.keyed() { "yes" } else { "no" },
            k.seed_use(),
            k.source()
        );
    }
    s
}

fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Other(anyhow::anyhow!("starting {threads} worker threads: {e}")))
}

/// What `run` shows of its study: the regenerated table (its first
/// [`SHOWN_ROWS`] rows; the rest are in the study's README.md) and the
/// reading, as the report prints them.
fn print_section(section: &crate::report::Section, dir: &Path) {
    const SHOWN_ROWS: usize = 25;
    let mut t = section.table.clone();
    let more = t.rows.len().saturating_sub(SHOWN_ROWS);
    t.rows.truncate(SHOWN_ROWS);
    if !t.columns.is_empty() {
        say!("\n{}", export::markdown::table(&t).trim_end());
        if more > 0 {
            say!("… {more} more rows in {}", dir.join("README.md").display());
        }
    }
    if !section.reading.is_empty() {
        say!("\nReading. {}", section.reading);
    }
}

fn summary(spec: &Spec, run: &StudyRun) {
    // a run that ran nothing says so, not "in 0.0 s"
    let ran = run.trials.saturating_sub(run.resumed);
    let how = if run.reused {
        "complete already, kept; none run".to_string()
    } else if ran == 0 {
        format!("all {} from the journal; none run", run.resumed)
    } else if run.resumed > 0 {
        format!(
            "{} from the journal, {ran} run in {:.1} s",
            run.resumed, run.seconds
        )
    } else {
        format!("run in {:.1} s", run.seconds)
    };
    say!(
        "{}: {} trials ({how}) -> {}",
        spec.name,
        run.trials,
        run.rows_file.display(),
    );
}

/// Ctrl-C, or SIGTERM (a scheduler preempting the job, `kill`), stops after
/// the running trials (the journal keeps the finished ones, temporaries are
/// removed); a second one quits at once.
fn on_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        if runner::interrupted() {
            std::process::exit(130);
        }
        runner::interrupt();
        eprintln!("\nstopping after the running trials (Ctrl-C or SIGTERM again to quit now)");
    });
}

fn print_counts(rows: &[ledger::LedgerRow], out: &Path, seconds: f64) {
    say!(
        "{} -> {}, {} ({:.0} s)",
        crate::report::reading_counts(rows),
        out.join("claims.csv").display(),
        out.join("REPORT.md").display(),
        seconds
    );
}

fn reproduce(dir: &Path, opts: &RunOptions, quiet: bool) -> Result<()> {
    let specs = load_all(dir)?;
    let plans: Vec<_> = specs
        .iter()
        .map(|s| crate::experiment::plan::plan(s, opts))
        .collect();
    for (spec, plan) in specs.iter().zip(&plans) {
        plan.check(spec)?;
    }
    if !quiet
        && let Some(top) = plans
            .iter()
            .max_by(|a, b| a.peak_bytes.total_cmp(&b.peak_bytes))
    {
        say!(
            "plan: {} studies, {} trials; peak memory {} ({}){}",
            specs.len(),
            plans.iter().map(|p| p.trials).sum::<usize>(),
            crate::experiment::plan::bytes(top.peak_bytes),
            top.study,
            top.available_bytes
                .map(|a| format!(" of {} available", crate::experiment::plan::bytes(a)))
                .unwrap_or_default()
        );
    }
    // every spec checked: take the output directory before writing
    let _lock = OutLock::acquire(&opts.out, true)?;
    let clock = Instant::now();
    let pool = pool(opts.threads)?;
    on_ctrl_c();
    let total: usize = specs.iter().map(|s| s.trials(opts.quick)).sum();
    let bar = progress(total as u64, quiet);
    let mut study_seconds = Vec::with_capacity(specs.len());
    for spec in &specs {
        let run = runner::run_study(spec, opts, &pool, &bar)?;
        if !quiet {
            bar.suspend(|| summary(spec, &run));
        }
        study_seconds.push(report_stage::StudySeconds {
            study: spec.name.clone(),
            seconds: run.seconds,
        });
    }
    bar.finish_and_clear();
    RunRecord {
        quick: opts.quick,
        threads: opts.threads,
        seconds: clock.elapsed().as_secs_f64(),
        finished_utc: export::utc(std::time::SystemTime::now()),
        git_revision: export::git_revision(),
        studies: specs.iter().map(|s| s.name.clone()).collect(),
        study_seconds,
        shard: opts.shard.map(|s| format!("{}/{}", s.index, s.count)),
    }
    .write(&opts.out)?;
    if let Some(s) = opts.shard {
        if !quiet {
            say!(
                "shard {}/{} of {} studies -> {} (assemble the shards with `sketchlab merge`)",
                s.index,
                s.count,
                specs.len(),
                opts.out.display()
            );
        }
        return Ok(());
    }
    let rebuilt = report_stage::rebuild(&opts.out)?;
    if !quiet {
        print_counts(&rebuilt.ledger, &opts.out, rebuilt.run.seconds);
    }
    Ok(())
}
