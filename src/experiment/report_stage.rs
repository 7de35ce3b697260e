//! Everything after the trials, from the files alone: a study's summary.csv
//! and plots from its results.csv and spec.toml, and the whole report
//! (claims.csv, REPORT.md, index.html) from `OUT/run.json` and the study
//! folders.
//! `reproduce`, `report` and `merge` all end here, so a report rebuilt from
//! disk is byte-identical to the one the run wrote. (The report stage; a
//! finished study read back from its folder is a [`StudyFolder`].)

use super::spec::Spec;
use crate::error::{Error, Result};
use crate::export::{self, Manifest};
use crate::report::{self, ledger};
use crate::stats;
use crate::table::Tables;
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// `OUT/run.json`: the facts of a whole run the report's header states.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunRecord {
    pub quick: bool,
    pub threads: usize,
    pub seconds: f64,
    pub finished_utc: String,
    pub git_revision: Option<String>,
    /// Study folders under OUT, in report order.
    pub studies: Vec<String>,
    /// `i/N` when this folder holds one shard of a run (its report is built by `merge`).
    #[serde(default)]
    pub shard: Option<String>,
    /// Wall seconds each study took in this run, in run order (a study
    /// `--resume` found complete took next to none; a record inferred from
    /// manifests, or merged, gives each study's manifest seconds). Empty in
    /// a record older than this field.
    #[serde(default)]
    pub study_seconds: Vec<StudySeconds>,
}

/// One study's wall time in a run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StudySeconds {
    pub study: String,
    pub seconds: f64,
}

impl RunRecord {
    pub fn read(out: &Path) -> Result<RunRecord> {
        let path = out.join("run.json");
        let bytes = crate::input::read(&path, crate::input::SMALL).map_err(|e| {
            Error::file(
                &path,
                format!(
                    "cannot read ({e}), and no study folder beside it; is {} the output of `sketchlab reproduce` or `run`?",
                    out.display()
                ),
            )
        })?;
        let run: RunRecord = serde_json::from_slice(&bytes)
            .map_err(|e| Error::file(&path, format!("not a run record: {e}")))?;
        // a study is a folder beside run.json, never a path out of it
        for s in run
            .studies
            .iter()
            .chain(run.study_seconds.iter().map(|s| &s.study))
        {
            export::contain::plain_name(s)
                .map_err(|why| Error::file(&path, format!("studies: {why}")))?;
        }
        Ok(run)
    }

    /// `OUT/run.json`, or for a folder `sketchlab run` wrote (its studies'
    /// folders, no run.json) the record its manifests imply: the studies in
    /// name order, quick or full, the threads, the summed seconds, the
    /// latest finish and the first git revision (a folder mixing runs is
    /// refused by [`check_one_run`] afterwards).
    pub fn read_or_infer(out: &Path) -> Result<RunRecord> {
        if std::fs::symlink_metadata(out.join("run.json")).is_ok() {
            return RunRecord::read(out);
        }
        let Ok(entries) = std::fs::read_dir(out) else {
            return RunRecord::read(out);
        };
        let mut dirs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|d| std::fs::symlink_metadata(d.join("manifest.json")).is_ok())
            .collect();
        dirs.sort();
        let mut manifests = Vec::new();
        for d in &dirs {
            let path = d.join("manifest.json");
            let m = Manifest::from_bytes(&read(&path)?)
                .map_err(|e| Error::file(&path, format!("{e:#}")))?;
            manifests.push((
                d.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                m,
            ));
        }
        let Some((_, first)) = manifests.first() else {
            return RunRecord::read(out);
        };
        Ok(RunRecord {
            quick: first.quick,
            threads: manifests.iter().map(|(_, m)| m.threads).max().unwrap_or(1),
            seconds: manifests.iter().map(|(_, m)| m.seconds).sum(),
            finished_utc: manifests
                .iter()
                .map(|(_, m)| m.finished_utc.clone())
                .max()
                .unwrap_or_default(),
            git_revision: first.git_revision.clone(),
            study_seconds: manifests
                .iter()
                .map(|(name, m)| StudySeconds {
                    study: name.clone(),
                    seconds: m.seconds,
                })
                .collect(),
            studies: manifests.into_iter().map(|(name, _)| name).collect(),
            shard: None,
        })
    }

    pub fn write(&self, out: &Path) -> Result<()> {
        let mut v = serde_json::to_vec_pretty(self).map_err(anyhow::Error::from)?;
        v.push(b'\n');
        export::contain::dir_within(out, Path::new(""))?;
        export::write_atomic(&out.join("run.json"), &v)?;
        Ok(())
    }
}

/// A finished study as read back from its folder.
pub struct StudyFolder {
    pub spec: Spec,
    pub manifest: Manifest,
    pub tables: Tables,
    pub plots: Vec<PathBuf>,
}

fn read(path: &Path) -> Result<Vec<u8>> {
    crate::input::read(path, crate::input::table_bound())
        .map_err(|e| Error::file(path, format!("cannot read: {e}")))
}

/// A study folder's spec and tables as written (results and, when present,
/// summary), read without writing anything: for re-judging a committed
/// run's claims (tests/ledger.rs).
pub fn read_study(dir: &Path) -> Result<(Spec, Tables)> {
    let manifest = Manifest::from_bytes(&read(&dir.join("manifest.json"))?)
        .map_err(|e| Error::file(&dir.join("manifest.json"), format!("{e:#}")))?;
    let source = String::from_utf8(read(&dir.join("spec.toml"))?)
        .map_err(|_| Error::file(&dir.join("spec.toml"), "not UTF-8"))?;
    let spec = Spec::parse(Path::new(&manifest.spec_path), &source)?;
    let kind = spec.kind;
    let parse =
        |name: &str, columns: Vec<crate::table::Column>| -> Result<Option<crate::table::Table>> {
            let Some(path) = export::output_path(dir, name) else {
                return Ok(None);
            };
            let bytes = export::read_output(dir, name)
                .map_err(|e| Error::file(&path, format!("cannot read: {e}")))?;
            Ok(Some(
                export::csv::parse(&bytes, &columns)
                    .map_err(|e| Error::file(&path, format!("{e:#}")))?,
            ))
        };
    let results = parse("results.csv", kind.columns())?
        .ok_or_else(|| Error::file(&dir.join("results.csv"), "missing"))?;
    let summary = parse("summary.csv", kind.summary_columns())?;
    Ok((spec, Tables { results, summary }))
}

/// Reads `dir`'s manifest, spec and results, writes summary.csv (when the
/// study has replicates) and the plots, and brings the manifest's file list up to date.
pub fn render_study(dir: &Path) -> Result<StudyFolder> {
    render_study_for(dir, None)
}

/// [`render_study`] for a study whose kind is not registered (a user's own
/// structure, [`crate::experiment::own`]): its spec is parsed for `own`.
pub fn render_study_for(dir: &Path, own: Option<super::spec::Own>) -> Result<StudyFolder> {
    let manifest = Manifest::from_bytes(&read(&dir.join("manifest.json"))?)
        .map_err(|e| Error::file(&dir.join("manifest.json"), format!("{e:#}")))?;
    let source = String::from_utf8(read(&dir.join("spec.toml"))?)
        .map_err(|_| Error::file(&dir.join("spec.toml"), "not UTF-8"))?;
    // messages and the report name the spec where the run found it
    let spec = match own {
        Some((k, v)) => Spec::parse_for(Path::new(&manifest.spec_path), &source, k, v)?,
        None => Spec::parse(Path::new(&manifest.spec_path), &source)?,
    };
    let kind = spec.kind;
    let mut rows_path = export::output_path(dir, "results.csv").unwrap_or(dir.join("results.csv"));
    let rows = export::read_output(dir, "results.csv")
        .map_err(|e| Error::file(&rows_path, format!("cannot read: {e}")))?;
    let results = export::csv::parse(&rows, &kind.columns())
        .map_err(|e| Error::file(&rows_path, format!("{e:#}")))?;
    super::verify::study(dir, &manifest, &spec, &results)?;
    // rows written before outputs were packed (or by hand) take the form
    // `export::write_output` gives their size
    if !export::has_current_form(&rows_path, rows.len()) {
        rows_path = export::write_output(dir, "results.csv", &rows)?;
    }
    let mut files = vec![export::file_name(&rows_path), "spec.toml".to_string()];
    let summary = if spec.replicates(manifest.quick) > 1 {
        let s = super::summary::summarise(
            &results,
            &kind.param_columns(),
            &kind.fields(),
            stats::PLOT_CONFIDENCE,
        )?;
        let bytes = export::csv::to_bytes(&s)?;
        files.push(export::file_name(&export::write_output(
            dir,
            "summary.csv",
            &bytes,
        )?));
        Some(export::csv::parse(&bytes, &kind.summary_columns())?)
    } else {
        // a stale summary from an earlier run with replicates must not stay beside new rows
        while let Some(stale) = export::output_path(dir, "summary.csv") {
            std::fs::remove_file(&stale)
                .with_context(|| format!("removing stale {}", stale.display()))?;
        }
        None
    };
    let tables = Tables { results, summary };
    if let Some(keys) = write_keys(&spec, &manifest, dir)? {
        files.push(export::file_name(&keys));
    }
    let plots = crate::plot::render_all(&spec.charts(&tables), &spec.heatmaps(&tables), dir)?;
    files.push("manifest.json".into());
    files.extend(
        plots
            .iter()
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned()),
    );
    let mut manifest = manifest;
    // the schema of the kind that reads the rows (a manifest written before
    // the schema gains it)
    manifest.files = files;
    manifest.columns = kind.schema();
    // rewritten only when its bytes change (a manifest in an older form
    // takes the current one)
    let bytes = manifest.to_bytes()?;
    if read(&dir.join("manifest.json"))? != bytes {
        export::write_atomic(&dir.join("manifest.json"), &bytes)?;
    }
    Ok(StudyFolder {
        spec,
        manifest,
        tables,
        plots,
    })
}

/// `keys.txt` (or `keys.txt.xz`, see [`export::write_output`]) for a kind
/// with crafted keys: per trial with keys a `# trial ID PARAMS` line, then
/// one key per line as hex; regenerated from the trials' seeds. Returns the
/// file written, `None` for a kind without crafted keys.
/// Trials with more crafted keys than this, or more bytes of them as hex than
/// [`INLINE_BYTES`], are written as a generator line.
pub const INLINE_KEYS: usize = 10_000;
pub const INLINE_BYTES: usize = 128 << 10;

fn write_keys(spec: &Spec, manifest: &Manifest, dir: &Path) -> Result<Option<PathBuf>> {
    let opts = super::runner::RunOptions {
        out: PathBuf::new(),
        quick: manifest.quick,
        threads: 1,
        seed: Some(manifest.seed),
        resume: false,
        shard: None,
    };
    let mut text = String::new();
    for t in super::runner::trials(spec, &opts) {
        let Some(keys) = spec
            .kind
            .keys(&t.params, super::params::Seeds(t.seed))
            .map_err(|e| Error::Other(e.context(format!("{}: crafting keys", spec.name))))?
        else {
            return Ok(None);
        };
        if keys.is_empty() {
            continue; // a defended or control trial: nothing crafted
        }
        let params = t.params.canonical().replace('\u{1f}', " ");
        text += &format!("# trial {:016x} {}\n", t.id, params.trim_end());
        let hex_bytes: usize = keys.iter().map(|k| 2 * k.len() + 1).sum();
        if keys.len() <= INLINE_KEYS && hex_bytes <= INLINE_BYTES {
            for k in keys {
                text += &crate::attack::hex(&k);
                text.push('\n');
            }
        } else {
            text += &format!(
                "# {} keys ({} bytes as hex), over {INLINE_KEYS} keys or {INLINE_BYTES} bytes: `sketchlab keys expand {}/keys.txt --trial {:016x}` regenerates them\n{}\n",
                keys.len(),
                hex_bytes,
                spec.name,
                t.id,
                super::expand::generator_line(spec.kind.name(), t.seed, &keys, &t.params)
            );
        }
    }
    Ok(Some(export::write_output(
        dir,
        "keys.txt",
        text.as_bytes(),
    )?))
}

/// What [`rebuild`] wrote.
pub struct Rebuilt {
    pub ledger: Vec<ledger::LedgerRow>,
    pub run: RunRecord,
}

/// Refuses (before writing anything) a folder whose studies come from
/// different runs: another `--seed`, quick and full sizes mixed (a killed
/// `reproduce --seed 5` over an older run leaves both), or a study with both
/// more than one of `results.csv`, `.xz` and `.gz` (which is current cannot be told).
pub(crate) fn check_one_run(out: &Path, run: &RunRecord) -> Result<()> {
    let mut seen: Vec<(String, Option<u64>, bool)> = Vec::new();
    // the report writes into every study's folder: none may be a link
    export::contain::check_dir(out)?;
    for name in &run.studies {
        export::contain::check_dir(&out.join(name))?;
    }
    for name in &run.studies {
        let dir = out.join(name);
        let path = dir.join("manifest.json");
        let m = Manifest::from_bytes(&read(&path)?)
            .map_err(|e| Error::file(&path, format!("{e:#}")))?;
        seen.push((name.clone(), m.seed_overridden.then_some(m.seed), m.quick));
        let forms = export::outputs_present(&dir, "results.csv");
        if forms.len() > 1 {
            return Err(Error::file(
                &dir,
                format!(
                    "holds {}: remove the stale ones (the manifest lists the current one)",
                    forms
                        .iter()
                        .map(|p| export::file_name(p))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            ));
        }
    }
    // a study folder beside them that run.json does not list is still read:
    // one from a quick run among full ones (or the reverse) is another run's
    if let Ok(entries) = std::fs::read_dir(out) {
        let mut strays: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !run.studies.contains(n))
            .collect();
        strays.sort();
        for name in strays {
            let path = out.join(&name).join("manifest.json");
            if std::fs::symlink_metadata(&path).is_err() {
                continue;
            }
            let m = Manifest::from_bytes(&read(&path)?)
                .map_err(|e| Error::file(&path, format!("{e:#}")))?;
            if m.quick != run.quick {
                seen.push((name, m.seed_overridden.then_some(m.seed), m.quick));
            }
        }
    }
    let label = |(name, seed, quick): &(String, Option<u64>, bool)| {
        format!(
            "{name} ({}, {})",
            seed.map_or("its spec's seed".to_string(), |s| format!("--seed {s}")),
            if *quick { "quick" } else { "full" }
        )
    };
    let first = (
        run.studies.first().cloned().unwrap_or_default(),
        seen.first().and_then(|s| s.1),
        run.quick,
    );
    if let Some(other) = seen.iter().find(|s| (s.1, s.2) != (first.1, first.2)) {
        return Err(Error::Input(format!(
            "{}: its studies come from different runs: {} vs {}; rerun `sketchlab reproduce` into an empty --out, or --resume the run that was interrupted",
            out.display(),
            label(&first),
            label(other)
        )));
    }
    Ok(())
}

/// Rebuilds every study's summary and plots, claims.csv and REPORT.md from
/// the files under `out` alone.
pub fn rebuild(out: &Path) -> Result<Rebuilt> {
    let run = RunRecord::read_or_infer(out)?;
    if let Some(s) = &run.shard {
        return Err(Error::Input(format!(
            "{}: holds shard {s} of a run; build the report with `sketchlab merge` over every shard's folder",
            out.display()
        )));
    }
    check_one_run(out, &run)?;
    // the caller holds the folder's lock: a temporary there is a killed
    // writer's (a report or merge stopped mid-write), and goes
    export::remove_temporaries(out);
    for name in &run.studies {
        export::remove_temporaries(&out.join(name));
    }
    let studies = run
        .studies
        .iter()
        .map(|name| render_study(&out.join(name)))
        .collect::<Result<Vec<StudyFolder>>>()?;
    let mut rows = Vec::new();
    for st in &studies {
        rows.extend(
            st.spec
                .claims
                .iter()
                .map(|c| ledger::evaluate(c, &st.spec.name, &st.tables)),
        );
    }
    rows.extend(report::references::rows()?);
    ledger::sort(&mut rows);
    ledger::link(&mut rows).map_err(|e| Error::Input(format!("the claims ledger: {e}")))?;
    export::write_atomic(&out.join("claims.csv"), &ledger::to_csv(&rows)?)?;
    let results: Vec<report::StudyResult<'_>> = studies
        .iter()
        .map(|st| report::StudyResult {
            name: &st.spec.name,
            description: &st.spec.description,
            kind: st.spec.kind.name(),
            spec_path: &st.spec.path,
            // the trials run (a sequential study stops settings short of its budget)
            trials: if st.spec.sequential.is_some() {
                let c = st.tables.results.col("trial_id");
                let ids: std::collections::HashSet<String> = st
                    .tables
                    .results
                    .rows
                    .iter()
                    .map(|r| r[c].to_string())
                    .collect();
                ids.len()
            } else {
                st.manifest.trials
            },
            data: st
                .manifest
                .files
                .iter()
                .filter(|f| f.starts_with("results.csv") || f.starts_with("summary.csv"))
                .map(String::as_str)
                .collect(),
            section: st.spec.section(&st.tables),
            plots: &st.plots,
            seconds: st.manifest.seconds,
            seed_rows: st.spec.view.seed_rows(&st.tables),
            reconstructs: st.spec.view.decl().reconstructs,
        })
        .collect();
    let decision = studies
        .iter()
        .find_map(|st| super::view::filters::decision::choices(st.spec.kind.name(), &st.tables));
    let info = report::RunInfo {
        decision,
        quick: run.quick,
        threads: run.threads,
        seconds: run.seconds,
        finished_utc: run.finished_utc.clone(),
        git_revision: run.git_revision.clone(),
    };
    for st in &results {
        export::write_atomic(
            &out.join(st.name).join("README.md"),
            report::study_page(st, &rows).as_bytes(),
        )?;
        let page = report::html_study::page(st, &rows)
            .with_context(|| format!("reading the charts under {}", out.join(st.name).display()))?;
        export::write_atomic(&out.join(st.name).join("index.html"), page.as_bytes())?;
    }
    export::write_atomic(
        &out.join("LEDGER.md"),
        report::ledger_page(&rows).as_bytes(),
    )?;
    let md = report::render(&results, &rows, &info);
    export::write_atomic(&out.join("REPORT.md"), md.as_bytes())?;
    let html = report::html::render(&results, &rows, &info)
        .with_context(|| format!("reading the charts under {}", out.display()))?;
    export::write_atomic(&out.join("index.html"), html.as_bytes())?;
    Ok(Rebuilt { ledger: rows, run })
}
