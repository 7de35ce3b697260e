//! Trustworthy long runs: a study killed (SIGKILL) or interrupted (SIGINT)
//! and resumed gives a results.csv byte-identical to an uninterrupted run;
//! shards run as the Kubernetes Indexed Job runs them and merged equal an
//! unsharded run; the Slurm array and its merge run on a real one-node
//! Slurm cluster and equal an unsharded run (every study sharded, with the
//! sbatch files as shell scripts, is tests/studies/report.rs's); the Kubernetes file validates
//! against the Kubernetes schemas; merge refuses incomplete or mismatched
//! shards.

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_sketchlab");

/// 48 trials of ~50 ms each: long enough to be killed part-way.
const SLOW: &str = r#"name = "slow"
kind = "bloom_fpr"
description = "resume test"
seed = 5

[grid]
n = [1_000_000]
bits_per_key = [8, 10]
k = [3, 5, "optimal"]
hash = ["xxh3", "sip13"]
replicates = 4
queries = 1_000_000
"#;

fn spec(dir: &Path) -> PathBuf {
    let p = dir.join("slow.toml");
    std::fs::write(&p, SLOW).unwrap();
    p
}

/// The slow spec under `dir`, and the results.csv of a run of it alone.
fn spec_and_reference(dir: &Path, threads: &str) -> (PathBuf, Vec<u8>) {
    let spec = spec(dir);
    let alone = dir.join("alone");
    assert!(run(&spec, &alone, threads, &[]).status.success());
    let reference = sketchlab::export::read_output_at(&alone.join("slow/results.csv")).unwrap();
    (spec, reference)
}

fn run(spec: &Path, out: &Path, threads: &str, extra: &[&str]) -> std::process::Output {
    std::process::Command::new(BIN)
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--threads", threads, "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// Records (lines after the header) in a journal, 0 if absent.
fn records(journal: &Path) -> usize {
    std::fs::read_to_string(journal)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

/// Starts a run and returns it once its journal holds `at_least` records.
fn start_and_wait(spec: &Path, out: &Path, threads: &str, at_least: usize) -> std::process::Child {
    let mut child = std::process::Command::new(BIN)
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--threads", threads, "--out"])
        .arg(out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let journal = out.join("slow/journal");
    let t = Instant::now();
    while records(&journal) < at_least {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be interrupted"
        );
        assert!(t.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(2));
    }
    child
}

fn kill_and_resume(threads: &str) {
    let d = tempfile::tempdir().unwrap();
    let (spec, reference) = spec_and_reference(d.path(), threads);

    let out = d.path().join("killed");
    let mut child = start_and_wait(&spec, &out, threads, 4);
    let dead = child.id();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    // the killed run's lock file still names it; the OS released its lock, so
    // --resume takes the directory over
    let lock = out.join(sketchlab::experiment::lock::FILE);
    let line = std::fs::read_to_string(&lock).unwrap();
    assert!(line.starts_with(&format!("pid {dead} host ")), "{line}");
    let journal = out.join("slow/journal");
    let kept = records(&journal);
    assert!((4..48).contains(&kept), "{kept} records");
    assert!(sketchlab::export::output_path(&out.join("slow"), "results.csv").is_none());
    // a kill in the middle of a write leaves a torn last record: append one
    let text = std::fs::read_to_string(&journal).unwrap();
    let last = text.lines().last().unwrap();
    let mut torn = text.clone();
    torn.push_str(&last[..last.len() / 2]);
    std::fs::write(&journal, torn).unwrap();

    let resumed = run(&spec, &out, threads, &["--resume"]);
    assert!(resumed.status.success(), "{resumed:?}");
    let line = std::fs::read_to_string(&lock).unwrap();
    assert!(!line.starts_with(&format!("pid {dead} ")), "{line}");
    assert!(
        sketchlab::export::read_output_at(&out.join("slow/results.csv")).unwrap() == reference,
        "resumed results.csv differs (threads {threads})"
    );
    assert!(
        !journal.exists(),
        "the journal is removed when the study completes"
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("slow/manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["resumed_trials"], kept);
    // --resume on a complete study keeps it and runs nothing
    let again = run(&spec, &out, threads, &["--resume"]);
    assert!(again.status.success());
    assert!(sketchlab::export::read_output_at(&out.join("slow/results.csv")).unwrap() == reference);
    // rows written before the kind gained a column: --resume reruns the study
    let text = String::from_utf8(reference.clone()).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let older = format!("{}\n{rest}", &head[..head.rfind(',').unwrap()]);
    std::fs::write(out.join("slow/results.csv"), older).unwrap();
    assert!(run(&spec, &out, threads, &["--resume"]).status.success());
    assert!(
        sketchlab::export::read_output_at(&out.join("slow/results.csv")).unwrap() == reference,
        "results with another kind's columns were kept"
    );
}

/// Two runs started together on one output directory: exactly one proceeds,
/// the other exits 2 naming the holder and writes nothing, and the winner's
/// results are byte-identical to a run alone.
#[test]
fn two_runs_on_one_directory_one_proceeds_the_other_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let (spec, reference) = spec_and_reference(d.path(), "1");
    let out = d.path().join("shared");
    let start = || {
        std::process::Command::new(BIN)
            .arg("run")
            .arg(&spec)
            .args(["--quiet", "--threads", "1", "--out"])
            .arg(&out)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start(), start());
    let pids = [a.id(), b.id()];
    let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    let codes: Vec<Option<i32>> = outs.iter().map(|o| o.status.code()).collect();
    let winner = codes
        .iter()
        .position(|c| *c == Some(0))
        .expect("one run proceeds");
    let loser = 1 - winner;
    assert_eq!(codes[loser], Some(2), "{codes:?}");
    let err = String::from_utf8_lossy(&outs[loser].stderr);
    assert!(
        err.contains(&format!(
            "is in use by sketchlab pid {} on host ",
            pids[winner]
        )) && err.trim_end().ends_with("; wait, or use another --out")
            && err.trim_end().lines().count() == 1,
        "{err}"
    );
    assert!(
        sketchlab::export::read_output_at(&out.join("slow/results.csv")).unwrap() == reference,
        "the winner's results differ from a run alone"
    );
}

/// A full disk: exit 1 with one line naming the file, no half-written
/// temporary left, the journal intact; with space again, `--resume`
/// completes byte-identically to a run alone. The disk is a 32 KiB tmpfs,
/// which needs root (CI runs as root); elsewhere the test says it skipped.
#[test]
fn a_full_disk_fails_naming_the_file_and_resume_completes() {
    let d = tempfile::tempdir().unwrap();
    let (spec, reference) = spec_and_reference(d.path(), "2");
    let mnt = d.path().join("small");
    std::fs::create_dir(&mnt).unwrap();
    let mount = |opts: &str| {
        std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", opts, "tmpfs"])
            .arg(&mnt)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !mount("size=32k") {
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
    let out = mnt.join("out");
    let full = run(&spec, &out, "2", &[]);
    let err = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with(&format!("error: writing {}", out.display()))
            && err.contains("No space left on device")
            && err.trim_end().lines().count() == 1,
        "{err}"
    );
    let study = out.join("slow");
    let left: Vec<String> = std::fs::read_dir(&study)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(left.iter().all(|f| !f.contains(".tmp-")), "{left:?}");
    assert_eq!(records(&study.join("journal")), 48, "the journal is intact");
    // space again: the same mount, larger
    assert!(mount("remount,size=64m"), "remounting the tmpfs larger");
    let resumed = run(&spec, &out, "2", &["--resume"]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert!(
        sketchlab::export::read_output_at(&study.join("results.csv")).unwrap() == reference,
        "resumed after a full disk, results.csv differs"
    );
}

#[test]
fn sigkill_then_resume_is_byte_identical_in_parallel() {
    kill_and_resume("2");
}

#[test]
fn sigkill_then_resume_is_byte_identical_serially() {
    kill_and_resume("1");
}

#[test]
fn ctrl_c_stops_cleanly_keeps_the_journal_and_prints_the_resume_command() {
    stops_cleanly("-INT");
}

/// SIGTERM (a scheduler preempting a job, a plain `kill`) stops a run as
/// Ctrl-C does: after the running trials, the journal whole, exit 130.
#[test]
fn sigterm_stops_cleanly_as_ctrl_c_does() {
    stops_cleanly("-TERM");
}

fn stops_cleanly(signal: &str) {
    let d = tempfile::tempdir().unwrap();
    let spec = spec(d.path());
    let out = d.path().join("int");
    let child = start_and_wait(&spec, &out, "2", 3);
    let status = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let done = child.wait_with_output().unwrap();
    assert_eq!(done.status.code(), Some(130));
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(
        err.contains("trials of slow are kept in") && err.contains("--resume"),
        "{err}"
    );
    let kept = records(&out.join("slow/journal"));
    assert!((3..48).contains(&kept), "{kept}");
    // the journal is intact (no torn record: the running trials finished)
    let text = std::fs::read_to_string(out.join("slow/journal")).unwrap();
    assert!(text.ends_with('\n'));
    // a resume with another seed is refused: exit 2, the field named, nothing written
    let wrong = run(&spec, &out, "2", &["--resume", "--seed", "6"]);
    assert_eq!(wrong.status.code(), Some(2));
    let msg = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        msg.contains("seed 5 vs 6") && msg.lines().count() == 1,
        "{msg}"
    );
    assert!(sketchlab::export::output_path(&out.join("slow"), "results.csv").is_none());
    assert!(run(&spec, &out, "2", &["--resume"]).status.success());
    let whole = d.path().join("whole");
    assert!(run(&spec, &whole, "1", &[]).status.success());
    assert!(
        sketchlab::export::read_output_at(&out.join("slow/results.csv")).unwrap()
            == sketchlab::export::read_output_at(&whole.join("slow/results.csv")).unwrap()
    );
}

/// Three small studies (one with replicates, one with several rows per trial).
fn small_experiments(dir: &Path) -> PathBuf {
    let exp = dir.join("exp");
    std::fs::create_dir_all(&exp).unwrap();
    for name in ["bloom_overfill", "hll_registers", "count_min_examples"] {
        std::fs::copy(
            Path::new("experiments").join(format!("{name}.toml")),
            exp.join(format!("{name}.toml")),
        )
        .unwrap();
    }
    exp
}

fn reproduce(exp: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    std::process::Command::new(BIN)
        .args(["reproduce", "--quick", "--quiet", "--experiments"])
        .arg(exp)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// The files a scheduler-run must reproduce byte for byte.
fn assert_same_results(a: &Path, b: &Path, studies: &[&str]) {
    for s in studies {
        assert_same_rows(a, b, s);
    }
    assert_eq!(
        std::fs::read(a.join("claims.csv")).unwrap(),
        std::fs::read(b.join("claims.csv")).unwrap()
    );
}

/// One study's results and summary, byte for byte.
fn assert_same_rows(a: &Path, b: &Path, study: &str) {
    for f in ["results.csv", "summary.csv"] {
        let x = sketchlab::export::read_output_at(&a.join(study).join(f));
        let y = sketchlab::export::read_output_at(&b.join(study).join(f));
        assert_eq!(x.is_ok(), y.is_ok(), "{study}/{f}");
        assert!(x.ok() == y.ok(), "{study}/{f} differs");
    }
}

/// A YAML document's container: the command script, its environment, and the shared mount.
struct Container {
    script: String,
    env: Vec<(String, String)>,
    mount: String,
}

fn container(job: &yaml_rust2::Yaml) -> Container {
    let c = &job["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(c["command"][0].as_str(), Some("/bin/sh"));
    assert_eq!(c["command"][1].as_str(), Some("-c"));
    let env = c["env"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    Container {
        script: c["args"][0].as_str().unwrap().to_string(),
        env,
        mount: c["volumeMounts"][0]["mountPath"]
            .as_str()
            .unwrap()
            .to_string(),
    }
}

#[test]
fn kubernetes_indexed_job_commands_shard_and_merge_to_the_unsharded_run() {
    let text = std::fs::read_to_string("deploy/k8s/sketchlab-indexed-job.yaml").unwrap();
    let docs = yaml_rust2::YamlLoader::load_from_str(&text).unwrap();
    let jobs: Vec<&yaml_rust2::Yaml> = docs
        .iter()
        .filter(|d| d["kind"].as_str() == Some("Job"))
        .collect();
    assert_eq!(jobs.len(), 2);
    let shards = jobs
        .iter()
        .find(|j| j["spec"]["completionMode"].as_str() == Some("Indexed"))
        .expect("an Indexed Job");
    let merge = jobs
        .iter()
        .find(|j| j["spec"]["completionMode"].is_badvalue())
        .expect("a merge Job");
    assert_eq!(merge["spec"]["suspend"].as_bool(), Some(true));
    let completions = shards["spec"]["completions"].as_i64().unwrap();
    let run = container(shards);
    let join = container(merge);
    let env = |c: &Container, k: &str| {
        c.env
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    assert_eq!(env(&run, "SHARDS"), completions.to_string());
    assert_eq!(env(&run, "SHARED"), run.mount);
    assert_eq!(env(&join, "SHARED"), join.mount);
    assert!(run.script.contains("sketchlab reproduce") && run.script.contains("--shard"));
    assert!(join.script.contains("sketchlab merge"));

    // the same scripts, as the pods run them: the binary on PATH, the shared
    // volume a local folder, the index Kubernetes would set, 3 shards
    let d = tempfile::tempdir().unwrap();
    let exp = small_experiments(d.path());
    let shared = d.path().join("shared");
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let flags = format!("--quick --experiments {}", exp.display());
    for (c, index) in [
        (&run, Some(0)),
        (&run, Some(1)),
        (&run, Some(2)),
        (&join, None),
    ] {
        let mut cmd = std::process::Command::new("/bin/sh");
        cmd.arg("-c").arg(&c.script).env("PATH", &path);
        for (k, v) in &c.env {
            cmd.env(k, v);
        }
        cmd.env("SHARDS", "3")
            .env("SHARED", &shared)
            .env("SKETCHLAB_FLAGS", &flags);
        if let Some(i) = index {
            cmd.env("JOB_COMPLETION_INDEX", i.to_string());
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{index:?}: {o:?}");
    }
    let whole = d.path().join("whole");
    assert!(reproduce(&exp, &whole, &[]).status.success());
    assert_same_results(
        &whole,
        &shared.join("merged"),
        &["bloom_overfill", "hll_registers", "count_min_examples"],
    );
    assert!(shared.join("merged/REPORT.md").is_file());
    assert!(shared.join("merged/hll_registers/manifest.json").is_file());
}

/// Runs `merge` and expects exit 2 with `needle` in its one-line message and nothing written.
fn merge_fails(dirs: &[&Path], out: &Path, needle: &str) {
    let o = Command::new(BIN)
        .arg("merge")
        .args(dirs)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{needle}: {err}");
    assert!(
        err.contains(needle) && err.trim().lines().count() == 1,
        "{needle}: {err}"
    );
    assert!(!out.exists(), "{needle}: merge wrote {}", out.display());
}

#[test]
fn merge_refuses_missing_duplicate_incomplete_and_mismatched_shards() {
    let d = tempfile::tempdir().unwrap();
    let exp = small_experiments(d.path());
    let s: Vec<PathBuf> = (0..2).map(|i| d.path().join(format!("s{i}"))).collect();
    for (i, dir) in s.iter().enumerate() {
        let o = reproduce(&exp, dir, &["--shard", &format!("{i}/2")]);
        assert!(o.status.success(), "{o:?}");
        // a shard's folder holds no report: `report` says to merge
        let r = Command::new(BIN).arg("report").arg(dir).output().unwrap();
        assert_eq!(r.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&r.stderr).contains("merge"));
    }
    let out = d.path().join("merged");
    merge_fails(&[&s[0]], &out, "shard 1/2 missing");
    merge_fails(&[&s[0], &s[0], &s[1]], &out, "given twice");
    // another seed: a different run
    let other = d.path().join("other");
    assert!(
        reproduce(&exp, &other, &["--shard", "1/2", "--seed", "3"])
            .status
            .success()
    );
    merge_fails(&[&s[0], &other], &out, "come from different runs");
    // another shard count
    let three = d.path().join("three");
    assert!(
        reproduce(&exp, &three, &["--shard", "1/3"])
            .status
            .success()
    );
    merge_fails(&[&s[0], &three], &out, "come from different runs");
    // a shard still running (or killed): no `complete` line
    let cut = d.path().join("cut");
    copy_dir(&s[1], &cut);
    let f = cut.join("hll_registers/shard-1-of-2.journal");
    let text = std::fs::read_to_string(&f).unwrap();
    let body = text.trim_end().rsplit_once('\n').unwrap().0;
    std::fs::write(&f, format!("{body}\n")).unwrap();
    merge_fails(&[&s[0], &cut], &out, "is incomplete");
    // a middle record written twice (damage): merge and --resume agree that
    // the shard must be run again without --resume
    let twice = d.path().join("twice");
    copy_dir(&s[1], &twice);
    let f = twice.join("hll_registers/shard-1-of-2.journal");
    let text = std::fs::read_to_string(&f).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 3, "{text}");
    let mut doubled: Vec<&str> = lines[..2].to_vec();
    doubled.extend_from_slice(&lines[1..]);
    std::fs::write(&f, doubled.join("\n") + "\n").unwrap();
    merge_fails(&[&s[0], &twice], &out, "is recorded twice");
    merge_fails(&[&s[0], &twice], &out, "without --resume");
    // a merge into a directory another sketchlab holds is refused, naming
    // it, and writes nothing there (merge locks its output only: the shard
    // folders it reads may be held by anyone)
    let busy = d.path().join("busy");
    let held = sketchlab::experiment::lock::OutLock::acquire(&busy, true).unwrap();
    let _reader = sketchlab::experiment::lock::OutLock::acquire(&s[0], false).unwrap();
    let o = Command::new(BIN)
        .arg("merge")
        .args(&s)
        .arg("--out")
        .arg(&busy)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is in use by sketchlab pid"), "{err}");
    assert_eq!(
        std::fs::read_dir(&busy).unwrap().count(),
        1,
        "only the lock"
    );
    drop(held);
    // and the complete set merges
    let ok = Command::new(BIN)
        .arg("merge")
        .args(&s)
        .arg("--out")
        .arg(&out)
        .args(["--quiet"])
        .output()
        .unwrap();
    assert!(ok.status.success(), "{ok:?}");
    let whole = d.path().join("whole");
    assert!(reproduce(&exp, &whole, &[]).status.success());
    assert_same_results(
        &whole,
        &out,
        &["bloom_overfill", "hll_registers", "count_min_examples"],
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

fn plan_json(args: &[&str]) -> serde_json::Value {
    let o = std::process::Command::new(BIN)
        .arg("plan")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The estimate (from parameters alone, before anything is allocated) against
/// the peak resident set the kernel reports for the real run, for three
/// studies whose peak is their trials', not the process's.
#[test]
fn plan_memory_is_within_2x_of_the_measured_peak() {
    let d = tempfile::tempdir().unwrap();
    for study in ["hash_width_floor", "hit_rate", "bloom_sizing"] {
        let plan = plan_json(&[study, "--quick", "--threads", "2"]);
        let est = plan["peak_bytes"].as_f64().unwrap();
        assert!(plan["estimated_seconds"].as_f64().unwrap() > 0.0);
        assert_eq!(plan["trials_without_estimate"], 0);
        let o = std::process::Command::new(BIN)
            .args(["run", study, "--quick", "--threads", "2", "--out"])
            .arg(d.path())
            .output()
            .unwrap();
        assert!(o.status.success());
        let first = String::from_utf8_lossy(&o.stdout);
        assert!(
            first
                .lines()
                .next()
                .unwrap()
                .starts_with(&format!("plan {study} (quick): ")),
            "{first}"
        );
        let m: serde_json::Value = serde_json::from_slice(
            &std::fs::read(d.path().join(study).join("manifest.json")).unwrap(),
        )
        .unwrap();
        let measured = m["peak_rss_bytes"].as_f64().unwrap();
        let ratio = est / measured;
        assert!(
            (0.5..=2.0).contains(&ratio),
            "{study}: estimated {est}, measured {measured} (ratio {ratio})"
        );
        // the trials dominate: the process alone is well under the peak
        assert!(
            plan["trial_peak_bytes"].as_f64().unwrap() * 2.0
                > plan["process_bytes"].as_f64().unwrap()
        );
    }
}

/// A run that cannot fit is refused before anything is allocated or written:
/// exit 2 and one line saying what to change.
#[test]
fn run_refuses_a_plan_that_does_not_fit_in_memory() {
    let avail = plan_json(&["bloom_overfill"])["available_bytes"]
        .as_f64()
        .unwrap();
    let d = tempfile::tempdir().unwrap();
    // one trial's filter at 0.7 of what is available: two at once do not fit, one does
    let n = (avail * 0.7).round() as u64; // bits_per_key 8: n bytes
    let spec = d.path().join("big.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"big\"\nkind = \"bloom_fpr\"\ndescription = \"d\"\nseed = 1\n[grid]\nn = {n}\nbits_per_key = 8\nk = [3, 4]\nqueries = 1\n"
        ),
    )
    .unwrap();
    let out = d.path().join("out");
    let refuse = |threads: &str, needle: &str| {
        let o = std::process::Command::new(BIN)
            .arg("run")
            .arg(&spec)
            .args(["--quiet", "--threads", threads, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(needle) && err.trim().lines().count() == 1,
            "{err}"
        );
        assert!(!out.exists());
    };
    refuse("2", "run fewer trials at once (--threads 1)");
    // one trial larger than what is available: no thread count helps
    let bigger = (avail * 1.2).round() as u64;
    std::fs::write(
        &spec,
        std::fs::read_to_string(&spec)
            .unwrap()
            .replace(&format!("n = {n}"), &format!("n = {bigger}")),
    )
    .unwrap();
    refuse("1", "make the largest trial smaller");
}

/// Sequential sampling (`[sequential]`): 1,000-key filters whose 10-bit
/// setting gains replicates until the FPR formula is decided at ±10%.
const SEQUENTIAL: &str = r#"name = "seq"
kind = "double_hashing"
description = "sequential sampling"
seed = 7

[grid]
n = 1000
bits_per_key = [4, 10, 16]
k = 7
scheme = "independent"
queries = 20000
replicates = 2

[sequential]
claims = ["formula", "half"]
batch = 6
budget = 62

[[claim]]
id = "formula"
document = "000"
quote = "q"
documented = 0.00819
unit = "FPR"
select = { bits_per_key = 10 }
metric = "fpr_measured"
table = "summary"
basis = "measured"
type = "approximation"
quantity = "approx"

[[claim]]
id = "half"
document = "000"
quote = "q"
documented = 0.5
unit = "FPR"
select = { bits_per_key = 4 }
metric = "fpr_measured"
table = "summary"
basis = "measured"
type = "approximation"
quantity = "approx"
"#;

/// `reproduce` of the experiments in `exp` at full size.
fn reproduce_full(exp: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    std::process::Command::new(BIN)
        .args(["reproduce", "--quiet", "--experiments"])
        .arg(exp)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn sequential_sampling_is_the_same_sharded_merged_and_at_any_thread_count() {
    let d = tempfile::tempdir().unwrap();
    let exp = d.path().join("exp");
    std::fs::create_dir_all(&exp).unwrap();
    std::fs::write(exp.join("seq.toml"), SEQUENTIAL).unwrap();
    let (one, two) = (d.path().join("one"), d.path().join("two"));
    for (dir, threads) in [(&one, "1"), (&two, "2")] {
        let o = reproduce_full(&exp, dir, &["--threads", threads]);
        assert!(o.status.success(), "{o:?}");
    }
    assert_same_results(&one, &two, &["seq"]);
    // the 10-bit setting grew past its 2 replicates; the others did not
    let rows = sketchlab::export::read_output_at(&one.join("seq/results.csv")).unwrap();
    let text = String::from_utf8(rows).unwrap();
    let count = |bits: &str| {
        text.lines()
            .filter(|l| l.starts_with(&format!("1000,{bits},")))
            .count()
    };
    assert_eq!((count("4"), count("16")), (2, 2), "{text}");
    assert!(count("10") > 2 && count("10") < 62, "{}", count("10"));
    let manifest = std::fs::read_to_string(one.join("seq/manifest.json")).unwrap();
    assert!(
        manifest.contains("\"sequential\": \"3 settings took 2..="),
        "{manifest}"
    );
    let report = std::fs::read_to_string(one.join("REPORT.md")).unwrap();
    let ledger = std::fs::read_to_string(one.join("LEDGER.md")).unwrap();
    let took = count("10");
    assert!(
        ledger.contains(&format!("this run took {took}")),
        "{ledger}"
    );
    assert!(
        report.contains(&format!("{} trials in", took + 4)),
        "{report}"
    );

    let shards: Vec<PathBuf> = (0..3).map(|i| d.path().join(format!("s{i}"))).collect();
    for (i, dir) in shards.iter().enumerate() {
        let o = reproduce_full(&exp, dir, &["--shard", &format!("{i}/3")]);
        assert!(o.status.success(), "{o:?}");
    }
    let merged = d.path().join("merged");
    let o = Command::new(BIN)
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    assert_same_results(&one, &merged, &["seq"]);
}

/// What a full disk can leave behind: an empty journal (the header never
/// written) and a killed writer's temporary. `--resume` treats the empty
/// journal as none, removes the temporary, and completes byte-identically.
#[test]
fn resume_after_a_full_disk_ignores_an_empty_journal_and_clears_temporaries() {
    let d = tempfile::tempdir().unwrap();
    let (spec, reference) = spec_and_reference(d.path(), "2");
    let out = d.path().join("out");
    let study = out.join("slow");
    std::fs::create_dir_all(&study).unwrap();
    std::fs::write(study.join("journal"), b"").unwrap();
    std::fs::write(study.join(".results.tmp-4242.csv"), b"half a fi").unwrap();
    let o = run(&spec, &out, "2", &["--resume"]);
    assert!(o.status.success(), "{o:?}");
    let rows = sketchlab::export::read_output_at(&study.join("results.csv")).unwrap();
    assert!(rows == reference, "results differ from a run alone");
    let left: Vec<String> = std::fs::read_dir(&study)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-") || n == "journal")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Trials with `hash_seed = "random"` use their process's OS key: they all
/// go to one shard, so the merge records the one key they used and says the
/// rows are not reproducible, as an unsharded run does. (Shards that drew two
/// keys are refused: `merge::tests`.)
#[test]
fn random_key_trials_share_a_shard_and_merge_records_their_key() {
    let d = tempfile::tempdir().unwrap();
    let exp = d.path().join("exp");
    std::fs::create_dir_all(&exp).unwrap();
    std::fs::copy("experiments/bloom_twins.toml", exp.join("bloom_twins.toml")).unwrap();
    let s: Vec<PathBuf> = (0..2).map(|i| d.path().join(format!("s{i}"))).collect();
    for (i, dir) in s.iter().enumerate() {
        let o = reproduce(&exp, dir, &["--shard", &format!("{i}/2")]);
        assert!(o.status.success(), "{o:?}");
    }
    let out = d.path().join("merged");
    let o = Command::new(BIN)
        .arg("merge")
        .args(&s)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let whole = d.path().join("whole");
    assert!(reproduce(&exp, &whole, &[]).status.success());
    for dir in [&out, &whole] {
        let m = std::fs::read_to_string(dir.join("bloom_twins/manifest.json")).unwrap();
        assert!(
            m.contains("\"reproducible\": false") && !m.contains("\"process_random_key\": null"),
            "{m}"
        );
    }
}

/// `report` over a folder whose studies come from different runs (one rerun
/// with another --seed) refuses, naming the studies and seeds, and writes
/// nothing; a stale plain results.csv beside the packed one is refused too.
#[test]
fn report_refuses_a_folder_that_mixes_runs() {
    let d = tempfile::tempdir().unwrap();
    let exp = small_experiments(d.path());
    let out = d.path().join("out");
    assert!(reproduce(&exp, &out, &[]).status.success());
    let claims = std::fs::read(out.join("claims.csv")).unwrap();
    let o = std::process::Command::new(BIN)
        .args(["run", "--quick", "--quiet", "--seed", "5", "--out"])
        .arg(&out)
        .arg(exp.join("bloom_overfill.toml"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let o = Command::new(BIN).arg("report").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("come from different runs")
            && err.contains("--seed 5")
            && err.contains("its spec's seed")
            && err.trim_end().lines().count() == 1,
        "{err}"
    );
    assert_eq!(std::fs::read(out.join("claims.csv")).unwrap(), claims);
}

/// Whether `name` is a program on PATH.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
}

/// Under CI a missing peer fails the test; elsewhere it is skipped with a message.
fn peers_or_skip(test: &str, programs: &[&str]) -> bool {
    let missing: Vec<&str> = programs.iter().copied().filter(|p| !on_path(p)).collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{test}: {missing:?} not installed (.ci/run installs them)"
    );
    eprintln!("{test}: skipped, {missing:?} not installed (.ci/run installs them)");
    false
}

/// A free TCP port on the loopback (bound, read, released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A one-node Slurm cluster in a temporary folder: munged on its own socket
/// and key, slurmctld and slurmd in the foreground on free local ports, with
/// the settings a machine without systemd needs (the cgroup v1 plugin with
/// IgnoreSystemd, process tracking by /proc, no task plugin). Its daemons
/// are stopped when it is dropped.
struct Cluster {
    conf: PathBuf,
    logs: PathBuf,
    daemons: Vec<std::process::Child>,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path, m: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap()
        };
        // munge wants its socket's folder open to all and its key private
        std::fs::create_dir_all(dir).unwrap();
        mode(dir, 0o755);
        let run = dir.join("run");
        let logs = dir.join("log");
        for sub in [&run, &logs, &dir.join("state"), &dir.join("spool")] {
            std::fs::create_dir_all(sub).unwrap();
            mode(sub, 0o755);
        }
        let key = dir.join("munge.key");
        let bytes: Vec<u8> = (0..1024u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        std::fs::write(&key, bytes).unwrap();
        mode(&key, 0o400);
        let socket = run.join("munge.socket");
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        let host = host.trim().split('.').next().unwrap().to_string();
        let user = String::from_utf8(
            std::process::Command::new("id")
                .arg("-un")
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap()
        .trim()
        .to_string();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mem_mb = std::fs::read_to_string("/proc/meminfo")
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap()
            / 1024
            * 9
            / 10;
        let d = dir.display();
        let conf = dir.join("slurm.conf");
        std::fs::write(
            &conf,
            format!(
                "ClusterName=sketchlab\n\
                 SlurmctldHost={host}(127.0.0.1)\n\
                 SlurmctldPort={}\n\
                 SlurmdPort={}\n\
                 SlurmUser={user}\n\
                 SlurmdUser={user}\n\
                 AuthType=auth/munge\n\
                 CredType=cred/munge\n\
                 AuthInfo=socket={}\n\
                 StateSaveLocation={d}/state\n\
                 SlurmdSpoolDir={d}/spool\n\
                 SlurmctldPidFile={d}/run/slurmctld.pid\n\
                 SlurmdPidFile={d}/run/slurmd.pid\n\
                 SlurmctldLogFile={d}/log/slurmctld.log\n\
                 SlurmdLogFile={d}/log/slurmd.log\n\
                 ProctrackType=proctrack/linuxproc\n\
                 TaskPlugin=task/none\n\
                 JobAcctGatherType=jobacct_gather/none\n\
                 AccountingStorageType=accounting_storage/none\n\
                 SchedulerType=sched/backfill\n\
                 SelectType=select/cons_tres\n\
                 SelectTypeParameters=CR_Core_Memory\n\
                 ReturnToService=2\n\
                 MpiDefault=none\n\
                 SwitchType=switch/none\n\
                 NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem_mb} State=UNKNOWN\n\
                 PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
                free_port(),
                free_port(),
                socket.display()
            ),
        )
        .unwrap();
        std::fs::write(
            dir.join("cgroup.conf"),
            "CgroupPlugin=cgroup/v1\nIgnoreSystemd=yes\n",
        )
        .unwrap();
        let spawn = |program: &str, args: Vec<String>| {
            std::process::Command::new(program)
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("{program}: {e}"))
        };
        let mut cluster = Cluster {
            conf: conf.clone(),
            logs: logs.clone(),
            daemons: Vec::new(),
        };
        cluster.daemons.push(spawn(
            "munged",
            vec![
                "--foreground".into(),
                format!("--socket={}", socket.display()),
                format!("--key-file={}", key.display()),
                format!("--log-file={}/munged.log", logs.display()),
                format!("--pid-file={}/munged.pid", run.display()),
                format!("--seed-file={d}/munged.seed"),
            ],
        ));
        cluster.wait_for("munged's socket", || socket.exists());
        let c = conf.display().to_string();
        cluster.daemons.push(spawn(
            "slurmctld",
            vec!["-D".into(), "-f".into(), c.clone()],
        ));
        cluster.daemons.push(spawn(
            "slurmd",
            vec!["-D".into(), "-f".into(), c, "-N".into(), host],
        ));
        cluster.wait_for("the node to be idle", || {
            cluster.client("sinfo", &["-h", "-o", "%T"]).trim() == "idle"
        });
        cluster
    }

    /// A Slurm client command's stdout ("" when it fails).
    fn client(&self, program: &str, args: &[&str]) -> String {
        std::process::Command::new(program)
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    }

    /// Polls `ready` every 200 ms for up to 60 s; past that the test fails
    /// with the daemons' logs.
    fn wait_for(&self, what: &str, ready: impl Fn() -> bool) {
        let start = Instant::now();
        while !ready() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited 60 s for {what}; logs:\n{}",
                self.log_tails()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn log_tails(&self) -> String {
        let mut s = String::new();
        for e in std::fs::read_dir(&self.logs)
            .into_iter()
            .flatten()
            .flatten()
        {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            s += &format!("== {}\n", e.path().display());
            for l in tail.into_iter().rev() {
                s += l;
                s += "\n";
            }
        }
        s
    }
}

impl Drop for Cluster {
    /// SIGTERM (the daemons save their state and leave), then SIGKILL for
    /// any still running after 10 s.
    fn drop(&mut self) {
        for c in self.daemons.iter().rev() {
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &c.id().to_string()])
                .status();
        }
        let start = Instant::now();
        for c in self.daemons.iter_mut().rev() {
            while c.try_wait().ok().flatten().is_none() && start.elapsed() < Duration::from_secs(10)
            {
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Every reproducible study's results and summary, and every claim of
/// those studies, byte for byte between two runs of `exp`; studies whose
/// manifest says their rows are not reproducible (timings, a peer's own
/// randomness, a per-process random key) are left out, and returned.
fn assert_same_reproducible(exp: &Path, a: &Path, b: &Path) -> Vec<String> {
    let mut skipped_claims = std::collections::HashSet::new();
    let mut skipped = Vec::new();
    let specs = sketchlab::app::load_all(exp).unwrap();
    for s in &specs {
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(a.join(&s.name).join("manifest.json")).unwrap())
                .unwrap();
        if m["reproducible"] == false || !m["process_random_key"].is_null() {
            skipped_claims.extend(s.claims.iter().map(|c| c.id.clone()));
            skipped.push(s.name.clone());
            continue;
        }
        assert_same_rows(a, b, &s.name);
    }
    let claims = |dir: &Path| -> Vec<String> {
        std::fs::read_to_string(dir.join("claims.csv"))
            .unwrap()
            .lines()
            .filter(|l| !skipped_claims.contains(l.split(',').next().unwrap()))
            .map(String::from)
            .collect()
    };
    assert_eq!(claims(a), claims(b));
    skipped
}

/// `deploy/slurm` end to end on a real scheduler (#45): a one-node cluster
/// (Debian's slurm-wlm and munge, which .ci/run installs) runs
/// `submit.sh 3 --quick` over four small studies, one of them
/// (bloom_twins) with a per-process random key; the three array tasks and
/// the dependent merge job leave their logs under the shared folder, not in
/// the folder submitted from, and the merged results and claims equal an
/// unsharded run of the same studies byte for byte, but for the study whose
/// manifest says it cannot be. Without Slurm (and not under CI) the sbatch
/// files run as plain shell scripts with the variables Slurm would set.
#[test]
fn slurm_array_and_merge_on_a_real_scheduler_equal_the_unsharded_run() {
    let d = tempfile::tempdir().unwrap();
    let exp = small_experiments(d.path());
    std::fs::copy("experiments/bloom_twins.toml", exp.join("bloom_twins.toml")).unwrap();
    let shared = d.path().join("shared");
    let submit_dir = d.path().join("submit");
    std::fs::create_dir_all(&submit_dir).unwrap();
    let flags = format!("--quick --experiments {}", exp.display());
    let root = std::env::current_dir().unwrap();
    let slurm = peers_or_skip(
        "slurm_array_and_merge_on_a_real_scheduler",
        &["munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"],
    );
    let started = Instant::now();
    if slurm {
        let cluster = Cluster::start(&d.path().join("cluster"));
        let o = std::process::Command::new("bash")
            .arg(root.join("deploy/slurm/submit.sh"))
            .args(["3", "--quick", "--experiments"])
            .arg(&exp)
            .current_dir(&submit_dir)
            .env("SLURM_CONF", &cluster.conf)
            .env("SKETCHLAB", BIN)
            .env("SKETCHLAB_SHARED", &shared)
            // a small test: its jobs ask for 1 GB, not the 8 GB of a real shard
            .env("SBATCH_MEM_PER_NODE", "1G")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "submit.sh: {o:?}\n{}",
            cluster.log_tails()
        );
        let deadline = Duration::from_secs(600);
        // the merge job writes its files before it ends: an empty queue is a finished run
        while !cluster.client("squeue", &["-h"]).trim().is_empty() {
            assert!(
                started.elapsed() < deadline,
                "the jobs did not finish in {deadline:?}: {}\n{}",
                cluster.client("squeue", &[]),
                cluster.log_tails()
            );
            std::thread::sleep(Duration::from_millis(500));
        }
        let logs: Vec<String> = std::fs::read_dir(shared.join("logs"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let job_log = |prefix: &str| logs.iter().filter(|n| n.starts_with(prefix)).count();
        assert_eq!(
            (job_log("sketchlab-shard-"), job_log("sketchlab-merge-")),
            (3, 1),
            "{logs:?}"
        );
        assert!(
            shared.join("merged/claims.csv").is_file(),
            "no merged claims; job logs:\n{}\n{}",
            logs.iter()
                .map(|n| std::fs::read_to_string(shared.join("logs").join(n)).unwrap_or_default())
                .collect::<Vec<_>>()
                .join("\n"),
            cluster.log_tails()
        );
        drop(cluster);
    } else {
        let script = |file: &str, env: &[(&str, String)]| {
            let mut c = std::process::Command::new("bash");
            c.arg(root.join("deploy/slurm").join(file))
                .current_dir(&submit_dir)
                .env("SKETCHLAB", BIN)
                .env("SKETCHLAB_SHARED", &shared)
                .env("SKETCHLAB_FLAGS", &flags)
                .env("SLURM_SUBMIT_DIR", &submit_dir)
                .env("SLURM_CPUS_PER_TASK", "1");
            for (k, v) in env {
                c.env(k, v);
            }
            let o = c.output().unwrap();
            assert!(o.status.success(), "{file} {env:?}: {o:?}");
        };
        // an array whose first index is 1 (--array=1-3) gives shards 0/3..2/3 all the same
        for task in 1..=3 {
            script(
                "sketchlab-array.sbatch",
                &[
                    ("SLURM_ARRAY_TASK_ID", task.to_string()),
                    ("SLURM_ARRAY_TASK_MIN", "1".into()),
                    ("SLURM_ARRAY_TASK_COUNT", "3".into()),
                ],
            );
        }
        script("sketchlab-merge.sbatch", &[]);
    }
    let sharded = started.elapsed();
    // nothing was written where the jobs were submitted from
    assert_eq!(std::fs::read_dir(&submit_dir).unwrap().count(), 0);
    let whole = d.path().join("whole");
    assert!(reproduce(&exp, &whole, &[]).status.success());
    let skipped = assert_same_reproducible(&exp, &whole, &shared.join("merged"));
    assert_eq!(skipped, ["bloom_twins"]);
    eprintln!(
        "{} in 3 shards and merged in {:.1} s; equal to the unsharded run but for {skipped:?}",
        if slurm {
            "slurm ran 4 studies"
        } else {
            "4 studies (sbatch files as shell)"
        },
        sharded.as_secs_f64()
    );
}

/// The Kubernetes file against the Kubernetes schemas (the maintained
/// `kubernetes-validate` package from PyPI, strict: an unknown field is an
/// error), and a copy with one misspelled field refused, so the validator
/// is known to look.
#[test]
fn kubernetes_files_validate_against_the_kubernetes_schemas() {
    let installed = std::process::Command::new("python3")
        .args(["-c", "import kubernetes_validate"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "python3's kubernetes_validate is not installed (.ci/run installs it)"
        );
        eprintln!(
            "kubernetes_files_validate: skipped, python3's kubernetes_validate is not installed (.ci/run installs it)"
        );
        return;
    }
    let validate = |path: &Path| {
        std::process::Command::new("python3")
            .args(["-m", "kubernetes_validate", "--strict", "--quiet"])
            .arg(path)
            .output()
            .unwrap()
    };
    let file = Path::new("deploy/k8s/sketchlab-indexed-job.yaml");
    let o = validate(file);
    assert!(o.status.success(), "{o:?}");
    let d = tempfile::tempdir().unwrap();
    let bad = d.path().join("bad.yaml");
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains("completionMode:"));
    std::fs::write(&bad, text.replacen("completionMode:", "completionMod:", 1)).unwrap();
    let o = validate(&bad);
    assert!(!o.status.success(), "a misspelled field passed: {o:?}");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("completionMod")
            || String::from_utf8_lossy(&o.stderr).contains("completionMod"),
        "{o:?}"
    );
}
