//! Hostile inputs, round two (#40): every file sketchlab reads goes
//! through one layer that refuses what is not a regular file at once (a
//! FIFO would block a read forever) and bounds what it holds; `compare` and
//! `report` verify what they read and fail closed. Each case is exit 2 with
//! one line naming the file, within seconds, and nothing written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_sketchlab");

/// Runs sketchlab with `args`, killing it past 30 s (a blocked read).
fn run(args: &[&str], dir: &Path) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("sketchlab {args:?} still running after 30 s (a blocking read?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Exit 2, one line, naming `needle`.
fn refused(o: &Output, needle: &str, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert!(
        err.contains(needle) && err.trim_end().lines().count() == 1,
        "{what}: {err}"
    );
}

fn mkfifo(p: &Path) {
    let _ = std::fs::remove_file(p);
    assert!(
        Command::new("mkfifo")
            .arg(p)
            .status()
            .is_ok_and(|s| s.success())
    );
}

/// The two small studies' specs in `root/exp`.
fn small_exp(root: &Path) {
    let exp = root.join("exp");
    if !exp.exists() {
        std::fs::create_dir_all(&exp).unwrap();
        for s in ["bloom_overfill", "hll_registers"] {
            std::fs::copy(
                Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("experiments/{s}.toml")),
                exp.join(format!("{s}.toml")),
            )
            .unwrap();
        }
    }
}

/// The two small studies run into `out` by `reproduce --quick` (with
/// `extra` arguments: a shard).
fn small_reproduce(root: &Path, out: &str, extra: &[&str]) -> PathBuf {
    small_exp(root);
    let mut args = vec![
        "reproduce",
        "--quick",
        "--quiet",
        "--experiments",
        "exp",
        "--out",
        out,
    ];
    args.extend(extra);
    let o = run(&args, root);
    assert!(o.status.success(), "{o:?}");
    root.join(out)
}

/// Two small studies run into `out` by `reproduce --quick`.
fn small_run(root: &Path, out: &str) -> PathBuf {
    small_reproduce(root, out, &[])
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// A FIFO where sketchlab reads a journal, a shard journal, a manifest, a
/// run record, a claims ledger or a `--reference` is refused at once.
#[test]
fn a_fifo_in_place_of_any_file_sketchlab_reads_is_refused_at_once() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    let out = small_run(root, "out");
    // the journal of a study being resumed
    let a = root.join("a");
    copy_dir(&out, &a);
    mkfifo(&a.join("bloom_overfill/journal"));
    let o = run(
        &[
            "run",
            "exp/bloom_overfill.toml",
            "--quick",
            "--resume",
            "--out",
            "a",
        ],
        root,
    );
    refused(&o, "journal", "a FIFO journal");
    // a shard journal given to merge
    let s = root.join("s");
    std::fs::create_dir_all(s.join("bloom_overfill")).unwrap();
    mkfifo(&s.join("bloom_overfill/shard-0-of-1.journal"));
    let o = run(&["merge", "s", "--out", "m"], root);
    refused(&o, "a FIFO", "a FIFO shard journal");
    assert!(!root.join("m").exists());
    // a study's manifest, the run record, through report
    for (file, what) in [
        ("hll_registers/manifest.json", "a FIFO manifest"),
        ("run.json", "a FIFO run.json"),
    ] {
        let b = root.join("b");
        let _ = std::fs::remove_dir_all(&b);
        copy_dir(&out, &b);
        mkfifo(&b.join(file));
        let o = run(&["report", "b", "--quiet"], root);
        refused(&o, "a FIFO", what);
    }
    // claims.csv, through compare and claims
    let c = root.join("c");
    copy_dir(&out, &c);
    mkfifo(&c.join("claims.csv"));
    refused(
        &run(&["compare", "out", "c"], root),
        "a FIFO",
        "a FIFO claims.csv (compare)",
    );
    refused(
        &run(&["claims", "--out", "c"], root),
        "a FIFO",
        "a FIFO claims.csv (claims)",
    );
    // design's --reference
    mkfifo(&root.join("ref.csv"));
    let o = run(
        &[
            "design",
            "filter",
            "--n-expected",
            "1000",
            "--n-max",
            "1000",
            "--fpr",
            "0.01",
            "--hit-rate",
            "0.1",
            "--qps",
            "10",
            "--reference",
            "ref.csv",
            "--out",
            "dz",
        ],
        root,
    );
    refused(&o, "a FIFO", "a FIFO --reference");
    assert!(!root.join("dz").exists());
}

/// `compare` fails closed: a NEW side it cannot trust is exit 2 naming the
/// file, not a study skipped ("Only in OLD") that lets `--fail-on` pass.
#[test]
fn compare_fails_closed_on_what_it_cannot_trust() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    let out = small_run(root, "out");
    let rows = |dir: &Path| dir.join("bloom_overfill/results.csv");
    let fresh = |name: &str| {
        let p = root.join(name);
        let _ = std::fs::remove_dir_all(&p);
        copy_dir(&out, &p);
        p
    };
    let edit = |dir: &Path, f: &dyn Fn(String) -> String| {
        let text = std::fs::read_to_string(rows(dir)).unwrap();
        std::fs::write(rows(dir), f(text)).unwrap();
    };
    let compare = |new: &str| run(&["compare", "out", new, "--fail-on", "fpr_measured"], root);
    // the same run compares clean
    assert!(compare("out").status.success());
    // a truncated results file (its last row cut)
    let n = fresh("n1");
    edit(&n, &|t| {
        let mut l: Vec<&str> = t.lines().collect();
        l.pop();
        l.join("\n") + "\n"
    });
    refused(&compare("n1"), "manifest says", "a truncated results.csv");
    // a row repeated
    let n = fresh("n2");
    edit(&n, &|t| {
        let mut l: Vec<&str> = t.lines().collect();
        let last = l[l.len() - 1];
        let i = l.len() - 2;
        l[i] = last;
        l.join("\n") + "\n"
    });
    refused(
        &compare("n2"),
        "has no row",
        "a row replaced by a copy of another",
    );
    // a NaN metric
    let n = fresh("n3");
    edit(&n, &|t| {
        let mut l: Vec<String> = t.lines().map(String::from).collect();
        let mut cells: Vec<String> = l[1].split(',').map(String::from).collect();
        let last = cells.len() - 1;
        cells[last] = "NaN".into();
        l[1] = cells.join(",");
        l.join("\n") + "\n"
    });
    refused(&compare("n3"), "NaN", "a NaN metric");
    // an impossible count: more false positives than queries
    let n = fresh("n9");
    edit(&n, &|t| {
        let mut l: Vec<String> = t.lines().map(String::from).collect();
        let head: Vec<&str> = l[0].split(',').collect();
        let k = head.iter().position(|c| *c == "fpr_measured_k").unwrap();
        let nn = head.iter().position(|c| *c == "fpr_measured_n").unwrap();
        let mut cells: Vec<String> = l[1].split(',').map(String::from).collect();
        cells[k] = (cells[nn].parse::<u64>().unwrap() + 1).to_string();
        l[1] = cells.join(",");
        l.join("\n") + "\n"
    });
    refused(&compare("n9"), "a count must lie in [0, n]", "k > n");
    // a kind this build does not know
    let n = fresh("n4");
    let m = n.join("bloom_overfill/manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(
        &m,
        text.replace("\"kind\": \"bloom_overfill\"", "\"kind\": \"mystery\""),
    )
    .unwrap();
    refused(&compare("n4"), "mystery", "an unknown kind");
    // a malformed claims.csv, and a deleted one
    let n = fresh("n5");
    std::fs::write(n.join("claims.csv"), "claim,verdict?\nx\n").unwrap();
    refused(&compare("n5"), "claims.csv", "a malformed claims.csv");
    let n = fresh("n6");
    std::fs::remove_file(n.join("claims.csv")).unwrap();
    refused(&compare("n6"), "claims.csv", "a deleted claims.csv");
    // two folders claiming one study
    let n = fresh("n7");
    copy_dir(&n.join("bloom_overfill"), &n.join("bloom_overfill_copy"));
    refused(&compare("n7"), "both hold study", "two folders, one study");
    // an empty side, a spec edited after the run, a git path that does not exist
    std::fs::create_dir_all(root.join("empty")).unwrap();
    refused(&compare("empty"), "holds no study", "an empty side");
    let n = fresh("n8");
    let spec = n.join("bloom_overfill/spec.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(&spec, text + "\n# edited\n").unwrap();
    refused(&compare("n8"), "spec was edited", "an edited spec");
    let here = env!("CARGO_MANIFEST_DIR");
    let o = run(
        &["compare", "git:HEAD:no/such/folder", "reports"],
        Path::new(here),
    );
    refused(&o, "holds no study", "a git path that does not exist");
    let o = run(
        &["compare", "git:--output=/tmp/x", "reports"],
        Path::new(here),
    );
    refused(&o, "begin with '-'", "an option smuggled to git");
    // report fails closed on the same tampering
    refused(
        &run(&["report", "n2", "--quiet"], root),
        "has no row",
        "report: a replaced row",
    );
    refused(
        &run(&["report", "n8", "--quiet"], root),
        "spec was edited",
        "report: an edited spec",
    );
}

/// `reproduce --fail-on` with a metric no study measures is refused before
/// the run, not after it (nothing is written).
#[test]
fn a_bogus_fail_on_metric_is_refused_before_the_run() {
    let d = tempfile::tempdir().unwrap();
    let o = run(
        &[
            "reproduce",
            "--quick",
            "--baseline",
            "b",
            "--fail-on",
            "bogus",
            "--out",
            "o",
        ],
        d.path(),
    );
    refused(&o, "--fail-on bogus", "a bogus metric");
    assert!(!d.path().join("o").exists());
}

/// Runs sketchlab under `ulimit -v` (KiB of address space), stdin from `input`.
fn run_limited(kib: u64, args: &[&str], dir: &Path, input: Option<&Path>) -> Output {
    let mut line = format!("ulimit -v {kib} && exec '{BIN}'");
    for a in args {
        line += &format!(" '{a}'");
    }
    let stdin = match input {
        Some(p) => Stdio::from(std::fs::File::open(p).unwrap()),
        None => Stdio::null(),
    };
    Command::new("sh")
        .args(["-c", &line])
        .current_dir(dir)
        .stdin(stdin)
        .output()
        .unwrap()
}

/// Not killed by the allocator (exit 134, "memory allocation of … failed").
fn bounded(o: &Output, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("memory allocation") && o.status.code().is_some_and(|c| c == 0 || c == 2),
        "{what}: {:?} {err}",
        o.status
    );
}

/// A bomb of each kind under `ulimit -v`, far below what buffering it would
/// take: a gzip of one line repeated (300 MB inflated from ~300 KB), a
/// sparse 8 GiB file, a generator line asking for 10^12 keys, and 30
/// million keys on stdin. Each is streamed, deduplicated as it goes, or
/// refused before allocating, naming its size: never an allocation failure.
#[test]
fn bombs_of_every_kind_stay_inside_their_memory_bound() {
    use std::io::Write;
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    // gzip: one member of 1 MiB of a repeated line, concatenated 300 times
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&b"the-same-key\n".repeat((1 << 20) / 13))
        .unwrap();
    let member = z.finish().unwrap();
    let mut f = std::fs::File::create(root.join("bomb.gz")).unwrap();
    for _ in 0..300 {
        f.write_all(&member).unwrap();
    }
    drop(f);
    let o = run_limited(1_500_000, &["keys", "check", "bomb.gz"], root, None);
    bounded(&o, "a gzip of one line repeated");
    let o = run_limited(
        1_500_000,
        &["keys", "check", "bomb.gz", "--max-input-bytes", "100000000"],
        root,
        None,
    );
    bounded(&o, "a gzip past --max-input-bytes");
    refused(&o, "decompressed", "a gzip past --max-input-bytes");
    // a sparse file far past the bound
    let sparse = std::fs::File::create(root.join("sparse.bin")).unwrap();
    sparse.set_len(8 << 30).unwrap();
    let o = run_limited(
        1_000_000,
        &["keys", "check", "sparse.bin", "--format", "u64le"],
        root,
        None,
    );
    refused(&o, "8.0 GiB", "a sparse 8 GiB file");
    // a generator line asking for 10^12 keys
    let reference = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/hll_attack/keys.txt"),
    )
    .unwrap();
    let line = reference
        .lines()
        .find(|l| l.starts_with("@generate") && l.contains("n = 500000"))
        .unwrap()
        .replace("keys=500000", "keys=1000000000000")
        .replace("n = 500000", "n = 1000000000000");
    std::fs::write(root.join("keys.txt"), line + "\n").unwrap();
    let o = run_limited(1_000_000, &["keys", "expand", "keys.txt"], root, None);
    refused(
        &o,
        "regenerating these keys",
        "a generator line for 10^12 keys",
    );
    // 30 million distinct keys on stdin, about 400 MB: streamed into the sketch
    let mut f = std::io::BufWriter::new(std::fs::File::create(root.join("stdin.txt")).unwrap());
    for i in 0..30_000_000u64 {
        writeln!(f, "key-{i}").unwrap();
    }
    drop(f);
    let o = run_limited(
        400_000,
        &["estimate", "hll", "--p", "14"],
        root,
        Some(&root.join("stdin.txt")),
    );
    bounded(&o, "30 million keys on stdin");
    assert!(o.status.success());
    let est: f64 = String::from_utf8_lossy(&o.stdout)
        .split('\t')
        .nth(1)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // p = 14: RSE 1.04/128, about 0.8%; 5 sigma
    assert!((est / 3e7 - 1.0).abs() < 0.05, "{est}");
}

/// Rewrites the build recorded in a journal's header.
fn set_build(journal: &Path, build: &str) {
    let text = std::fs::read_to_string(journal).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let json = head.strip_prefix("sketchlab-journal 1 ").unwrap();
    let mut h: serde_json::Value = serde_json::from_str(json).unwrap();
    h["build"] = serde_json::Value::String(build.into());
    std::fs::write(journal, format!("sketchlab-journal 1 {h}\n{rest}")).unwrap();
}

/// A journal records the build that wrote it: a resume or a merge of
/// another build's records is refused naming both builds, unless
/// `--allow-other-build`; the merged manifest names the shards' revision,
/// not the merging binary's.
#[test]
fn records_from_another_build_are_refused_unless_allowed() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    std::fs::create_dir_all(root.join("exp")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/bloom_overfill.toml"),
        root.join("exp/bloom_overfill.toml"),
    )
    .unwrap();
    let shard = |i: u32, extra: &[&str]| {
        let mut a = vec![
            "run",
            "exp/bloom_overfill.toml",
            "--quick",
            "--quiet",
            "--out",
        ];
        let out = format!("s{i}");
        let sh = format!("{i}/2");
        a.extend([out.as_str(), "--shard", sh.as_str()]);
        a.extend(extra);
        run(&a, root)
    };
    for i in 0..2 {
        assert!(shard(i, &[]).status.success());
    }
    let j = |i: u32| root.join(format!("s{i}/bloom_overfill/shard-{i}-of-2.journal"));
    // a resume of another build's journal
    set_build(&j(0), "0.0.1 deadbeef");
    let o = shard(0, &["--resume"]);
    refused(&o, "0.0.1 deadbeef", "a resume of another build's journal");
    assert!(
        shard(0, &["--resume", "--allow-other-build"])
            .status
            .success()
    );
    // shards of two builds, then both of another build than the merge's
    let merge = |extra: &[&str]| {
        let mut a = vec!["merge", "s0", "s1", "--quiet", "--out", "m"];
        a.extend(extra);
        run(&a, root)
    };
    refused(
        &merge(&[]),
        "come from different runs",
        "shards of two builds",
    );
    assert!(!root.join("m").exists());
    set_build(&j(1), "0.0.1 deadbeef");
    refused(
        &merge(&[]),
        "this merge is build",
        "shards of another build",
    );
    assert!(!root.join("m").exists());
    assert!(merge(&["--allow-other-build"]).status.success());
    let m: serde_json::Value = serde_json::from_slice(
        &std::fs::read(root.join("m/bloom_overfill/manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(m["git_revision"], "deadbeef");
    assert_eq!(m["crate_version"], "0.0.1");
}

/// A long run whose stdout closes (`| head -0`) goes on and writes every
/// file: its product is the files, its lines a side channel.
#[test]
fn a_closed_stdout_does_not_end_a_run_early() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    std::fs::create_dir_all(root.join("exp")).unwrap();
    for s in ["bloom_overfill", "hll_registers"] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("experiments/{s}.toml")),
            root.join(format!("exp/{s}.toml")),
        )
        .unwrap();
    }
    let mut child = Command::new(BIN)
        .args(["reproduce", "--quick", "--experiments", "exp", "--out", "o"])
        .current_dir(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("stdout failed"));
    for f in ["claims.csv", "REPORT.md", "hll_registers/manifest.json"] {
        assert!(root.join("o").join(f).is_file(), "{f}");
    }
}

/// `plan` never runs the study it estimates: a study of one trial is not
/// calibrated (it once ran a 329 s trial to say how long it takes).
#[test]
fn plan_does_not_run_a_one_trial_study_to_time_it() {
    let d = tempfile::tempdir().unwrap();
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/crc32_forgery.toml");
    let start = Instant::now();
    let o = run(&["plan", spec.to_str().unwrap()], d.path());
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("1 trials")
            && text.contains("not run: the cheapest trial is 100% of the study's work"),
        "{text}"
    );
    assert!(start.elapsed() < Duration::from_secs(10));
}

/// `merge` writes nothing when a later study's shard holds a record whose
/// cell cannot be its column's type (a whole, checksummed record: the file
/// was edited, not torn): it once left the earlier studies merged.
#[test]
fn merge_writes_nothing_when_a_later_shard_is_bad() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    small_reproduce(root, "s", &["--shard", "0/1"]);
    let j = root.join("s/hll_registers/shard-0-of-1.journal");
    let text = std::fs::read_to_string(&j).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let (body, _) = lines[1].rsplit_once(' ').unwrap();
    let parts: Vec<&str> = body.splitn(4, ' ').collect();
    let mut rows: Vec<Vec<String>> = serde_json::from_str(parts[3]).unwrap();
    let last = rows[0].len() - 1;
    rows[0][last] = "abc".into();
    let body = format!(
        "{} {} {} {}",
        parts[0],
        parts[1],
        parts[2],
        serde_json::to_string(&rows).unwrap()
    );
    lines[1] = format!(
        "{body} {:016x}",
        xxhash_rust::xxh3::xxh3_64(body.as_bytes())
    );
    std::fs::write(&j, lines.join("\n") + "\n").unwrap();
    let o = run(&["merge", "s", "--out", "m"], root);
    refused(&o, "abc", "a bad cell in the later study's shard");
    assert!(!root.join("m").exists(), "merge wrote part of its output");
}

/// A tmpfs of `size` mounted at `dir` with `opts` (needs root, as CI has);
/// `None` elsewhere, and the test says it skipped. Unmounted on drop.
struct Mount(PathBuf);

impl Mount {
    fn new(dir: &Path, opts: &str) -> Option<Mount> {
        std::fs::create_dir_all(dir).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", opts, "tmpfs"])
            .arg(dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("skipped: mounting a tmpfs needs root (CI runs this test as root)");
        }
        ok.then(|| Mount(dir.to_path_buf()))
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// An I/O failure is exit 1 naming the file, never exit 2 (bad input), and
/// leaves nothing partial: `design` on a read-only file system, and
/// `hllpp-bias` onto a full disk (it once left a partial CSV and exit 2).
#[test]
fn io_failures_are_exit_1_and_leave_nothing_partial() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    let Some(_ro) = Mount::new(&root.join("ro"), "ro,size=64k") else {
        return;
    };
    let o = run(
        &[
            "design",
            "filter",
            "--n-expected",
            "1000",
            "--n-max",
            "1000",
            "--fpr",
            "0.01",
            "--hit-rate",
            "0.1",
            "--qps",
            "10",
            "--out",
            "ro/review",
        ],
        root,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("Read-only file system") && err.trim_end().lines().count() == 1,
        "{err}"
    );
    let Some(_full) = Mount::new(&root.join("full"), "size=16k") else {
        return;
    };
    let o = run(&["hllpp-bias", "--trials", "20", "full/bias.csv"], root);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("No space left on device"), "{err}");
    let left: Vec<_> = std::fs::read_dir(root.join("full")).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// `keys check` without `--out` leaves no temporary folder: its own is
/// removed when it ends (Ctrl-C and SIGTERM stop it cleanly), and those of
/// earlier checks whose process is gone (SIGKILL) are removed by the next; a
/// live one's is kept.
#[test]
fn keys_check_leaves_no_temporary_folder_behind() {
    let d = tempfile::tempdir().unwrap();
    let tmp = d.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let dead = (4_000_000..4_100_000u32)
        .find(|p| !Path::new(&format!("/proc/{p}")).exists())
        .unwrap();
    let stale = tmp.join(format!("sketchlab-keys-check-{dead}"));
    let live = tmp.join(format!("sketchlab-keys-check-{}", std::process::id()));
    for dir in [&stale, &live] {
        std::fs::create_dir_all(dir.join("keys_check")).unwrap();
    }
    let o = Command::new(BIN)
        .args([
            "keys",
            "check",
            "tests/keys/urls.txt",
            "--hashes",
            "xxh3_64",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let left: Vec<String> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        left,
        [live.file_name().unwrap().to_string_lossy()],
        "{left:?}"
    );
}

/// Nothing outside --out (#61): a link at a study's folder, at
/// `baselines/`, at the lock's name (a hard link too), or a study name in
/// run.json that leaves the folder, is refused with exit 2 naming it, and
/// the file or folder it points to is untouched.
#[test]
fn links_inside_out_are_refused_and_their_targets_untouched() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    let out = small_run(root, "r");
    let victim = root.join("victim");
    std::fs::create_dir_all(victim.join("main")).unwrap();
    std::fs::write(victim.join("results.csv"), "victim\n").unwrap();
    std::fs::write(victim.join("main/keep"), "keep\n").unwrap();
    let study = out.join("bloom_overfill");
    let moved = root.join("bloom_overfill.real");
    std::fs::rename(&study, &moved).unwrap();
    std::os::unix::fs::symlink(&victim, &study).unwrap();
    for args in [
        vec![
            "run",
            "exp/bloom_overfill.toml",
            "--quick",
            "--quiet",
            "--out",
            "r",
        ],
        vec!["report", "r"],
    ] {
        let o = run(&args, root);
        refused(&o, "symbolic link", &format!("{args:?}"));
    }
    assert_eq!(
        std::fs::read_to_string(victim.join("results.csv")).unwrap(),
        "victim\n"
    );
    assert_eq!(std::fs::read_dir(&victim).unwrap().count(), 2);
    std::fs::remove_file(&study).unwrap();
    std::fs::rename(&moved, &study).unwrap();
    // a linked baselines/ folder: nothing removed through it
    std::os::unix::fs::symlink(&victim, out.join("baselines")).unwrap();
    let o = run(
        &[
            "reproduce",
            "--quick",
            "--quiet",
            "--experiments",
            "exp",
            "--out",
            "r",
            "--save-baseline",
            "main",
        ],
        root,
    );
    refused(&o, "symbolic link", "--save-baseline through a link");
    assert!(victim.join("main/keep").is_file());
    std::fs::remove_file(out.join("baselines")).unwrap();
    // a hard link at the lock's name: the linked file is not rewritten
    let lock = out.join(".sketchlab.lock");
    std::fs::remove_file(&lock).unwrap();
    std::fs::hard_link(victim.join("results.csv"), &lock).unwrap();
    refused(
        &run(&["report", "r"], root),
        "hard link",
        "a hard-linked lock",
    );
    assert_eq!(
        std::fs::read_to_string(victim.join("results.csv")).unwrap(),
        "victim\n"
    );
    std::fs::remove_file(&lock).unwrap();
    // a study in run.json that names a folder outside OUT
    let record = out.join("run.json");
    let text = std::fs::read_to_string(&record).unwrap();
    std::fs::write(&record, text.replace("\"bloom_overfill\"", "\"../victim\"")).unwrap();
    refused(
        &run(&["report", "r"], root),
        "plain folder name",
        "../ in run.json",
    );
    assert_eq!(std::fs::read_dir(&victim).unwrap().count(), 2);
}

/// A single-file output (`hllpp-bias FILE`) replaces only a regular file:
/// a FIFO, a folder or a link there is refused before any work.
#[test]
fn single_file_outputs_replace_only_regular_files() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("fifo");
    mkfifo(&fifo);
    let dir = d.path().join("dir");
    std::fs::create_dir(&dir).unwrap();
    let target = d.path().join("target.csv");
    std::fs::write(&target, "mine\n").unwrap();
    let link = d.path().join("link.csv");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    for (p, needle) in [
        (&fifo, "not a regular file"),
        (&dir, "not a regular file"),
        (&link, "symbolic link"),
    ] {
        let o = run(
            &["hllpp-bias", "--trials", "1", p.to_str().unwrap()],
            d.path(),
        );
        refused(&o, needle, &p.display().to_string());
    }
    let m = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&m.file_type()));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine\n");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// A study may not take the name of a folder a run keeps beside its
/// studies (`quick`, `baselines`, `design`), and `keys check` refuses a
/// TMPDIR that is not a folder, creating nothing.
#[test]
fn reserved_names_and_a_missing_tmpdir_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let spec = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/bloom_overfill.toml"),
    )
    .unwrap()
    .replacen("name = \"bloom_overfill\"", "name = \"quick\"", 1);
    std::fs::write(d.path().join("quick.toml"), spec).unwrap();
    let o = run(&["run", "quick.toml", "--quick", "--out", "o"], d.path());
    refused(&o, "quick", "a study named quick");
    assert!(!d.path().join("o").exists());
    let missing = d.path().join("no/such/tmp");
    let o = Command::new(BIN)
        .args([
            "keys",
            "check",
            "tests/keys/urls.txt",
            "--hashes",
            "xxh3_64",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TMPDIR", &missing)
        .output()
        .unwrap();
    refused(&o, "TMPDIR", "a missing TMPDIR");
    assert!(!d.path().join("no").exists());
}

/// Text from a stranger stays text (#61): a spec description with raw
/// HTML, a link to `javascript:`, a line that would open a heading and an
/// escape sequence reaches the study's README.md escaped and the terminal
/// shown, not obeyed.
#[test]
fn injected_text_is_shown_not_obeyed() {
    let d = tempfile::tempdir().unwrap();
    let exp = d.path().join("exp");
    std::fs::create_dir_all(&exp).unwrap();
    let spec = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/bloom_overfill.toml"),
    )
    .unwrap()
    .replacen(
        "description = \"\"\"",
        "description = \"\"\"evil <script>alert(1)</script> <img src=x onerror=alert(2)>\n# heading [x](javascript:alert(3)) \\u001b[2J\n",
        1,
    );
    std::fs::write(exp.join("bloom_overfill.toml"), spec).unwrap();
    let o = run(&["list", "--experiments", "exp"], d.path());
    assert!(o.status.success(), "{o:?}");
    let listed = String::from_utf8_lossy(&o.stdout);
    assert!(
        !listed.contains('\u{1b}') && listed.contains("\\u{1b}"),
        "{listed}"
    );
    let o = run(
        &[
            "run",
            "exp/bloom_overfill.toml",
            "--quick",
            "--quiet",
            "--out",
            "o",
        ],
        d.path(),
    );
    assert!(o.status.success(), "{o:?}");
    let o = run(&["report", "o"], d.path());
    assert!(o.status.success(), "{o:?}");
    let page = std::fs::read_to_string(d.path().join("o/bloom_overfill/README.md")).unwrap();
    for raw in [
        "<script>",
        "<img",
        "[x](javascript:",
        "\n# heading",
        "\u{1b}",
    ] {
        assert!(!page.contains(raw), "{raw:?} in {page}");
    }
    assert!(
        page.contains("&lt;script>") && page.contains("\\# heading"),
        "{page}"
    );
}

/// `compare git:REV` reads git's output through the table bound: a blob
/// past `--max-input-bytes` is refused (exit 2), not buffered whole; a
/// bound so large it would wrap, and an --redis-url of another scheme, are
/// refused before anything runs.
#[test]
fn bounds_hold_for_git_blobs_and_option_extremes() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = run(
        &[
            "--max-input-bytes",
            "100000",
            "compare",
            "git:HEAD:reports",
            "reports",
        ],
        repo,
    );
    refused(&o, "more than", "a git blob past the bound");
    let o = run(&["--max-input-bytes", "18446744073709551615", "list"], repo);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let o = run(&["--redis-url", "http://127.0.0.1:80", "list"], repo);
    refused(&o, "redis://host:port", "an http URL");
    let o = run(
        &[
            "hllpp-bias",
            "--trials",
            "1000000000000",
            "/nonexistent/x.csv",
        ],
        repo,
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

/// `merge` into a folder holding another run (here a quick run of one
/// study only) is refused before anything is written, and `report` or
/// `compare` on a folder where a study run.json does not list comes from a
/// run of the other mode (full among quick) is refused as mixed.
#[test]
fn merge_and_compare_refuse_another_runs_folder() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    let out = small_run(root, "r");
    small_reproduce(root, "s", &["--shard", "0/1"]);
    // a folder holding a run of one study only
    let other = root.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let record = std::fs::read_to_string(out.join("run.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&record).unwrap();
    v["studies"] = serde_json::json!(["hll_registers"]);
    std::fs::write(other.join("run.json"), v.to_string()).unwrap();
    let before = std::fs::read(other.join("run.json")).unwrap();
    let o = run(&["merge", "s", "--out", "other"], root);
    refused(&o, "holds another run", "merge into another run's folder");
    assert_eq!(std::fs::read(other.join("run.json")).unwrap(), before);
    assert_eq!(std::fs::read_dir(&other).unwrap().count(), 1);
    // a quick run's folder with a stray full-size study run.json does not list
    let full = root.join("full");
    copy_dir(&out, &full);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(full.join("run.json")).unwrap()).unwrap();
    v["studies"] = serde_json::json!(["hll_registers"]);
    std::fs::write(full.join("run.json"), v.to_string()).unwrap();
    let m = full.join("bloom_overfill/manifest.json");
    let mut mv: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&m).unwrap()).unwrap();
    mv["quick"] = serde_json::json!(false);
    std::fs::write(&m, mv.to_string()).unwrap();
    for args in [vec!["report", "full"], vec!["compare", "r", "full"]] {
        let o = run(&args, root);
        refused(&o, "different runs", &format!("{args:?}"));
    }
}

/// Under `ulimit -v` the memory a plan may use is what the address space
/// still allows: a study needing gigabytes is refused before it runs (exit
/// 2), not killed by the allocator.
#[test]
fn the_address_space_limit_is_memory_the_plan_respects() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("big.toml"),
        "name = \"big\"\nkind = \"bloom_fpr\"\ndescription = \"a filter of 2e9 keys\"\nseed = 1\n\n[grid]\nn = 2_000_000_000\nbits_per_key = 10\nk = 7\nhash = \"xxh3\"\nkeys = \"u64\"\nqueries = 1000\n",
    )
    .unwrap();
    let o = run_limited(
        1_500_000,
        &["run", "big.toml", "--out", "o", "--quiet"],
        d.path(),
        None,
    );
    bounded(&o, "a 2.5 GB filter under ulimit -v 1.5 GB");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(!d.path().join("o/big/results.csv").exists());
}
