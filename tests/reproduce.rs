//! The main job end to end, at quick sizes: every committed study runs, every
//! claim is measured, and the report's images exist.

use assert_cmd::Command;

#[test]
fn reproduce_quick_measures_every_claim() {
    let d = tempfile::tempdir().unwrap();
    Command::cargo_bin("sketchlab")
        .unwrap()
        .args(["reproduce", "--quick", "--quiet", "--out"])
        .arg(d.path())
        .assert()
        .success();
    let claims = std::fs::read_to_string(d.path().join("claims.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(claims.as_bytes());
    assert_eq!(
        rdr.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "claim_id",
            "document",
            "quote",
            "documented",
            "theory",
            "measured",
            "unit",
            "verdict"
        ]
    );
    let mut n = 0;
    for rec in rdr.records() {
        let rec = rec.unwrap();
        n += 1;
        assert!(
            ["holds", "approximately", "does-not-hold"].contains(&&rec[7]),
            "{} was {}",
            &rec[0],
            &rec[7]
        );
        assert!(!rec[5].is_empty(), "{} has no measured value", &rec[0]);
    }
    let specs = std::fs::read_dir("experiments").unwrap().count();
    let declared: usize = std::fs::read_dir("experiments")
        .unwrap()
        .map(|e| {
            std::fs::read_to_string(e.unwrap().path())
                .unwrap()
                .matches("[[claim]]")
                .count()
        })
        .sum();
    assert_eq!(
        n, declared,
        "every [[claim]] in experiments/ is in the ledger"
    );
    let report = std::fs::read_to_string(d.path().join("REPORT.md")).unwrap();
    assert_eq!(
        report.matches("\n### ").count() - report.matches("### Claims that do not hold").count(),
        specs
    );
    for line in report.lines().filter(|l| l.starts_with("![")) {
        let path = &line[line.find("](").unwrap() + 2..line.len() - 1];
        assert!(
            d.path().join(path).is_file(),
            "{path} is referenced but missing"
        );
    }
}
