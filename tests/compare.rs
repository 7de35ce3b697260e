//! `sketchlab compare OLD NEW` and `reproduce --save-baseline/--baseline`:
//! a run against itself flags nothing; two runs that differ in one
//! parameter flag the metrics that parameter governs and no other; a
//! `--fail-on` metric that got worse exits 1.

use std::path::Path;

fn sketchlab() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("sketchlab").unwrap()
}

/// A small bloom_fpr study with `k` and `queries` as given.
fn run(dir: &Path, k: u32, queries: u32) {
    let spec = dir.join("spec.toml");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        &spec,
        format!(
            "name = \"kk\"\nkind = \"bloom_fpr\"\ndescription = \"d\"\nseed = 5\n[grid]\nn = [20000, 50000]\nbits_per_key = [6, 8, 10, 12]\nk = {k}\nqueries = {queries}\n"
        ),
    )
    .unwrap();
    sketchlab()
        .args(["run", "--quiet", "--out"])
        .arg(dir.join("out"))
        .arg(&spec)
        .assert()
        .success();
}

fn compare(a: &Path, b: &Path, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let o = sketchlab()
        .arg("compare")
        .arg(a.join("out"))
        .arg(b.join("out"))
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code(),
        serde_json::from_slice(&o.stdout).unwrap_or_default(),
    )
}

fn moved(c: &serde_json::Value) -> Vec<String> {
    let mut v: Vec<String> = c["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["moved"].as_u64() > Some(0))
        .map(|m| m["metric"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn compare_flags_what_a_parameter_moves_and_nothing_else() {
    let d = tempfile::tempdir().unwrap();
    let (k1, k4, q2) = (
        d.path().join("k1"),
        d.path().join("k4"),
        d.path().join("q2"),
    );
    run(&k1, 1, 100_000);
    run(&k4, 4, 100_000);
    run(&q2, 1, 200_000);

    // against itself: nothing moves, and --fail-on passes
    let (code, c) = compare(&k1, &k1, &["--fail-on", "fpr_measured"]);
    assert_eq!(code, Some(0));
    assert!(moved(&c).is_empty(), "{c}");
    assert!(c["metrics"].as_array().unwrap().len() >= 4, "{c}");
    // the same trials drew the same seeds (derived from the manifest's seed
    // and each row's trial_id: results.csv does not hold them)
    assert_eq!(c["studies"][0]["seeds_differ"], false, "{c}");

    // k = 1 → 4 at 6..12 bits per key: the FPR falls and the fill rises;
    // nothing else moves
    let (code, c) = compare(&k1, &k4, &["--fail-on", "fpr_measured"]);
    assert_eq!(code, Some(0), "fewer false positives is no regression");
    assert_eq!(moved(&c), ["fill_measured", "fpr_measured"]);
    // another k is another trial identity, so another seed
    assert_eq!(c["studies"][0]["seeds_differ"], true, "{c}");
    assert_eq!(c["studies"][0]["changed"][0], "k: 1 → 4");
    let fpr = c["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == "fpr_measured")
        .unwrap();
    assert_eq!(
        (fpr["moved"].as_u64(), fpr["worse"].as_u64()),
        (Some(8), Some(0))
    );

    // the other way it is a regression: exit 1, naming the metric
    let o = sketchlab()
        .arg("compare")
        .arg(k4.join("out"))
        .arg(k1.join("out"))
        .args(["--fail-on", "fpr_measured"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("regressed: kk.fpr_measured worse in 8 of 8 settings"),
        "{err}"
    );
    let md = String::from_utf8(o.stdout).unwrap();
    assert!(
        md.contains("| kk | fpr_measured | proportion | 8 | 8 | 8 |"),
        "{md}"
    );

    // twice the queries: the same rates, measured more closely: nothing moves
    let (code, c) = compare(&k1, &q2, &["--fail-on", "fpr_measured"]);
    assert_eq!(code, Some(0));
    assert!(moved(&c).is_empty(), "{c}");
    assert_eq!(c["studies"][0]["changed"][0], "queries: 100000 → 200000");

    // an unknown --fail-on metric is bad input
    let (code, _) = compare(&k1, &k4, &["--fail-on", "fpr"]);
    assert_eq!(code, Some(2));
}

#[test]
fn reproduce_saves_a_baseline_and_compares_against_it() {
    let d = tempfile::tempdir().unwrap();
    let experiments = d.path().join("experiments");
    std::fs::create_dir_all(&experiments).unwrap();
    std::fs::copy(
        "experiments/bloom_fpr.toml",
        experiments.join("bloom_fpr.toml"),
    )
    .unwrap();
    let out = d.path().join("out");
    let reproduce = |extra: &[&str]| {
        sketchlab()
            .args(["reproduce", "--quick", "--quiet", "--experiments"])
            .arg(&experiments)
            .arg("--out")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    // no such baseline yet: refused before anything runs
    let o = reproduce(&["--baseline", "main"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
    assert!(reproduce(&["--save-baseline", "main"]).status.success());
    assert!(
        sketchlab::export::output_path(&out.join("baselines/main/bloom_fpr"), "results.csv")
            .is_some()
    );
    assert!(out.join("baselines/main/claims.csv").is_file());
    let o = reproduce(&["--baseline", "main", "--fail-on", "fpr_measured"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("0 of 5 metrics moved"), "{text}");
    assert!(text.contains("No claim changed its verdict."), "{text}");
    let o = reproduce(&["--save-baseline", "bad/name"]);
    assert_eq!(o.status.code(), Some(2));
}
