//! The trial journal: while a study runs, each finished trial's rows are
//! appended to `OUT/<study>/journal` (or to the shard's file), one line per
//! trial, so a killed run can resume without repeating finished trials, and a
//! shard's complete file is what `merge` reads.
//!
//! Format (text, one record per line):
//!
//! ```text
//! sketchlab-journal 1 {"kind":…,"spec_xxh3_64":…,"seed":…,"quick":…,"trials":…,"shard":…}
//! INDEX TRIAL_ID KEY [["cell",…],…] CHECK
//! …
//! complete CHECK                      (only in a finished shard file)
//! ```
//!
//! `KEY` is the per-process random key (32 hex digits) when the process had
//! drawn one by the time the trial finished (`hash_seed = "random"`), else `-`:
//! a resume adopts it, so every trial of the study uses one key.
//! `CHECK` is xxh3-64 of everything before it on the line, so a record torn
//! by a kill (a missing newline, a short write) is detected.
//!
//! A journal stays valid after any failed write: an append that fails (a
//! full disk) cuts the file back to its last whole record before it returns
//! the error, so the records other workers append once space returns are
//! whole lines after whole lines. Reading keeps every whole record wherever
//! damage is (a torn last line, or a damaged line in the middle of a file
//! written by an older build or hit by a storage error): the damaged lines'
//! trials run again, and a resume rewrites the journal without them. A
//! finished shard file must have none (`merge` refuses it). Cells are the
//! strings results.csv holds, so a resumed results.csv is byte-identical to
//! an uninterrupted one.

use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MAGIC: &str = "sketchlab-journal 1 ";

/// What a journal's rows depend on; a resume or a merge checks that it matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub study: String,
    /// Where the run found the spec (informational: not compared).
    pub spec_path: String,
    pub kind: String,
    pub spec_xxh3_64: String,
    pub seed: u64,
    pub quick: bool,
    /// Trials in the whole (unsharded) study.
    pub trials: usize,
    /// `[i, n]` for shard i of n.
    pub shard: Option<[u32; 2]>,
    /// The key files the rows drew from, `file:<format>:<path> xxh3=…`: a
    /// file changed since is refused on resume and merge.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key_files: Vec<String>,
    /// The build that wrote the records: `VERSION REVISION` ([`this_build`];
    /// empty in a journal from before builds were recorded). A resume or a
    /// merge refuses another build's records unless `--allow-other-build`.
    #[serde(default)]
    pub build: String,
}

/// This build: the crate version and the git revision of the checkout it
/// runs in (`-dirty` with uncommitted changes), or `unknown` outside one.
pub fn this_build() -> String {
    static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BUILD
        .get_or_init(|| {
            format!(
                "{} {}",
                env!("CARGO_PKG_VERSION"),
                crate::export::git_revision().unwrap_or_else(|| "unknown".into())
            )
        })
        .clone()
}

/// The git revision of a recorded build (`None` for `unknown` or none).
pub fn build_revision(build: &str) -> Option<String> {
    build
        .split_once(' ')
        .map(|(_, rev)| rev)
        .filter(|r| *r != "unknown" && !r.is_empty())
        .map(String::from)
}

static OTHER_BUILD_ALLOWED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// `--allow-other-build`: a resume or a merge takes records another build wrote.
pub fn allow_other_build(yes: bool) {
    OTHER_BUILD_ALLOWED.store(yes, std::sync::atomic::Ordering::Relaxed);
}

fn other_build_allowed() -> bool {
    OTHER_BUILD_ALLOWED.load(std::sync::atomic::Ordering::Relaxed)
}

impl Header {
    /// The first line (with its newline).
    pub fn line(&self) -> String {
        let json = serde_json::to_string(self).expect("a header serialises");
        format!("{MAGIC}{json}\n")
    }

    /// What differs between two headers, as `field: ours vs theirs` (empty when they match).
    pub fn differences(&self, other: &Header) -> Vec<String> {
        let mut d = Vec::new();
        let mut check = |name: &str, a: String, b: String| {
            if a != b {
                d.push(format!("{name} {a} vs {b}"));
            }
        };
        check("study", self.study.clone(), other.study.clone());
        check("kind", self.kind.clone(), other.kind.clone());
        check(
            "spec hash",
            self.spec_xxh3_64.clone(),
            other.spec_xxh3_64.clone(),
        );
        check("seed", self.seed.to_string(), other.seed.to_string());
        check("quick", self.quick.to_string(), other.quick.to_string());
        check("trials", self.trials.to_string(), other.trials.to_string());
        check("shard", shard_name(self.shard), shard_name(other.shard));
        check(
            "key files",
            self.key_files.join(", "),
            other.key_files.join(", "),
        );
        if !other_build_allowed() {
            let shown = |b: &str| {
                if b.is_empty() {
                    "(none recorded)".to_string()
                } else {
                    b.to_string()
                }
            };
            check(
                "build (--allow-other-build to take its records anyway)",
                shown(&self.build),
                shown(&other.build),
            );
        }
        d
    }
}

/// `3/8`, or `none`.
pub fn shard_name(s: Option<[u32; 2]>) -> String {
    s.map(|[i, n]| format!("{i}/{n}"))
        .unwrap_or_else(|| "none".into())
}

/// One finished trial: its position in the study's trial list, its identity,
/// and its rows as results.csv cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub index: usize,
    pub id: u64,
    /// The process random key, as `hi` then `lo` in hex, if one had been drawn.
    pub key: Option<String>,
    pub rows: Vec<Vec<String>>,
}

fn check(body: &str) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body.as_bytes()))
}

impl Record {
    pub fn line(&self) -> String {
        let body = format!(
            "{} {:016x} {} {}",
            self.index,
            self.id,
            self.key.as_deref().unwrap_or("-"),
            serde_json::to_string(&self.rows).expect("strings serialise")
        );
        let c = check(&body);
        format!("{body} {c}\n")
    }

    fn parse(line: &str) -> Option<Record> {
        let (body, c) = line.rsplit_once(' ')?;
        if check(body) != c {
            return None;
        }
        let mut it = body.splitn(4, ' ');
        let index = it.next()?.parse().ok()?;
        let id = u64::from_str_radix(it.next()?, 16).ok()?;
        let key = match it.next()? {
            "-" => None,
            k if k.len() == 32 && k.bytes().all(|b| b.is_ascii_hexdigit()) => Some(k.to_string()),
            _ => return None,
        };
        let rows = serde_json::from_str(it.next()?).ok()?;
        Some(Record {
            index,
            id,
            key,
            rows,
        })
    }
}

/// A journal read back from disk.
#[derive(Debug)]
pub struct Contents {
    pub header: Header,
    pub records: Vec<Record>,
    /// Bytes up to the end of the last good record (where appending resumes).
    pub good_len: u64,
    /// A torn or corrupt last line was discarded.
    pub torn: bool,
    /// Lines (counted from 1 after the header) before the last that were
    /// not whole records and were skipped.
    pub damaged: Vec<usize>,
    /// The file ends with the `complete` line (a finished shard).
    pub complete: bool,
    /// The seconds the finished shard took (from its `complete` line).
    pub seconds: f64,
}

fn complete_line(records: usize, seconds: f64) -> String {
    let body = format!("complete {records} {seconds}");
    let c = check(&body);
    format!("{body} {c}\n")
}

/// Reads a journal, keeping every whole record (see the module's notes on
/// damage). Errors (the caller reports them as input errors) for a file that
/// is not a journal.
pub fn read(path: &Path) -> anyhow::Result<Contents> {
    let bytes = crate::input::read(path, crate::input::table_bound())
        .with_context(|| format!("reading {}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    let header: Header = first
        .strip_prefix(MAGIC)
        .filter(|l| l.ends_with('\n'))
        .and_then(|l| serde_json::from_str(l.trim_end()).ok())
        .ok_or_else(|| anyhow::anyhow!("{}: not a sketchlab journal", path.display()))?;
    let mut good_len = first.len() as u64;
    let mut records = Vec::new();
    let mut torn = false;
    let mut damaged = Vec::new();
    let mut complete = false;
    let mut seconds = 0.0;
    let rest: Vec<&str> = lines.collect();
    for (i, line) in rest.iter().enumerate() {
        let last = i + 1 == rest.len();
        let whole = line.strip_suffix('\n');
        if let Some(secs) = whole.and_then(|l| parse_complete(l, records.len()))
            && last
        {
            complete = true;
            seconds = secs;
            good_len += line.len() as u64;
            break;
        }
        match whole.and_then(Record::parse) {
            Some(r) => {
                records.push(r);
                good_len += line.len() as u64;
            }
            None if last => torn = true,
            None => damaged.push(i + 1),
        }
    }
    Ok(Contents {
        header,
        records,
        good_len,
        torn,
        damaged,
        complete,
        seconds,
    })
}

/// The seconds of a valid `complete N SECONDS CHECK` line for `records` records.
fn parse_complete(line: &str, records: usize) -> Option<f64> {
    let (body, c) = line.rsplit_once(' ')?;
    let mut it = body.split(' ');
    (check(body) == c && it.next()? == "complete" && it.next()?.parse::<usize>().ok()? == records)
        .then_some(())?;
    it.next()?.parse().ok()
}

/// Appends records as trials finish (one record at a time under a lock,
/// from any thread).
pub struct Writer {
    path: PathBuf,
    /// The file, and its length up to the end of its last whole record.
    file: Mutex<(std::fs::File, u64)>,
    written: std::sync::atomic::AtomicUsize,
}

impl Writer {
    /// A new journal holding only `header`.
    pub fn create(path: &Path, header: &Header) -> anyhow::Result<Writer> {
        let mut f = crate::export::contain::open_in_place(
            path,
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true),
        )?;
        let line = header.line();
        f.write_all(line.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(Writer::wrap(path, f, line.len() as u64, 0))
    }

    /// Reopens a journal to append after its last whole record: a torn
    /// tail is cut off, and a journal with damaged lines in its middle is
    /// first rewritten (atomically) with its whole records only.
    pub fn reopen(path: &Path, contents: &Contents) -> anyhow::Result<Writer> {
        let good_len = if contents.damaged.is_empty() {
            contents.good_len
        } else {
            let mut text = contents.header.line();
            for r in &contents.records {
                text += &r.line();
            }
            crate::export::write_atomic(path, text.as_bytes())
                .with_context(|| format!("rewriting {}", path.display()))?;
            text.len() as u64
        };
        let f =
            crate::export::contain::open_in_place(path, std::fs::OpenOptions::new().write(true))?;
        f.set_len(good_len)
            .with_context(|| format!("truncating {}", path.display()))?;
        let mut f = f;
        use std::io::Seek;
        f.seek(std::io::SeekFrom::End(0))?;
        Ok(Writer::wrap(path, f, good_len, contents.records.len()))
    }

    fn wrap(path: &Path, file: std::fs::File, good_len: u64, written: usize) -> Writer {
        Writer {
            path: path.to_path_buf(),
            file: Mutex::new((file, good_len)),
            written: written.into(),
        }
    }

    /// Writes one line at the end of the last whole record; if the write
    /// fails, cuts the file back to that record and returns the error.
    fn write_line(&self, line: &str, doing: &str) -> anyhow::Result<()> {
        use std::io::Seek;
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let (f, good_len) = &mut *guard;
        if let Err(e) = f.write_all(line.as_bytes()) {
            let cut = f
                .set_len(*good_len)
                .and_then(|()| f.seek(std::io::SeekFrom::Start(*good_len)).map(drop));
            let kept = match cut {
                Ok(()) => "the journal keeps every record before it".to_string(),
                Err(c) => format!("cutting back its partial line failed too: {c}"),
            };
            return Err(anyhow::anyhow!(
                "{doing} {}: {e} ({kept})",
                self.path.display()
            ));
        }
        *good_len += line.len() as u64;
        Ok(())
    }

    /// Appends one record; the line reaches the file (the OS) before this returns.
    pub fn append(&self, r: &Record) -> anyhow::Result<()> {
        self.write_line(&r.line(), "appending to")?;
        self.written
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// Marks the journal complete (a shard file, which took `seconds`) and syncs it.
    pub fn finish(self, seconds: f64) -> anyhow::Result<()> {
        let n = self.written.load(std::sync::atomic::Ordering::Relaxed);
        self.write_line(&complete_line(n, seconds), "finishing")?;
        let (f, _) = self.file.into_inner().unwrap_or_else(|e| e.into_inner());
        f.sync_all().ok();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            study: "s".into(),
            spec_path: "experiments/s.toml".into(),
            kind: "k".into(),
            spec_xxh3_64: "00ff".into(),
            seed: 7,
            quick: true,
            trials: 3,
            shard: None,
            key_files: vec![],
            build: "0.1.0 abc".into(),
        }
    }

    fn rec(i: usize) -> Record {
        Record {
            index: i,
            id: 0xabc + i as u64,
            key: (i == 2).then(|| "0123456789abcdef0123456789abcdef".into()),
            rows: vec![vec![
                i.to_string(),
                "0.5".into(),
                "a \"q\", b".into(),
                String::new(),
            ]],
        }
    }

    #[test]
    fn round_trip_and_torn_tail() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("journal");
        let w = Writer::create(&p, &header()).unwrap();
        w.append(&rec(0)).unwrap();
        w.append(&rec(2)).unwrap();
        drop(w);
        let c = read(&p).unwrap();
        assert_eq!(
            (c.header.clone(), c.records.clone()),
            (header(), vec![rec(0), rec(2)])
        );
        assert!(!c.torn && !c.complete);
        let full = std::fs::read(&p).unwrap();
        // every cut inside the last record is detected and discarded
        let second = rec(2).line().len();
        for cut in 1..second {
            std::fs::write(&p, &full[..full.len() - cut]).unwrap();
            let c = read(&p).unwrap();
            assert_eq!(c.records, vec![rec(0)], "cut {cut}");
            assert!(c.torn, "cut {cut}");
            // appending after the cut gives a clean journal again
            let w = Writer::reopen(&p, &c).unwrap();
            w.append(&rec(1)).unwrap();
            w.finish(1.5).unwrap();
            let again = read(&p).unwrap();
            assert_eq!(again.records, vec![rec(0), rec(1)]);
            assert!(again.complete && !again.torn && again.seconds == 1.5);
        }
    }

    /// Damage before the last line (a changed record, a partial line a
    /// failed write left, two records run together) loses only the damaged
    /// lines: every whole record is kept, and a reopen rewrites the journal
    /// without them, so the next read is clean.
    #[test]
    fn damage_anywhere_keeps_every_whole_record() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("journal");
        let partial = rec(3).line();
        let mut text = header().line();
        text += &rec(0).line().replace("0.5", "0.6");
        text += &rec(1).line();
        text += &partial[..partial.len() / 2];
        text += &rec(4).line();
        text += &rec(2).line();
        std::fs::write(&p, text).unwrap();
        let c = read(&p).unwrap();
        assert_eq!(c.records, vec![rec(1), rec(2)]);
        assert_eq!(c.damaged, vec![1, 3]);
        assert!(!c.torn);
        let w = Writer::reopen(&p, &c).unwrap();
        w.append(&rec(0)).unwrap();
        drop(w);
        let again = read(&p).unwrap();
        assert_eq!(again.records, vec![rec(1), rec(2), rec(0)]);
        assert!(again.damaged.is_empty() && !again.torn);
        std::fs::write(&p, "results,csv\n").unwrap();
        assert!(
            read(&p)
                .unwrap_err()
                .to_string()
                .contains("not a sketchlab journal")
        );
    }

    /// A full disk mid-run (#40): on a 64 KiB tmpfs (mounting needs root,
    /// as CI has; elsewhere the test says it skipped) filled but for a few
    /// pages, appends fail once space runs out; each failure leaves the file
    /// at its last whole record, and once space returns the next appends are
    /// whole records after them: the journal reads back with no damage and
    /// every record whose append succeeded.
    #[test]
    fn a_failed_append_on_a_full_disk_leaves_only_whole_records() {
        let d = tempfile::tempdir().unwrap();
        let mnt = d.path().join("small");
        std::fs::create_dir(&mnt).unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(&mnt)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            eprintln!("skipped: mounting a small tmpfs needs root (CI runs this test as root)");
            return;
        }
        struct Unmount(PathBuf);
        impl Drop for Unmount {
            fn drop(&mut self) {
                let _ = std::process::Command::new("umount").arg(&self.0).status();
            }
        }
        let _unmount = Unmount(mnt.clone());
        let filler = mnt.join("filler");
        std::fs::write(&filler, vec![7u8; 48 << 10]).unwrap();
        let p = mnt.join("journal");
        let w = Writer::create(&p, &header()).unwrap();
        let wide = |i: usize| Record {
            rows: vec![vec!["x".repeat(700); 1]],
            ..rec(i)
        };
        let mut ok = Vec::new();
        let mut failures = 0;
        for i in 0..40 {
            match w.append(&wide(i)) {
                Ok(()) => ok.push(wide(i)),
                Err(e) => {
                    failures += 1;
                    let e = e.to_string();
                    assert!(
                        e.contains("No space left on device")
                            && e.contains("keeps every record before it"),
                        "{e}"
                    );
                    // what is on disk is whole records only
                    let c = read(&p).unwrap();
                    assert!(!c.torn && c.damaged.is_empty(), "after failure {failures}");
                    assert_eq!(c.records, ok);
                }
            }
            if failures == 3 && filler.exists() {
                // space returns while the run goes on
                std::fs::remove_file(&filler).unwrap();
            }
        }
        assert!(failures >= 3, "the disk never filled");
        assert!(ok.len() > 20, "appends after space returned: {}", ok.len());
        w.finish(2.0).unwrap();
        let c = read(&p).unwrap();
        assert_eq!(c.records, ok);
        assert!(c.complete && !c.torn && c.damaged.is_empty());
    }

    #[test]
    fn differences_name_the_field() {
        let mut b = header();
        b.seed = 8;
        b.shard = Some([1, 3]);
        assert_eq!(
            header().differences(&b),
            vec!["seed 7 vs 8".to_string(), "shard none vs 1/3".to_string()]
        );
    }
}
