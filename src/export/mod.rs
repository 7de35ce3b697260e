//! Exports: functions that return bytes (testable without files), and one
//! atomic writer.

pub mod contain;
pub mod csv;
pub mod html;
pub mod markdown;
pub mod text;

use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Writes `bytes` to a temporary file beside `path`, then renames it, so an
/// interrupted run never leaves a half-written file under the final name.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    // a link at the folder or the name, a second name of a file elsewhere,
    // a FIFO or a device: refused (exit 2), nothing written
    contain::check_dir(dir)?;
    contain::check_file(path)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) => (s, format!(".{e}")),
        None => (name, String::new()),
    };
    // created exclusively (O_EXCL: a link planted at the name is not
    // followed) under a name no one can predict, readable as File::create's
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{stem}.tmp-"))
        .suffix(&ext)
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary for {}", path.display()))?;
    // a failed write (a full disk) leaves no half-written temporary behind:
    // the temporary is removed when dropped
    tmp.write_all(bytes)
        .with_context(|| format!("writing {}", path.display()))?;
    tmp.as_file().sync_all().ok();
    tmp.persist(path).map(drop).map_err(|e| {
        anyhow::anyhow!(
            "renaming {} to {}: {}",
            e.file.path().display(),
            path.display(),
            e.error
        )
    })
}

/// Outputs (results.csv, summary.csv, keys.txt) larger than this are
/// written xz-compressed as `NAME.xz` (every reader takes either form, and
/// `NAME.gz` from runs before xz: [`read_output`]; pandas, R and `xzcat`
/// read them as they are).
pub const PACK_FROM_BYTES: usize = 64 * 1024;

/// The xz preset: 6 (the `xz` default). The committed reference's results
/// are 22% smaller than gzip -9 (5.7 against 7.3 MB); 9 saves under 1% more.
const XZ_PRESET: u32 = 6;

/// The packed forms an output may have, the current one first.
const PACKED: [&str; 2] = ["xz", "gz"];

/// The forms output `name` may have in `dir`: plain, then the packed ones.
fn forms(dir: &Path, name: &str) -> [PathBuf; 3] {
    [
        dir.join(name),
        dir.join(format!("{name}.{}", PACKED[0])),
        dir.join(format!("{name}.{}", PACKED[1])),
    ]
}

/// `bytes` as one xz stream (CRC-64 check, no timestamp: the same bytes for
/// the same content, whichever machine writes them, since the crate builds
/// its own liblzma).
pub fn xz(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut z = liblzma::write::XzEncoder::new(Vec::new(), XZ_PRESET);
    z.write_all(bytes)?;
    Ok(z.finish()?)
}

/// Writes output `name` into `dir`: plain, or xz-compressed as `name.xz`
/// when larger than [`PACK_FROM_BYTES`] (deterministic); the other forms,
/// left by an earlier run, are removed. Returns the path written.
pub fn write_output(dir: &Path, name: &str, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    let [plain, packed, legacy] = forms(dir, name);
    let (path, stale) = if bytes.len() > PACK_FROM_BYTES {
        write_atomic(&packed, &xz(bytes)?)?;
        (packed, [plain, legacy])
    } else {
        write_atomic(&plain, bytes)?;
        (plain, [packed, legacy])
    };
    for old in stale {
        if old.exists() {
            std::fs::remove_file(&old).with_context(|| format!("removing {}", old.display()))?;
        }
    }
    Ok(path)
}

/// Whether `path` is an output in a packed form (its name ends `.xz` or `.gz`).
pub fn is_packed(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| PACKED.contains(&e))
}

/// Whether `path` is an output in the form [`write_output`] gives `len` bytes.
pub fn has_current_form(path: &Path, len: usize) -> bool {
    let current = path.extension().is_some_and(|e| e == PACKED[0]);
    if len > PACK_FROM_BYTES {
        current
    } else {
        !is_packed(path)
    }
}

/// The path output `name` has in `dir`: `name`, else `name.xz`, else
/// `name.gz`, else `None`.
pub fn output_path(dir: &Path, name: &str) -> Option<PathBuf> {
    forms(dir, name).into_iter().find(|p| p.is_file())
}

/// The forms of output `name` present in `dir` (more than one is a folder
/// two runs wrote into).
pub fn outputs_present(dir: &Path, name: &str) -> Vec<PathBuf> {
    forms(dir, name)
        .into_iter()
        .filter(|p| p.is_file())
        .collect()
}

/// Reads output `name` from `dir`, plain or packed (see [`write_output`]).
pub fn read_output(dir: &Path, name: &str) -> std::io::Result<Vec<u8>> {
    let Some(path) = output_path(dir, name) else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "neither {name} nor {name}.xz nor {name}.gz in {}",
                dir.display()
            ),
        ));
    };
    crate::input::read_packed(&path, crate::input::table_bound())
}

/// [`read_output`] by path: `dir/name` or `dir/name.gz`.
pub fn read_output_at(path: &Path) -> std::io::Result<Vec<u8>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    read_output(dir, name)
}

/// The file name of a path (for a manifest's list).
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Removes the temporaries a killed writer left in `dir` (`.NAME.tmp-…`,
/// see [`write_atomic`]); the caller holds the directory's lock, so no live
/// writer owns them. Returns how many went.
pub fn remove_temporaries(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with('.') && name.contains(".tmp-") && e.path().is_file()
        })
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// One column of results.csv as its manifest describes it, so a results
/// folder explains itself to any reader: what the column is (a parameter,
/// the trial's id, a measurement, a formula's value, a property of the
/// setting, a timing), which declared field and which part of it (a
/// proportion's `x`, `x_lo`, `x_hi`, `x_k`, `x_n`), its type, how
/// replicates combine, which way it is better, and a parameter's words.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ColumnSchema {
    pub name: String,
    /// int, float, text, bool or int_or_text.
    #[serde(rename = "type")]
    pub ty: String,
    /// parameter, id, measured, timing, theory or setting.
    pub role: String,
    /// The declared field the column belongs to (`fpr` for `fpr_lo`).
    pub field: String,
    /// Which part of the field: value, lo, hi (95%), lo999, hi999 (99.9%),
    /// k (successes), n (trials).
    pub part: String,
    /// The field's shape: scalar, interval, proportion or estimate.
    pub shape: String,
    /// How summary.csv combines replicates (a metric's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agg: Option<String>,
    /// higher, lower or neither (a metric's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub better: Option<String>,
    /// What one unit of a metric is: ns, bytes, bits_per_key, fraction,
    /// relative_error, ratio, count … (`experiment::row::Unit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// A parameter's allowed words, when it is a closed set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// A parameter's meaning (its declaration's help).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub about: String,
}

/// What produced a results.csv.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub study: String,
    pub kind: String,
    pub spec_path: String,
    pub spec_xxh3_64: String,
    pub seed: u64,
    pub seed_overridden: bool,
    pub quick: bool,
    pub threads: usize,
    pub trials: usize,
    /// Rows in results.csv (more than trials for a kind with checkpoints along each trial).
    pub rows: usize,
    /// Independent trials per setting.
    pub replicates: u32,
    pub crate_version: String,
    pub git_revision: Option<String>,
    /// The per-process OS key, if any trial used `hash_seed = "random"`
    /// (such results are not reproducible; the key is recorded to explain them).
    pub process_random_key: Option<String>,
    /// False when the kind's rows cannot be byte-reproduced (timing, or a
    /// peer that draws its own OS randomness).
    pub reproducible: bool,
    pub started_utc: String,
    pub finished_utc: String,
    pub seconds: f64,
    /// Trials taken from a journal (`--resume`) or from shards (`merge`) rather than run by this process.
    #[serde(default)]
    pub resumed_trials: usize,
    /// The process's peak resident set when the study finished (Linux VmHWM; in
    /// `reproduce` the peak over every study so far).
    #[serde(default)]
    pub peak_rss_bytes: Option<u64>,
    /// How a sequential study's settings stopped (`[sequential]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequential: Option<String>,
    /// The key files the study drew keys from (`keys = { file = … }`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key_files: Vec<KeyFileInfo>,
    /// Parameters a key file set in place of the kind's default (`queries`
    /// lowered to what the file leaves for absent keys), as sentences.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub derived_from_key_files: Vec<String>,
    pub files: Vec<String>,
    pub command: Vec<String>,
    /// Every column of results.csv, described (see [`ColumnSchema`]); empty
    /// in a manifest older than the schema (`report` fills it in).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<ColumnSchema>,
}

/// What a manifest says about one key file a study read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeyFileInfo {
    /// The path as the spec gave it.
    pub path: String,
    pub format: String,
    pub gzipped: bool,
    /// The file's length on disk.
    pub bytes: u64,
    /// xxh3-64 of the file's bytes on disk (hex).
    pub xxh3_64: String,
    /// Records read (lines, or 8-byte records).
    pub records: u64,
    pub duplicates_dropped: u64,
    pub distinct_keys: u64,
    /// How trials draw their present and absent keys from it.
    pub split: String,
}

impl Manifest {
    pub fn from_bytes(b: &[u8]) -> anyhow::Result<Manifest> {
        Ok(serde_json::from_slice(b)?)
    }

    /// Pretty JSON, each column of the schema on one line (readable, and a
    /// third of the bytes the schema takes pretty-printed).
    pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
        let mut head = self.clone();
        let columns = std::mem::take(&mut head.columns);
        let mut v = serde_json::to_vec_pretty(&head)?;
        if !columns.is_empty() {
            if !v.ends_with(b"\n}") {
                return Err(crate::error::bug("a manifest's JSON does not end in \\n}"));
            }
            v.truncate(v.len() - 2);
            v.extend_from_slice(b",\n  \"columns\": [\n");
            for (i, c) in columns.iter().enumerate() {
                v.extend_from_slice(b"    ");
                v.extend(serde_json::to_vec(c)?);
                if i + 1 < columns.len() {
                    v.push(b',');
                }
                v.push(b'\n');
            }
            v.extend_from_slice(b"  ]\n}");
        }
        v.push(b'\n');
        Ok(v)
    }
}

/// The git revision of the checkout this process started in (with `-dirty`
/// if the tree had changes), if git and a repository are available. Read
/// once, at the first call (`app::run` makes it at start): a long run's
/// manifests name the tree it started from, not one edited while it ran.
pub fn git_revision() -> Option<String> {
    static REV: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    REV.get_or_init(read_git_revision).clone()
}

fn read_git_revision() -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let rev = String::from_utf8(out.stdout).ok()?.trim().to_string();
    let dirty = std::process::Command::new("git")
        // the default output folder holds the committed reference report,
        // which a run rewrites: it does not make the code dirty
        .args([
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ".",
            ":(exclude)reports",
        ])
        .output()
        .ok()
        .map(|o| !o.stdout.is_empty())
        .unwrap_or(false);
    Some(if dirty { format!("{rev}-dirty") } else { rev })
}

/// RFC 3339 UTC time, e.g. `2026-12-02T10:03:55Z`.
pub fn utc(t: SystemTime) -> String {
    let secs = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod pack_tests {
    use super::*;

    #[test]
    fn large_outputs_are_packed_deterministically_and_read_back() {
        let d = tempfile::tempdir().unwrap();
        let small = b"a,b\n1,2\n".to_vec();
        let large: Vec<u8> = (0..PACK_FROM_BYTES + 1)
            .map(|i| b'0' + (i % 10) as u8)
            .collect();
        let p = write_output(d.path(), "results.csv", &large).unwrap();
        assert_eq!(file_name(&p), "results.csv.xz");
        assert!(has_current_form(&p, large.len()) && is_packed(&p));
        let first = std::fs::read(&p).unwrap();
        assert!(first.len() < large.len() / 10);
        assert_eq!(read_output(d.path(), "results.csv").unwrap(), large);
        // the same content gives the same bytes
        write_output(d.path(), "results.csv", &large).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), first);
        // a small rewrite replaces the packed file, and the reverse
        let p = write_output(d.path(), "results.csv", &small).unwrap();
        assert_eq!(file_name(&p), "results.csv");
        assert!(!d.path().join("results.csv.xz").exists());
        assert_eq!(read_output(d.path(), "results.csv").unwrap(), small);
        write_output(d.path(), "results.csv", &large).unwrap();
        assert!(!d.path().join("results.csv").exists());
        assert!(read_output(d.path(), "keys.txt").is_err());
        // a run before xz wrote gzip: read as it is, and replaced (with
        // nothing stale left) when written again
        std::fs::remove_file(d.path().join("results.csv.xz")).unwrap();
        let mut gz = flate2::GzBuilder::new().write(Vec::new(), flate2::Compression::best());
        gz.write_all(&large).unwrap();
        std::fs::write(d.path().join("results.csv.gz"), gz.finish().unwrap()).unwrap();
        let old = output_path(d.path(), "results.csv").unwrap();
        assert!(is_packed(&old) && !has_current_form(&old, large.len()));
        assert_eq!(read_output(d.path(), "results.csv").unwrap(), large);
        write_output(d.path(), "results.csv", &large).unwrap();
        assert_eq!(
            outputs_present(d.path(), "results.csv"),
            vec![d.path().join("results.csv.xz")]
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn utc_format() {
        assert_eq!(utc(SystemTime::UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_205_835);
        assert_eq!(utc(t), "2026-12-02T10:03:55Z");
    }

    #[test]
    fn atomic_write_leaves_no_tmp() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.csv");
        write_atomic(&p, b"x,y\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"x,y\n");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    /// A link planted at an output's name, or at its folder, is refused
    /// (exit 2) and the file it points to is untouched; so is a hard link.
    #[test]
    fn atomic_write_refuses_links() {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim.csv");
        std::fs::write(&victim, "mine").unwrap();
        let out = d.path().join("out");
        std::fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&victim, out.join("results.csv")).unwrap();
        std::fs::hard_link(&victim, out.join("summary.csv")).unwrap();
        std::os::unix::fs::symlink(d.path(), out.join("study")).unwrap();
        for p in ["results.csv", "summary.csv", "study/victim.csv"] {
            let e = write_atomic(&out.join(p), b"x").unwrap_err();
            assert_eq!(crate::error::Error::Other(e).exit_code(), 2, "{p}");
        }
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine");
    }
}
