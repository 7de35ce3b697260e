//! What every family's tests share: the one quick reproduce, its tables, and
//! the Wilson and fill checks.

use sketchlab::experiment::Spec;
use sketchlab::experiment::runner::{RunOptions, run_trials};
use sketchlab::metrics::alloc::CountingAlloc;
use sketchlab::stats::wilson;
use sketchlab::table::Table;
use std::path::Path;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

pub const Z: f64 = 4.5;

/// One `reproduce --quick` for the whole file, into a directory that lives
/// as long as the test process.
pub fn quick_out() -> &'static Path {
    static OUT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    OUT.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        assert_cmd::Command::cargo_bin("sketchlab")
            .unwrap()
            .args(["reproduce", "--quick", "--quiet", "--threads", "2", "--out"])
            .arg(d.path())
            .assert()
            .success();
        d
    })
    .path()
}

pub fn spec(name: &str) -> Spec {
    Spec::load(&Path::new("experiments").join(format!("{name}.toml"))).unwrap()
}

/// A study's results.csv from the shared quick run, parsed by its declared columns.
pub fn quick(name: &str) -> Table {
    let bytes =
        sketchlab::export::read_output_at(&quick_out().join(name).join("results.csv")).unwrap();
    sketchlab::export::csv::parse(&bytes, &spec(name).kind.columns()).unwrap()
}

/// Runs a study's quick trials in this process (for tests that need a second run).
pub fn quick_spec(name: &str) -> (Spec, Table) {
    let spec = Spec::load(&Path::new("experiments").join(format!("{name}.toml"))).unwrap();
    let opts = RunOptions {
        out: "unused".into(),
        quick: true,
        threads: 2,
        seed: None,
        resume: false,
        shard: None,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let t = run_trials(&spec, &opts, &pool).unwrap();
    (spec, t)
}

pub fn f(t: &Table, r: &[sketchlab::experiment::Value], c: &str) -> f64 {
    t.f64(r, c)
        .unwrap_or_else(|| panic!("column {c} missing or empty"))
}

/// `expected` lies in the z = 4.5 Wilson interval of `hits` out of `trials`.
pub fn within(hits: f64, trials: f64, expected: f64, what: &str) {
    let (lo, hi) = wilson(hits as u64, trials as u64, Z);
    assert!(
        lo <= expected && expected <= hi,
        "{what}: measured {hits}/{trials} = {}, expected {expected}, interval [{lo}, {hi}]",
        hits / trials
    );
}

/// The fill of m bits after kn probes is within 6 binomial sigma of 1 - e^(-kn/m)
/// (the occupancy variance is below the binomial one, so this is conservative).
pub fn fill_ok(fill: f64, expected: f64, m: f64, what: &str) {
    let sd = (expected * (1.0 - expected) / m).sqrt().max(1.0 / m);
    assert!(
        (fill - expected).abs() <= 6.0 * sd + 1e-12,
        "{what}: fill {fill} vs {expected} (sd {sd})"
    );
}

/// FPR checks shared by the filter studies: no false negatives, the fill
/// against theory, and the FPR against fill^k (the chance k probes all land
/// on set bits, given this filter's fill).
pub fn check_filter_rows(t: &Table, k_col: &str, study: &str) {
    assert!(!t.rows.is_empty());
    for r in &t.rows {
        let what = format!("{study} trial {}", t.str(r, "trial_id"));
        assert_eq!(f(t, r, "false_negatives"), 0.0, "{what}: a false negative");
        let (m, k, fill) = (f(t, r, "m"), f(t, r, k_col), f(t, r, "fill_measured"));
        if let Some(ft) = t.f64(r, "fill_theory") {
            fill_ok(fill, ft, m, &what);
        }
        let q = f(t, r, "queries");
        within(f(t, r, "fpr_measured") * q, q, fill.powi(k as i32), &what);
    }
}

/// Every committed study with the tables the shared quick run wrote for it:
/// (name, spec, results and summary).
pub fn committed_quick_tables() -> Vec<(String, Spec, sketchlab::table::Tables)> {
    let mut out = Vec::new();
    for path in std::fs::read_dir("experiments").unwrap() {
        let path = path.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let s = spec(&name);
        let results = quick(&name);
        let summary =
            sketchlab::export::read_output_at(&quick_out().join(&name).join("summary.csv"))
                .ok()
                .map(|b| sketchlab::export::csv::parse(&b, &s.kind.summary_columns()).unwrap());
        out.push((name, s, sketchlab::table::Tables { results, summary }));
    }
    out
}

/// The summary of a multi-row study from the shared quick run.
pub fn quick_summary(name: &str) -> Table {
    let bytes =
        sketchlab::export::read_output_at(&quick_out().join(name).join("summary.csv")).unwrap();
    sketchlab::export::csv::parse(&bytes, &spec(name).kind.summary_columns()).unwrap()
}

pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

/// Every file under `dir`, relative, sorted; the output lock (which names
/// the last process that held the directory) is not output.
pub fn tree(dir: &Path) -> Vec<std::path::PathBuf> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.file_name().unwrap() != sketchlab::experiment::lock::FILE {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, dir, &mut v);
    v.sort();
    v
}

/// keys.txt groups: (the `# trial` line, the keys as bytes).
pub fn keys_txt(study: &str) -> Vec<(String, Vec<Vec<u8>>)> {
    let path = quick_out().join(study).join("keys.txt");
    let text = sketchlab::export::read_output_at(&path)
        .map(|b| String::from_utf8(b).unwrap())
        .unwrap();
    assert!(
        text.len() <= 1 << 20,
        "{study}/keys.txt is {} bytes",
        text.len()
    );
    let mut out: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("# trial ") {
            out.push((h.to_string(), Vec::new()));
        } else if line.starts_with('#') {
            continue;
        } else if line.starts_with(sketchlab::experiment::expand::PREFIX) {
            // a trial too large to list: regenerated, count and digest checked
            let keys = sketchlab::experiment::expand::expand_line(line).unwrap();
            out.last_mut().unwrap().1.extend(keys);
        } else {
            let bytes = (0..line.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&line[i..i + 2], 16).unwrap())
                .collect();
            out.last_mut().unwrap().1.push(bytes);
        }
    }
    out
}

/// The queries per timed loop of a study's quick grid.
pub fn quick_spec_queries(name: &str) -> f64 {
    let s = spec(name);
    s.grid(true)
        .iter()
        .find(|(k, _)| *k == "queries")
        .and_then(|(_, v)| v[0].as_f64())
        .unwrap()
}
