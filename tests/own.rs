//! Your own structure through the library: a third-party filter (the
//! cuckoofilter crate) wrapped in `Membership` and measured with one call,
//! and the compiled `examples/own_filter` (fastbloom) run as a user would.

use sketchlab::stats::{Proportion, wilson};
use sketchlab::structures::{InsertError, Membership};

/// cuckoofilter 0.5's filter (SipHash-1-3 via DefaultHasher, 8-bit
/// fingerprints, 4-slot buckets), as sketchlab sees it.
struct Cuckoo {
    f: cuckoofilter::CuckooFilter<std::collections::hash_map::DefaultHasher>,
    /// Fingerprint slots: its with_capacity(n) makes n.next_power_of_two().
    slots: u64,
}

impl Membership for Cuckoo {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        self.f
            .add(key)
            .map_err(|e| InsertError::Full(e.to_string()))
    }
    fn contains(&self, key: &[u8]) -> bool {
        self.f.contains(key)
    }
    fn fill_ratio(&self) -> f64 {
        self.fill().rate
    }
    fn fill(&self) -> Proportion {
        Proportion::new(self.f.len() as u64, self.slots)
    }
    fn bytes(&self) -> usize {
        self.f.memory_usage()
    }
}

#[test]
fn a_third_party_cuckoo_filter_is_measured_with_one_call() {
    let d = tempfile::tempdir().unwrap();
    let spec = r#"
name = "cuckoofilter"
kind = "own_filter"
description = "cuckoofilter 0.5, sized for n (its with_capacity), at its fixed 8-bit fingerprints"
seed = 11
[grid]
n = [5_000, 20_000]
fpr = 0.03
queries = 100_000
"#;
    let m = sketchlab::experiment::own::measure_filter(
        |n, _fpr, _seed| Cuckoo {
            f: cuckoofilter::CuckooFilter::with_capacity(n as usize),
            slots: n.next_power_of_two(),
        },
        spec,
        d.path(),
    )
    .unwrap();
    let csv = std::fs::read_to_string(m.dir.join("results.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    for col in [
        "fpr_measured",
        "fpr_measured_lo",
        "fpr_measured_hi",
        "fpr_target",
        "bits_per_key",
        "limit_bits",
        "waste_pct",
        "bloom_ratio",
    ] {
        assert!(header.split(',').any(|c| c == col), "{col} in {header}");
    }
    let t = &m.study.tables.results;
    assert_eq!(t.rows.len(), 2);
    for r in &t.rows {
        assert_eq!(t.f64(r, "false_negatives"), Some(0.0));
        // 8-bit fingerprints in 4-slot buckets: ε ≤ 2b/2^f = 8/256 at full load
        let k = t.f64(r, "fpr_measured_k").unwrap() as u64;
        let (lo, _) = wilson(k, 100_000, 4.5);
        assert!(lo <= 8.0 / 256.0, "{k}/100000");
        assert!(k > 0);
    }
    for chart in ["fpr_vs_target.svg", "bits_vs_fpr.svg"] {
        assert!(m.dir.join(chart).is_file(), "{chart}");
    }
    let manifest = std::fs::read_to_string(m.dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"kind\": \"own_filter\""));
}

/// `cargo test` builds the examples; this runs `examples/own_filter`
/// (fastbloom) as a user would and reads what it wrote.
#[test]
fn the_example_runs_and_writes_results_with_theory_columns() {
    let exe = std::env::current_exe().unwrap();
    let examples = exe.parent().unwrap().parent().unwrap().join("examples");
    let bin = examples.join(format!("own_filter{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.is_file(),
        "{} (cargo test builds examples)",
        bin.display()
    );
    let d = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(&bin)
        .arg(d.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(d.path().join("fastbloom/results.csv")).unwrap();
    assert!(csv.lines().next().unwrap().contains("fpr_target"));
    assert_eq!(csv.lines().count(), 13, "12 trials and the header");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("False negatives across all trials: 0."),
        "{text}"
    );
}

/// The cardinality-estimator crate's HyperLogLog (2^12 registers of 6 bits,
/// its WyHash), as sketchlab sees it: one estimator.
struct CardEst(cardinality_estimator::CardinalityEstimator<[u8], wyhash::WyHash, 12, 6>);

impl sketchlab::structures::Cardinality for CardEst {
    fn estimators(&self) -> &'static [&'static str] {
        &["estimate"]
    }
    fn insert(&mut self, key: &[u8]) {
        self.0.insert(key);
    }
    fn estimate(&self, estimator: &str) -> Option<f64> {
        (estimator == "estimate").then(|| self.0.estimate() as f64)
    }
}

/// A third-party distinct-count sketch through `measure_cardinality`: one
/// row per replicate, a summary with the bias and mean squared error, the
/// declared charts, and a measured RSE whose 95% interval holds the
/// 1.04/√4096 HyperLogLog claims.
#[test]
fn a_third_party_distinct_count_sketch_is_measured_with_one_call() {
    let d = tempfile::tempdir().unwrap();
    let spec = r#"
name = "cardinality_estimator"
kind = "own_cardinality"
description = "cardinality-estimator 1.0 at 2^12 registers, against HyperLogLog's 1.04/sqrt(m)"
seed = 12
[grid]
n = [20_000, 100_000]
rse = 0.01625
replicates = 40
"#;
    let m = sketchlab::experiment::own::measure_cardinality(
        |_seed| CardEst(cardinality_estimator::CardinalityEstimator::new()),
        spec,
        d.path(),
    )
    .unwrap();
    assert_eq!(m.study.tables.results.rows.len(), 80);
    let s = m.study.tables.summary.as_ref().unwrap();
    assert_eq!(s.rows.len(), 2);
    for r in &s.rows {
        let (lo, hi) = (
            s.f64(r, "sq_rel_error_lo").unwrap().max(0.0).sqrt(),
            s.f64(r, "sq_rel_error_hi").unwrap().sqrt(),
        );
        assert!(lo <= 0.01625 && 0.01625 <= hi, "RSE [{lo}, {hi}]");
    }
    for chart in ["rse_vs_n.svg", "bias_vs_n.svg"] {
        assert!(m.dir.join(chart).is_file(), "{chart}");
    }
    let section = m.study.spec.section(&m.study.tables);
    eprintln!(
        "{}\n{}",
        sketchlab::export::markdown::table(&section.table),
        section.reading
    );
    assert!(
        section
            .reading
            .contains("of 2 (n, estimator) settings err more"),
        "{}",
        section.reading
    );
}

/// The count-min-sketch crate's `CountMinSketch64`, sized by its own
/// `new(capacity, probability, tolerance)` for ε·N at confidence 1 − δ.
struct CrateCms(count_min_sketch::CountMinSketch64<Vec<u8>>, u64);

impl sketchlab::structures::Frequency for CrateCms {
    fn update(&mut self, key: &[u8], count: u64) {
        self.0.add(&key.to_vec(), count);
        self.1 += count;
    }
    fn estimate(&self, key: &[u8]) -> u64 {
        self.0.estimate(&key.to_vec())
    }
    fn total(&self) -> u64 {
        self.1
    }
}

/// A third-party frequency sketch through `measure_frequency`: the share of
/// keys beyond ε·N beside the δ it was sized for, no underestimates (it is
/// a Count-Min), the declared chart.
#[test]
fn a_third_party_frequency_sketch_is_measured_with_one_call() {
    let d = tempfile::tempdir().unwrap();
    let spec = r#"
name = "count_min_sketch"
kind = "own_frequency"
description = "count-min-sketch 0.2's CountMinSketch64 sized for epsilon*N at confidence 1 - delta"
seed = 13
[grid]
universe = 20_000
updates = 200_000
s = [0.8, 1.2]
epsilon = 0.001
delta = 0.01
"#;
    let m = sketchlab::experiment::own::measure_frequency(
        |_seed| {
            let sketch = count_min_sketch::CountMinSketch64::new(200_000, 0.99, 200.0).unwrap();
            CrateCms(sketch, 0)
        },
        spec,
        d.path(),
    )
    .unwrap();
    let t = &m.study.tables.results;
    assert_eq!(t.rows.len(), 2);
    for r in &t.rows {
        assert_eq!(t.f64(r, "underestimates"), Some(0.0));
        assert_eq!(t.f64(r, "total"), Some(200_000.0));
        // Count-Min's guarantee: at most δ of keys beyond εN (99.999% Wilson)
        let k = t.f64(r, "exceed_k").unwrap() as u64;
        let (lo, _) = sketchlab::stats::wilson(k, 20_000, 4.5);
        assert!(lo <= 0.01, "{k}/20000 beyond εN");
    }
    assert!(m.dir.join("exceed_vs_s.svg").is_file());
    let section = m.study.spec.section(&m.study.tables);
    eprintln!(
        "{}\n{}",
        sketchlab::export::markdown::table(&section.table),
        section.reading
    );
}
