//! `sketchlab keys check FILE`: the `key_hashing` study run on a user's key
//! file with every strategy (or `--hashes`), its table printed; with `--out`
//! the study's CSV, charts and manifest stay in `OUT/keys_check`.

use crate::error::{Error, Result};
use crate::experiment::Spec;
use crate::hashing::StrategyId;
use crate::workload::file::Format;
use std::path::{Path, PathBuf};

/// The temporary folder of a `keys check` without `--out`: this prefix and
/// its process id.
const TEMP_PREFIX: &str = "sketchlab-keys-check-";

/// Removes the temporary folders of earlier `keys check`s whose process is
/// gone (killed by SIGKILL, or crashed before it could clean up; Ctrl-C and
/// SIGTERM stop it cleanly): whatever ended them, the next one leaves none
/// behind.
fn remove_stale_temporaries() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        // sketchlab-keys-check-PID-RANDOM (or -PID, from older builds)
        let Some(pid) = name
            .strip_prefix(TEMP_PREFIX)
            .and_then(|p| p.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let alive = Path::new(&format!("/proc/{pid}")).exists();
        if !alive && e.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// The study text for one key file.
pub(super) fn spec_text(file: &Path, format: Format, hashes: &[StrategyId], n: u64) -> String {
    let path = file.display().to_string();
    let names: Vec<String> = hashes.iter().map(|h| format!("{:?}", h.name())).collect();
    format!(
        "name = \"keys_check\"\nkind = \"key_hashing\"\ndescription = \"sketchlab keys check {path}: every hash on one key file, beside a random function\"\nseed = 1\n\n[grid]\nkeys = {{ file = {}, format = {:?} }}\nhash = [{}]\nn = {n}\n",
        toml::Value::String(path.clone()),
        format.name(),
        names.join(", "),
    )
}

pub(super) fn keys_check(
    file: &Path,
    format: &str,
    hashes: &[String],
    n: u64,
    out: Option<&Path>,
    threads: usize,
) -> Result<()> {
    let format = Format::from_name(format).ok_or_else(|| {
        Error::Input(format!(
            "--format = {format:?}: must be one of {}",
            Format::NAMES.join(", ")
        ))
    })?;
    let hashes: Vec<StrategyId> = if hashes.is_empty() {
        StrategyId::ALL.to_vec()
    } else {
        hashes
            .iter()
            .map(|h| {
                StrategyId::from_name(h).ok_or_else(|| {
                    Error::Input(format!(
                        "--hashes: {h:?} must be one of {}",
                        StrategyId::names().join(", ")
                    ))
                })
            })
            .collect::<Result<_>>()?
    };
    let text = spec_text(file, format, &hashes, n);
    let spec = Spec::parse(Path::new("keys_check.toml"), &text)?;
    let kf = spec.key_files[0];
    let (dir, temporary) = match out {
        Some(d) => (d.to_path_buf(), false),
        None => {
            // a fresh private folder (mkdir, mode 0700, an unpredictable
            // name), never one that is already there; a TMPDIR that is not a
            // folder is refused, and nothing is created
            let tmp = std::env::temp_dir();
            if !std::fs::metadata(&tmp).is_ok_and(|m| m.is_dir()) {
                return Err(Error::Input(format!(
                    "the temporary folder {} (TMPDIR) is not a folder: set TMPDIR to one, or pass --out",
                    tmp.display()
                )));
            }
            remove_stale_temporaries();
            let d = tempfile::Builder::new()
                .prefix(&format!("{TEMP_PREFIX}{}-", std::process::id()))
                .tempdir_in(&tmp)
                .map_err(|e| {
                    Error::Other(anyhow::anyhow!(
                        "{}: cannot create a folder: {e}",
                        tmp.display()
                    ))
                })?;
            (d.keep(), true)
        }
    };
    let _lock = crate::experiment::lock::OutLock::acquire(&dir, true)?;
    let rendered =
        crate::experiment::own::run_spec(&spec, None, &dir, Some(threads)).map(|m| m.study);
    let cleanup = |d: &PathBuf| {
        if temporary {
            let _ = std::fs::remove_dir_all(d);
        }
    };
    let st = match rendered {
        Ok(st) => st,
        Err(e) => {
            cleanup(&dir);
            return Err(e);
        }
    };
    let section = spec.section(&st.tables);
    println!(
        "{}: {} records, {} duplicates dropped, {} distinct keys ({} bytes on disk{}, xxh3 {:016x}); {} hashed\n",
        kf.path,
        kf.records,
        kf.duplicates,
        kf.len(),
        kf.bytes,
        if kf.gzipped { ", gzip" } else { "" },
        kf.xxh3_64,
        n.min(kf.len())
    );
    print!(
        "{}",
        crate::export::text::terminal(&crate::export::markdown::table(&section.table))
    );
    println!("\n{}", section.reading);
    if !temporary {
        println!("\nwritten: {}", dir.join("keys_check").display());
    }
    cleanup(&dir);
    Ok(())
}

/// `sketchlab keys expand FILE [--trial ID]`.
pub(super) fn keys_expand(file: &Path, trial: Option<&str>) -> Result<()> {
    use std::io::Write;
    let trial = trial
        .map(|t| {
            u64::from_str_radix(t, 16)
                .map_err(|_| Error::Input(format!("--trial = {t:?}: a trial id is 16 hex digits")))
        })
        .transpose()?;
    let raw = crate::workload::file::read_regular(&file.display().to_string())?;
    // gzip (runs before xz) or xz, decompressed within the table bound
    let text = crate::input::unpack_by_magic(raw, crate::input::table_bound())
        .and_then(|b| {
            String::from_utf8(b)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
        })
        .map_err(|e| Error::file(file, format!("not a keys file: {e}")))?;
    let keys =
        crate::experiment::expand::expand_file(&text, trial).map_err(|e| Error::file(file, e))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for k in keys {
        writeln!(out, "{k}").map_err(super::keys::stdout_failed)?;
    }
    out.flush().map_err(super::keys::stdout_failed)
}
