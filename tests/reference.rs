//! The committed reference guards itself: `sketchlab report` renders a copy
//! of `reports/` from its own inputs alone (run.json, and per study its
//! spec, manifest and results), and every file it writes must be
//! byte-identical to the committed one, with none missing and none extra.
//! So a change to a chart, a reading, the ledger or the report's layout
//! fails here until the reference is regenerated in the same commit.
//! (`reports/speed/` holds bench output, which no `reproduce` writes.)

use assert_cmd::Command;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every file under `dir`, relative to it.
fn files(dir: &Path) -> BTreeSet<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out);
    out
}

/// What a run wrote that `report` reads rather than renders.
fn is_input(rel: &Path) -> bool {
    let name = rel.file_name().unwrap().to_string_lossy();
    let top = rel.components().count() == 1;
    (top && name == "run.json")
        || (!top
            && (name == "manifest.json"
                || name.ends_with(".toml")
                || name.starts_with("results.csv")))
}

#[test]
fn the_committed_reference_renders_from_its_csvs_byte_for_byte() {
    let reference = Path::new("reports");
    // the files git holds (a clone has no ignored chart PNGs, a work tree may)
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-z", "reports"])
        .output()
        .expect("git lists the committed reference");
    assert!(listed.status.success(), "git ls-files failed");
    let committed: BTreeSet<PathBuf> = listed
        .stdout
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| {
            Path::new(std::str::from_utf8(p).unwrap())
                .strip_prefix("reports")
                .unwrap()
                .to_path_buf()
        })
        .filter(|p| !p.starts_with("speed"))
        .collect();
    assert!(
        committed.iter().any(|p| p.ends_with("REPORT.md")),
        "no reference in reports/"
    );
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("reports");
    for rel in committed.iter().filter(|p| is_input(p)) {
        let to = copy.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(reference.join(rel), &to).unwrap();
    }
    let out = Command::cargo_bin("sketchlab")
        .unwrap()
        .args(["--quiet", "report"])
        .arg(&copy)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "report failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rendered = files(&copy);
    let missing: Vec<_> = committed.difference(&rendered).collect();
    // what git would not commit (the chart PNGs, the output lock) is not extra
    let ignored = |rel: &PathBuf| {
        std::process::Command::new("git")
            .args(["check-ignore", "-q", "--no-index"])
            .arg(reference.join(rel))
            .status()
            .is_ok_and(|s| s.success())
    };
    let extra: Vec<_> = rendered
        .difference(&committed)
        .filter(|rel| !ignored(rel))
        .collect();
    let differ: Vec<_> = committed
        .intersection(&rendered)
        .filter(|rel| {
            std::fs::read(reference.join(rel)).unwrap() != std::fs::read(copy.join(rel)).unwrap()
        })
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && differ.is_empty(),
        "the reference does not render from its CSVs: regenerate it (one `reproduce` at a clean commit) in the commit that changes what it shows\n\
         committed but not rendered: {missing:?}\nrendered but not committed: {extra:?}\ndiffering: {differ:?}"
    );
}
