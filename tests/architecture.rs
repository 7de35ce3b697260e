//! The module structure: arrows run one way (app → experiment → structures,
//! workload, metrics, hashing; experiment → export / plot / report → table),
//! so the drawn structure has no cycle, and no source file outgrows ~600 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module and the modules it may use.
const ALLOWED: &[(&str, &[&str])] = &[
    ("vocab", &[]),
    ("table", &[]),
    ("stats", &["table"]),
    ("hashing", &[]),
    ("workload", &["hashing"]),
    ("attack", &["hashing", "structures"]),
    ("structures", &["hashing", "stats", "vocab"]),
    ("metrics", &["stats"]),
    ("export", &["table"]),
    ("plot", &["export", "stats", "table"]),
    ("report", &["export", "stats", "table", "vocab"]),
    ("error", &[]),
    ("cli", &["vocab"]),
    ("peer", &[]),
    (
        "experiment",
        &[
            "table",
            "stats",
            "hashing",
            "workload",
            "structures",
            "metrics",
            "export",
            "plot",
            "report",
            "error",
            "peer",
            "attack",
            "vocab",
        ],
    ),
    (
        "design",
        &[
            "cli",
            "error",
            "export",
            "hashing",
            "metrics",
            "plot",
            "report",
            "stats",
            "structures",
            "table",
            "vocab",
            "workload",
        ],
    ),
    (
        "app",
        &[
            "cli",
            "design",
            "error",
            "experiment",
            "export",
            "hashing",
            "peer",
            "report",
            "structures",
            "table",
            "vocab",
            // `hash --file` and `keys check` read a user's key file
            "workload",
        ],
    ),
];

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `crate::name` references in code (not in comments).
fn uses(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + 7..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            // `$crate::` in macros refers to the same paths
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

#[test]
fn module_dependencies_run_one_way() {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    let mut edges: BTreeSet<(String, String)> = BTreeSet::new();
    for f in &all {
        let rel = f.strip_prefix("src").unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for used in uses(&text) {
            if used == top || !allowed.contains_key(used.as_str()) {
                continue;
            }
            let ok = allowed
                .get(top.as_str())
                .unwrap_or_else(|| panic!("module {top} is not in the layer table"))
                .contains(&used.as_str());
            assert!(ok, "{}: {top} must not use {used}", f.display());
            edges.insert((top.clone(), used));
        }
    }
    // the allowed table itself is acyclic, so the real graph is too: check by
    // repeatedly removing modules with no remaining outgoing edges
    let mut left: BTreeSet<String> = edges
        .iter()
        .flat_map(|(a, b)| [a.clone(), b.clone()])
        .collect();
    loop {
        let sink = left
            .iter()
            .find(|m| !edges.iter().any(|(a, b)| a == *m && left.contains(b)))
            .cloned();
        match sink {
            Some(m) => {
                left.remove(&m);
            }
            None => break,
        }
    }
    assert!(left.is_empty(), "a cycle among {left:?}");
}

#[test]
fn no_source_file_outgrows_six_hundred_lines() {
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    for f in all {
        let n = std::fs::read_to_string(&f).unwrap().lines().count();
        assert!(n <= 620, "{} has {n} lines", f.display());
    }
}

/// Every property test draws the same cases on every run: each file with a
/// `proptest!` block configures it with a fixed RNG seed, so CI can fail
/// only on a change (a failure found once stays in the regressions file).
#[test]
fn every_property_test_pins_its_rng_seed() {
    let mut all = Vec::new();
    files(Path::new("tests"), &mut all);
    files(Path::new("src"), &mut all);
    let mut blocks = 0;
    for f in all
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(f).unwrap();
        if f.ends_with("architecture.rs") {
            continue;
        }
        for (i, _) in text.match_indices("proptest! {") {
            blocks += 1;
            let head = &text[i..(i + 200).min(text.len())];
            assert!(
                head.contains("#![proptest_config("),
                "{}: a proptest! block without its config",
                f.display()
            );
            assert!(
                text.contains("RngSeed::Fixed("),
                "{}: proptest's RNG seed is not pinned",
                f.display()
            );
        }
    }
    assert!(blocks >= 2, "{blocks} proptest! blocks");
}
