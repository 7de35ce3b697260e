//! Keys from a user's file through the library: every kind that takes a key
//! type declares how many distinct keys a trial draws ([`Kind::key_ids`]),
//! and a file holding exactly that many runs the trial, one fewer is refused.

use sketchlab::error::Error;
use sketchlab::experiment::grid;
use sketchlab::experiment::kinds::{KINDS, Kind};
use sketchlab::experiment::params::{PType, Params, Seeds};
use sketchlab::experiment::spec::Spec;
use sketchlab::table::Value;
use sketchlab::workload::KeyType;
use std::path::Path;

/// The largest key file this test writes (keeps it to a few seconds).
const MAX_KEYS: u64 = 2_100_000;

fn keys_param(kind: &dyn Kind) -> Option<&'static str> {
    kind.params()
        .iter()
        .find(|d| matches!(d.ty, PType::Keys))
        .map(|d| d.name)
}

/// A key file of `n` distinct lines under target/.
fn key_file(n: u64) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("key_files");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("keys-{n}.txt"));
    // 40 bytes and more: long enough for every kind (bloom_twins needs 32)
    let mut text = String::with_capacity(n as usize * 48);
    for i in 0..n {
        text += &format!("https://example.org/user/profile-{i:08}\n");
    }
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// With the key type swapped for a file of `keys` keys.
fn with_file(p: &Params, name: &str, file: &str) -> Params {
    let value = Value::Str(format!("file:lines:{file}"));
    KeyType::open(&format!("file:lines:{file}")).expect("the file loads");
    Params(
        p.0.iter()
            .map(|(n, v)| (*n, if *n == name { value.clone() } else { v.clone() }))
            .collect(),
    )
}

/// The study's charts of one trial whose key type is a file under a
/// nested path (target/tmp/key_files/…): every chart and heatmap renders
/// (a chart faceted by the key type once took the path's `/` into its file
/// name, #40), and every file it writes has a plain name.
fn charts_of_a_file_trial_render(
    spec: &Spec,
    params: &Params,
    t: &grid::Trial,
    metrics: Vec<Vec<Value>>,
) {
    use sketchlab::table::{Table, Tables};
    let rows = metrics
        .into_iter()
        .map(|m| {
            let mut row: Vec<Value> = params.0.iter().map(|(_, v)| v.clone()).collect();
            row.push(Value::Int(t.replicate as i64));
            row.push(Value::Str(format!("{:016x}", t.id)));
            row.extend(m);
            row
        })
        .collect();
    let tables = Tables {
        results: Table {
            columns: spec.kind.columns(),
            rows,
        },
        summary: None,
    };
    let d = tempfile::tempdir().unwrap();
    let charts = spec.charts(&tables);
    sketchlab::plot::render_all(&charts, &spec.heatmaps(&tables), d.path())
        .unwrap_or_else(|e| panic!("{}: charts of a key-file trial: {e:#}", spec.name));
    for f in std::fs::read_dir(d.path()).unwrap() {
        let name = f.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)),
            "{}: {name}",
            spec.name
        );
    }
}

#[test]
fn every_kind_with_a_key_type_runs_on_exactly_its_declared_keys() {
    let mut covered = Vec::new();
    for entry in std::fs::read_dir("experiments").unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        let spec = Spec::parse(&path, &source).unwrap();
        let Some(name) = keys_param(spec.kind) else {
            continue;
        };
        if covered.contains(&spec.kind.name()) {
            continue;
        }
        // the quick trial drawing the fewest keys (birthday's 32-bit searches
        // may draw up to 2^32 + 2 keys: its 16-bit ones at most 65,538)
        let mut quick = spec.grid(true).to_vec();
        if spec.kind.name() == "birthday" {
            quick
                .iter_mut()
                .filter(|(n, _)| *n == "bits")
                .for_each(|(_, v)| *v = vec![Value::Int(16)]);
        }
        let trials = grid::expand(
            spec.kind.name(),
            &quick,
            &grid::Except::default(),
            1,
            spec.seed,
        );
        let Some((need, t)) = trials
            .iter()
            .filter_map(|t| Some((spec.kind.key_ids(&t.params)?, t)))
            .filter(|(need, _)| (1..=MAX_KEYS).contains(need))
            .min_by_key(|(need, _)| *need)
        else {
            let needs: Vec<Option<u64>> = trials
                .iter()
                .take(5)
                .map(|t| spec.kind.key_ids(&t.params))
                .collect();
            eprintln!("{}: quick trials draw {needs:?} keys", spec.name);
            continue;
        };
        let exact = with_file(&t.params, name, &key_file(need));
        spec.kind.validate(&exact).unwrap();
        let rows = spec.kind.run(&exact, Seeds(t.seed)).unwrap();
        assert!(!rows.is_empty(), "{}", spec.kind.name());
        charts_of_a_file_trial_render(&spec, &exact, t, rows);
        let short = with_file(&t.params, name, &key_file(need - 1));
        // key_hashing hashes every key of a smaller file: its need follows the file
        if spec.kind.key_ids(&short) == Some(need) {
            let Error::Invalid { field, allowed } = spec.kind.validate(&short).unwrap_err() else {
                panic!("a short key file is bad input at its field")
            };
            assert_eq!(field, name);
            assert!(allowed.contains(&format!("draws {need}")), "{allowed}");
        }
        covered.push(spec.kind.name());
    }
    let mut missing: Vec<&str> = KINDS
        .iter()
        .filter(|k| keys_param(**k).is_some() && !covered.contains(&k.name()))
        .map(|k| k.name())
        .collect();
    missing.sort();
    assert!(
        missing.is_empty(),
        "kinds taking a key type with no quick trial checked on a file: {missing:?}"
    );
}

fn sketchlab() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("sketchlab").unwrap()
}

/// The committed small key file (2,010 URL lines, 10 of them repeats) and its
/// gzipped copy through `run`: the same distinct keys, the manifest's record
/// of each file, and FPRs within theory's 99.999% Wilson interval.
#[test]
fn run_reads_a_key_file_and_its_gzipped_copy() {
    let d = tempfile::tempdir().unwrap();
    let spec = d.path().join("urls.toml");
    std::fs::write(
        &spec,
        r#"name = "urls"
kind = "bloom_fpr"
description = "the committed URL key file, plain and gzipped"
seed = 3
[grid]
n = 900
bits_per_key = [6, 10]
keys = [{ file = "tests/keys/urls.txt", format = "lines" }, { file = "tests/keys/urls.txt.gz" }]
queries = 1100
"#,
    )
    .unwrap();
    let out = d.path().join("out");
    sketchlab()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&spec)
        .assert()
        .success();
    let csv = std::fs::read_to_string(out.join("urls/results.csv")).unwrap();
    let t = sketchlab::export::csv::parse(
        csv.as_bytes(),
        &sketchlab::experiment::kinds::find("bloom_fpr")
            .unwrap()
            .columns(),
    )
    .unwrap();
    assert_eq!(t.rows.len(), 4);
    for r in &t.rows {
        assert!(
            t.str(r, "keys")
                .starts_with("file:lines:tests/keys/urls.txt")
        );
        let k = t.f64(r, "fpr_measured_k").unwrap() as u64;
        let theory = t.f64(r, "fpr_theory").unwrap();
        let (lo, hi) = sketchlab::stats::wilson(k, 1100, 4.5);
        assert!(lo <= theory && theory <= hi, "{k}/1100 vs {theory}");
        assert_eq!(t.f64(r, "false_negatives"), Some(0.0));
    }
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("urls/manifest.json")).unwrap()).unwrap();
    let files = m["key_files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    for (f, path, gz) in [
        (&files[0], "tests/keys/urls.txt", false),
        (&files[1], "tests/keys/urls.txt.gz", true),
    ] {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(f["path"], path);
        assert_eq!(f["gzipped"], gz);
        assert_eq!(f["bytes"], bytes.len() as u64);
        assert_eq!(
            f["xxh3_64"],
            format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes))
        );
        assert_eq!(
            (f["records"].as_u64(), f["distinct_keys"].as_u64()),
            (Some(2010), Some(2000))
        );
        assert_eq!(f["duplicates_dropped"], 10);
    }
}

/// A spec that leaves `queries` at the kind's default (10^6) over a key
/// file of 2,000 distinct keys runs with what the file leaves after the
/// largest trial's members, for every key source, and the manifest says so;
/// a spec that sets it keeps its value.
#[test]
fn queries_default_to_what_the_key_file_leaves() {
    let d = tempfile::tempdir().unwrap();
    let spec = d.path().join("short.toml");
    let text = r#"name = "short"
kind = "bloom_fpr"
description = "queries left at the default over a 2,000-key file"
seed = 3
[grid]
n = [500, 800]
bits_per_key = 8
keys = ["u64", { file = "tests/keys/urls.txt" }]
"#;
    std::fs::write(&spec, text).unwrap();
    let out = d.path().join("out");
    sketchlab()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&spec)
        .assert()
        .success();
    let csv = std::fs::read_to_string(out.join("short/results.csv")).unwrap();
    let t = sketchlab::export::csv::parse(
        csv.as_bytes(),
        &sketchlab::experiment::kinds::find("bloom_fpr")
            .unwrap()
            .columns(),
    )
    .unwrap();
    assert_eq!(t.rows.len(), 4);
    for r in &t.rows {
        assert_eq!(
            t.f64(r, "queries"),
            Some(1200.0),
            "2,000 keys - 800 members"
        );
        assert_eq!(t.f64(r, "fpr_measured_n"), Some(1200.0));
    }
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("short/manifest.json")).unwrap()).unwrap();
    assert_eq!(
        m["derived_from_key_files"][0],
        "queries = 1200: the kind's default 1000000 lowered to what key file tests/keys/urls.txt leaves for absent keys (2000 distinct keys, 800 members in its largest trial); set queries in the spec to choose"
    );
    // set in the spec: kept, and nothing derived
    std::fs::write(&spec, format!("{text}queries = 1000\n")).unwrap();
    let out = d.path().join("out2");
    sketchlab()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&spec)
        .assert()
        .success();
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("short/manifest.json")).unwrap()).unwrap();
    assert!(m.get("derived_from_key_files").is_none());
}

/// `hash --file`: one line per record (duplicates kept), each the key and
/// its hash; the gzipped copy prints the same bytes.
#[test]
fn hash_file_prints_every_record() {
    let plain = sketchlab()
        .args(["hash", "-s", "xxh3_64", "--file", "tests/keys/urls.txt"])
        .output()
        .unwrap();
    assert!(plain.status.success());
    let text = String::from_utf8(plain.stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), 2010);
    for line in text.lines().take(50) {
        let (key, hex) = line.split_once('\t').unwrap();
        assert_eq!(
            u64::from_str_radix(hex, 16).unwrap(),
            xxhash_rust::xxh3::xxh3_64(key.as_bytes())
        );
    }
    let gz = sketchlab()
        .args(["hash", "-s", "xxh3_64", "--file", "tests/keys/urls.txt.gz"])
        .output()
        .unwrap();
    assert_eq!(gz.stdout, plain.stdout);
}

/// `keys check` on the gzipped file: the file's counts, one row per hash,
/// xxh3 like a random function; with --out the study's CSV is kept.
#[test]
fn keys_check_reports_each_hash_and_keeps_the_study_with_out() {
    let d = tempfile::tempdir().unwrap();
    let out = sketchlab()
        .args([
            "keys",
            "check",
            "tests/keys/urls.txt.gz",
            "--hashes",
            "xxh3,crc32",
            "--out",
        ])
        .arg(d.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("2010 records, 10 duplicates dropped, 2000 distinct keys"),
        "{text}"
    );
    let csv = std::fs::read_to_string(d.path().join("keys_check/results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    let xxh3 = csv.lines().find(|l| l.contains(",xxh3,")).unwrap();
    assert!(xxh3.ends_with(",ok"), "{xxh3}");
}

/// A key file changed between a run and its `--resume` is refused (exit 2).
#[test]
fn resume_refuses_a_changed_key_file() {
    let d = tempfile::tempdir().unwrap();
    let keys = d.path().join("keys.txt");
    std::fs::copy("tests/keys/urls.txt", &keys).unwrap();
    let spec = d.path().join("k.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"k\"\nkind = \"bloom_fpr\"\ndescription = \"d\"\nseed = 1\n[grid]\nn = 500\nbits_per_key = 8\nkeys = {{ file = {:?} }}\nqueries = 500\n",
            keys.display().to_string()
        ),
    )
    .unwrap();
    let out = d.path().join("out");
    let run = |resume: bool| {
        let mut c = sketchlab();
        c.args(["run", "--quiet", "--out"]).arg(&out).arg(&spec);
        if resume {
            c.arg("--resume");
        }
        c.output().unwrap()
    };
    assert!(run(false).status.success());
    assert!(run(true).status.success(), "unchanged: kept");
    std::fs::write(
        &keys,
        "changed\n".to_string() + &std::fs::read_to_string("tests/keys/urls.txt").unwrap(),
    )
    .unwrap();
    let o = run(true);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("a key file changed since"), "{err}");
}
