//! `sketchlab merge`: assembles the shard files of `--shard i/N` runs into
//! the folder an unsharded run would have written. Everything is checked
//! before anything is written: every study's shards complete and from the
//! same run (spec hash, seed, quick flag, shard count), every trial exactly
//! once and in the shard the assignment gives it.

use super::journal::{self, Contents, Record};
use super::report_stage::{self, RunRecord};
use super::runner::{self, RunOptions};
use super::spec::Spec;
use crate::error::{Error, Result};
use crate::export;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One study's shards, checked and assembled.
struct Merged {
    spec: Spec,
    opts: RunOptions,
    records: Vec<Record>,
    seconds: f64,
    /// Per trial: whether the sequential rule asks for it.
    wanted: Vec<bool>,
    /// The per-process random key the shards' trials used, if any.
    key: Option<String>,
    /// The build that wrote the shards.
    build: String,
}

/// The per-process random key the shards' `hash_seed = "random"` trials
/// used, if any. Shards place all such trials together, so one process drew
/// it; shards from two processes measured two hash functions and are refused
/// (exit 2, naming both keys) rather than merged into a mix.
fn one_random_key(name: &str, shards: &[(PathBuf, Contents)]) -> Result<Option<String>> {
    let mut key: Option<(&str, u32)> = None;
    for (path, c) in shards {
        let i = c.header.shard.map(|[i, _]| i).unwrap_or(0);
        for k in c.records.iter().filter_map(|r| r.key.as_deref()) {
            match key {
                None => key = Some((k, i)),
                Some((first, j)) if first != k => {
                    return Err(Error::file(
                        path,
                        format!(
                            "{name}: shard {i} used the random hash key {k} and shard {j} the key {first}: trials with hash_seed = \"random\" cannot be merged across processes; rerun the shard that holds them"
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
    }
    Ok(key.map(|(k, _)| k.to_string()))
}

/// Every `OUT/<study>/shard-I-of-N.journal` under the given folders.
fn shard_files(dirs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for d in dirs {
        let rd = std::fs::read_dir(d)
            .map_err(|e| Error::Input(format!("{}: cannot read: {e}", d.display())))?;
        let mut subdirs: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        subdirs.sort();
        for s in subdirs {
            let Ok(rd) = std::fs::read_dir(&s) else {
                continue;
            };
            let mut found: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".journal"))
                })
                .collect();
            found.sort();
            files.extend(found);
        }
    }
    Ok(files)
}

/// Checks one study's shard files and puts its records in trial order.
fn merge_study(name: &str, shards: &[(PathBuf, Contents)], threads: usize) -> Result<Merged> {
    let (first_path, first) = &shards[0];
    let count = first.header.shard.map(|[_, n]| n).unwrap_or(0);
    let mut by_index: BTreeMap<u32, &PathBuf> = BTreeMap::new();
    for (path, c) in shards {
        let Some([i, n]) = c.header.shard else {
            return Err(Error::file(
                path,
                "not a shard file (no shard in its header)",
            ));
        };
        let mut want = first.header.clone();
        want.shard = Some([i, count]);
        let diff = c.header.differences(&want);
        if !diff.is_empty() || n != count {
            return Err(Error::Input(format!(
                "{name}: {} and {} come from different runs ({})",
                first_path.display(),
                path.display(),
                diff.join(", ")
            )));
        }
        if let Some(other) = by_index.insert(i, path) {
            return Err(Error::Input(format!(
                "{name}: shard {i}/{count} given twice: {} and {}",
                other.display(),
                path.display()
            )));
        }
        // a record written twice is damage (no run writes one twice): say
        // so before "incomplete", whose advice (--resume) would refuse it too
        let mut seen = std::collections::HashSet::new();
        if let Some(r) = c.records.iter().find(|r| !seen.insert(r.index)) {
            return Err(Error::file(
                path,
                format!(
                    "trial {} ({:016x}) is recorded twice: the file was damaged or edited; rerun shard {i}/{count} without --resume",
                    r.index, r.id
                ),
            ));
        }
        if !c.damaged.is_empty() {
            return Err(Error::file(
                path,
                format!(
                    "line {} after the header is not a whole record (damaged storage or an interrupted write); rerun shard {i}/{count} with --resume, which keeps every whole record and runs the rest again",
                    c.damaged
                        .iter()
                        .map(|l| l.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        if !c.complete {
            return Err(Error::Input(format!(
                "{name}: {} is incomplete (its task is still running or was killed: rerun it with --resume)",
                path.display()
            )));
        }
    }
    // the merge renders the shards' rows: it must be their build too
    let here = journal::this_build();
    let mut want = first.header.clone();
    want.build = here.clone();
    if want
        .differences(&first.header)
        .iter()
        .any(|d| d.starts_with("build"))
    {
        return Err(Error::Input(format!(
            "{name}: the shards were written by build {}, this merge is build {here}; merge with that build, or pass --allow-other-build",
            if first.header.build.is_empty() {
                "(none recorded)"
            } else {
                &first.header.build
            }
        )));
    }
    let missing: Vec<String> = (0..count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(Error::Input(format!(
            "{name}: shard {} missing (have {} of {count})",
            missing.join(", "),
            by_index.len()
        )));
    }
    let spec_file = first_path.with_file_name("spec.toml");
    let source = crate::input::read_string(&spec_file, crate::input::SMALL)
        .map_err(|e| Error::file(&spec_file, format!("cannot read: {e}")))?;
    let spec = Spec::parse(Path::new(&first.header.spec_path), &source)?;
    if spec.source_hash != first.header.spec_xxh3_64 {
        return Err(Error::file(
            &spec_file,
            format!(
                "hash {} is not the shards' spec hash {}",
                spec.source_hash, first.header.spec_xxh3_64
            ),
        ));
    }
    let files: Vec<String> = spec.key_files.iter().map(|f| f.identity()).collect();
    if files != first.header.key_files {
        return Err(Error::Input(format!(
            "{name}: the shards drew keys from {}, but the key files now read {}: a key file changed since (rerun the shards)",
            first.header.key_files.join(", "),
            files.join(", ")
        )));
    }
    let opts = RunOptions {
        out: PathBuf::new(),
        quick: first.header.quick,
        threads,
        seed: (first.header.seed != spec.seed).then_some(first.header.seed),
        resume: false,
        shard: None,
    };
    let trials = runner::trials(&spec, &opts);
    let assigned = runner::shard_of(&spec, &trials, count);
    let mut slots: Vec<Option<Record>> = vec![None; trials.len()];
    for (path, c) in shards {
        let i = c.header.shard.map(|[i, _]| i).unwrap_or(0);
        for r in &c.records {
            let t = trials.get(r.index);
            if t.is_none_or(|t| t.id != r.id) || assigned[r.index] != i {
                return Err(Error::file(
                    path,
                    format!(
                        "trial {} ({:016x}) does not belong to shard {i}/{count} of this spec",
                        r.index, r.id
                    ),
                ));
            }
            if slots[r.index].replace(r.clone()).is_some() {
                return Err(Error::file(
                    path,
                    format!("trial {} ({:016x}) appears twice", r.index, r.id),
                ));
            }
        }
    }
    let key = one_random_key(name, shards)?;
    // a sequential study needs the trials its rule asks for, no fewer, no more
    let have: std::collections::HashMap<usize, Record> = slots
        .iter()
        .flatten()
        .map(|r| (r.index, r.clone()))
        .collect();
    let wanted = super::sequential::wanted(&spec, opts.quick, &trials, &have)?;
    if let Some(extra) = have.keys().filter(|&&i| !wanted[i]).min() {
        return Err(Error::Input(format!(
            "{name}: trial {extra} ({:016x}) is beyond what the spec's sequential rule asks for (the shards come from another rule)",
            trials[*extra].id
        )));
    }
    let absent: Vec<String> = slots
        .iter()
        .enumerate()
        .filter(|(i, s)| s.is_none() && wanted[*i])
        .map(|(i, _)| i.to_string())
        .collect();
    if !absent.is_empty() {
        return Err(Error::Input(format!(
            "{name}: {} of {} trials missing from the shards (trial {}{})",
            absent.len(),
            wanted.iter().filter(|w| **w).count(),
            absent[..absent.len().min(5)].join(", "),
            if absent.len() > 5 { ", …" } else { "" }
        )));
    }
    Ok(Merged {
        spec,
        opts,
        records: slots.into_iter().flatten().collect(),
        seconds: shards.iter().map(|(_, c)| c.seconds).sum(),
        wanted,
        key,
        build: first.header.build.clone(),
    })
}

/// Merges the shards under `dirs` into `out` and builds the report there.
pub fn merge(dirs: &[PathBuf], out: &Path, threads: usize) -> Result<report_stage::Rebuilt> {
    let started = std::time::SystemTime::now();
    let files = shard_files(dirs)?;
    if files.is_empty() {
        return Err(Error::Input(format!(
            "no shard files (OUT/<study>/shard-I-of-N.journal) under {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut groups: BTreeMap<String, Vec<(PathBuf, Contents)>> = BTreeMap::new();
    for f in files {
        let c = journal::read(&f).map_err(|e| Error::Input(format!("{e:#}")))?;
        groups
            .entry(c.header.study.clone())
            .or_default()
            .push((f, c));
    }
    // the report order of the runs' run.json (all shards of one run agree), else by name
    let records: Vec<RunRecord> = dirs
        .iter()
        .filter_map(|d| RunRecord::read(d).ok())
        .collect();
    let mut order: Vec<String> = records
        .first()
        .map(|r| r.studies.clone())
        .unwrap_or_default();
    if let Some(r) = records.iter().find(|r| r.studies != order) {
        return Err(Error::Input(format!(
            "the shard folders' run.json list different studies ({} vs {})",
            order.join(","),
            r.studies.join(",")
        )));
    }
    for name in groups.keys() {
        if !order.contains(name) {
            order.push(name.clone());
        }
    }
    if let Some(name) = order.iter().find(|n| !groups.contains_key(*n)) {
        return Err(Error::Input(format!(
            "{name}: listed in the shards' run.json but no folder holds a shard of it"
        )));
    }
    let merged = order
        .iter()
        .map(|name| merge_study(name, &groups[name], threads))
        .collect::<Result<Vec<Merged>>>()?;

    // every study's rows parsed before anything is written: a bad cell in
    // a later shard leaves no earlier study merged
    let tables = merged
        .iter()
        .map(|m| runner::to_table(&m.spec, &m.records))
        .collect::<Result<Vec<_>>>()?;
    // a folder holding another run (a quick run, other studies, a shard) is
    // not merged into: its report would be silently replaced
    if let Ok(existing) = RunRecord::read(out) {
        let quick = records.first().map(|r| r.quick);
        if existing.shard.is_some()
            || existing.studies != order
            || quick.is_some_and(|q| q != existing.quick)
        {
            return Err(Error::Input(format!(
                "{}: holds another run ({}{} studies: {}); merge into a new or empty folder",
                out.display(),
                if existing.quick { "quick, " } else { "" },
                existing.studies.len(),
                existing.studies.join(", ")
            )));
        }
    }
    // all checked: take the output directory (the inputs are only read), then write
    let _lock = super::lock::OutLock::acquire(out, true)?;
    // a killed merge's or report's temporaries: no live writer owns them now
    export::remove_temporaries(out);
    for (m, table) in merged.iter().zip(tables) {
        let dir = export::contain::dir_within(out, Path::new(&m.spec.name))?;
        let rows = export::write_output(&dir, "results.csv", &export::csv::to_bytes(&table)?)?;
        export::write_atomic(&dir.join("spec.toml"), m.spec.source.as_bytes())?;
        let mut manifest = runner::manifest(
            &m.spec,
            &m.opts,
            &table,
            &rows,
            m.records.len(),
            m.seconds,
            started,
        );
        // the rows are the shards' build's, not the merging binary's
        manifest.git_revision = journal::build_revision(&m.build);
        if let Some((version, _)) = m.build.split_once(' ') {
            manifest.crate_version = version.to_string();
        }
        manifest.sequential = super::sequential::describe(&m.spec, m.opts.quick, &m.wanted);
        if m.key.is_some() {
            manifest.process_random_key = m.key.clone();
            manifest.reproducible = false;
        }
        export::write_atomic(&dir.join("manifest.json"), &manifest.to_bytes()?)?;
    }
    RunRecord {
        quick: merged.first().is_some_and(|m| m.opts.quick),
        threads,
        seconds: merged.iter().map(|m| m.seconds).sum(),
        finished_utc: export::utc(std::time::SystemTime::now()),
        git_revision: merged
            .first()
            .and_then(|m| journal::build_revision(&m.build)),
        study_seconds: order
            .iter()
            .filter_map(|name| {
                let m = merged.iter().find(|m| &m.spec.name == name)?;
                Some(report_stage::StudySeconds {
                    study: name.clone(),
                    seconds: m.seconds,
                })
            })
            .collect(),
        studies: order,
        shard: None,
    }
    .write(out)?;
    report_stage::rebuild(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::journal::Header;

    fn shard(i: u32, keys: &[Option<&str>]) -> (PathBuf, Contents) {
        let records = keys
            .iter()
            .enumerate()
            .map(|(n, k)| Record {
                index: n,
                id: n as u64,
                key: k.map(String::from),
                rows: Vec::new(),
            })
            .collect();
        (
            PathBuf::from(format!("s{i}/x/shard-{i}-of-2.journal")),
            Contents {
                header: Header {
                    study: "x".into(),
                    spec_path: "x.toml".into(),
                    kind: "bloom_twins".into(),
                    spec_xxh3_64: "0".into(),
                    seed: 1,
                    quick: true,
                    trials: 4,
                    shard: Some([i, 2]),
                    key_files: vec![],
                    build: "0.1.0 abc".into(),
                },
                records,
                good_len: 0,
                torn: false,
                damaged: vec![],
                complete: true,
                seconds: 0.0,
            },
        )
    }

    #[test]
    fn shards_with_two_random_keys_are_refused_and_one_key_is_recorded() {
        let one = [shard(0, &[None, Some("aa")]), shard(1, &[Some("aa"), None])];
        assert_eq!(one_random_key("x", &one).unwrap().as_deref(), Some("aa"));
        let none = [shard(0, &[None]), shard(1, &[None])];
        assert_eq!(one_random_key("x", &none).unwrap(), None);
        let two = [shard(0, &[Some("aa")]), shard(1, &[Some("bb")])];
        let e = one_random_key("x", &two).unwrap_err().to_string();
        assert!(
            e.contains("shard 1 used the random hash key bb and shard 0 the key aa"),
            "{e}"
        );
    }
}
