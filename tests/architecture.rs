//! The module structure: arrows run one way (app → experiment → structures,
//! workload, metrics, hashing; experiment → export / plot / report → table),
//! so the drawn structure has no cycle, and no source file outgrows ~600 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module and the modules it may use.
const ALLOWED: &[(&str, &[&str])] = &[
    ("vocab", &[]),
    ("table", &["error"]),
    ("stats", &["table"]),
    ("hashing", &[]),
    ("workload", &["hashing", "error", "vocab"]),
    ("attack", &["hashing", "structures", "vocab"]),
    ("structures", &["hashing", "stats", "vocab", "error"]),
    ("metrics", &["stats"]),
    ("export", &["table", "error"]),
    ("plot", &["export", "stats", "table", "error"]),
    ("report", &["export", "stats", "table", "vocab", "error"]),
    ("error", &[]),
    ("cli", &["vocab", "error"]),
    ("peer", &["error"]),
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

/// The module a source file defines, as a path of names (`src/a/b.rs` and
/// `src/a/b/mod.rs` are `["a", "b"]`), and whether it is a `mod.rs`.
fn module_of(rel: &Path) -> (Vec<String>, bool) {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let is_mod = parts.last().is_some_and(|p| p == "mod" || p == "lib");
    if is_mod {
        parts.pop();
    }
    (parts, is_mod)
}

/// The code of a file without comments and without its `#[cfg(test)] mod tests`.
fn code_of(text: &str) -> String {
    let code: Vec<&str> = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    let code = code.join("\n");
    match code.find("#[cfg(test)]\nmod tests") {
        Some(i) => code[..i].to_string(),
        None => code,
    }
}

/// The files a file's code reaches by `crate::`, `super::` and `self::`
/// paths (a `use super::{a, b}` group counts each name), resolved to the
/// longest module path that is a file; module declarations are not uses.
fn file_edges(mods: &BTreeMap<Vec<String>, String>) -> BTreeMap<String, BTreeSet<String>> {
    let resolve = |path: &[String]| {
        (1..=path.len())
            .rev()
            .find_map(|i| mods.get(&path[..i]).cloned())
    };
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut edges = BTreeMap::new();
    for (m, file) in mods {
        let text = std::fs::read_to_string(Path::new("src").join(file)).unwrap();
        let code = code_of(&text);
        let is_mod = file.ends_with("mod.rs") || file == "lib.rs";
        let parent: Vec<String> = if is_mod || m.is_empty() {
            m[..m.len().saturating_sub(1)].to_vec()
        } else {
            m[..m.len() - 1].to_vec()
        };
        let mut out = BTreeSet::new();
        for head in ["crate::", "super::", "self::"] {
            for (i, _) in code.match_indices(head) {
                if i > 0 && code[..i].ends_with(|c: char| ident(c) || c == '$') {
                    continue;
                }
                let mut base: Vec<String> = match head {
                    "crate::" => Vec::new(),
                    "super::" => parent.clone(),
                    _ => m.clone(),
                };
                let rest = &code[i + head.len()..];
                let path_end = rest
                    .find(|c: char| !(ident(c) || c == ':'))
                    .unwrap_or(rest.len());
                let mut segs: Vec<String> = rest[..path_end]
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
                while segs.first().is_some_and(|s| s == "super") {
                    segs.remove(0);
                    base.pop();
                }
                let mut targets = vec![[base.clone(), segs.clone()].concat()];
                if rest[path_end..].starts_with('{') {
                    let group = &rest[path_end + 1
                        ..rest[path_end..]
                            .find('}')
                            .map_or(rest.len(), |j| path_end + j)];
                    for item in group.split(',') {
                        let name = item.trim().split([' ', ':']).next().unwrap_or("");
                        if !name.is_empty() && name != "self" {
                            targets.push(
                                [base.clone(), segs.clone(), vec![name.to_string()]].concat(),
                            );
                        }
                    }
                }
                for t in targets {
                    if let Some(f) = resolve(&t).filter(|f| f != file) {
                        out.insert(f);
                    }
                }
            }
        }
        edges.insert(file.clone(), out);
    }
    edges
}

/// Below the module layers, files do not lean on each other in circles: no
/// file reaches, through the files it uses, back to itself (a piece two
/// files share lives in a third, below both).
#[test]
fn no_source_files_use_each_other_in_a_circle() {
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    let mut mods = BTreeMap::new();
    for f in &all {
        let rel = f.strip_prefix("src").unwrap();
        if rel == Path::new("main.rs") {
            continue;
        }
        let (m, _) = module_of(rel);
        mods.insert(m, rel.to_string_lossy().into_owned());
    }
    let edges = file_edges(&mods);
    assert!(
        edges["experiment/kinds/speed/scaling.rs"]
            .contains("experiment/kinds/speed/scaling_build.rs"),
        "the resolver finds `use super::scaling_build::*`"
    );
    // peel files that reach no file left, and files no file left reaches;
    // what remains sits on a circle (or between two)
    let mut left: BTreeSet<&String> = edges.keys().collect();
    loop {
        let peel = left
            .iter()
            .find(|f| {
                !edges[**f].iter().any(|g| left.contains(g))
                    || !left.iter().any(|g| edges[*g].contains(**f))
            })
            .copied();
        match peel {
            Some(f) => {
                left.remove(f);
            }
            None => break,
        }
    }
    let circles: Vec<String> = left
        .iter()
        .map(|f| {
            let next: Vec<&String> = edges[*f].iter().filter(|g| left.contains(g)).collect();
            format!("{f} -> {next:?}")
        })
        .collect();
    assert!(
        circles.is_empty(),
        "files on a circle:\n{}",
        circles.join("\n")
    );
}
