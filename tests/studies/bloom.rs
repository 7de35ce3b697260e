//! The Bloom filter studies on the shared quick run.

use super::common::*;
use sketchlab::structures::bloom::theory;

#[test]
fn bloom_fpr_matches_theory() {
    let t = quick("bloom_fpr");
    check_filter_rows(&t, "k_used", "bloom_fpr");
    // The optimal integer k really is the minimum of the measured curve at 10
    // bits/key: no integer k in the grid beats it by more than 4.5 standard
    // errors of the difference (k = 5..10 are the close competitors).
    let at = |k: &str| {
        t.rows
            .iter()
            .find(|r| {
                t.str(r, "bits_per_key") == "10" && t.str(r, "k") == k && t.str(r, "hash") == "xxh3"
            })
            .unwrap_or_else(|| panic!("no row for k = {k}"))
    };
    let opt = at("optimal");
    let (best, q) = (f(&t, opt, "fpr_measured"), f(&t, opt, "queries"));
    let mut compared = 0;
    for k in t
        .distinct("k")
        .iter()
        .map(|v| v.to_string())
        .filter(|k| k != "optimal")
    {
        let other = f(&t, at(&k), "fpr_measured");
        let se = ((best * (1.0 - best) + other * (1.0 - other)) / q).sqrt();
        assert!(
            other >= best - Z * se,
            "k = {k}: {other} beats the optimum {best} by more than {Z} se ({se})"
        );
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} values of k compared");
    // and it is the optimum by a visible margin against the far ones
    assert!(f(&t, at("1"), "fpr_measured") > 5.0 * best);
}

#[test]
fn bloom_sizing_builds_the_documented_filters() {
    let t = quick("bloom_sizing");
    check_filter_rows(&t, "k", "bloom_sizing");
    for r in &t.rows {
        let (n, p) = (f(&t, r, "n") as u64, f(&t, r, "p"));
        assert_eq!(f(&t, r, "m") as u64, theory::optimal_m(n, p));
        // the target is met within the interval, or missed only by the integer-k rounding
        let q = f(&t, r, "queries");
        within(
            f(&t, r, "fpr_measured") * q,
            q,
            f(&t, r, "fpr_theory"),
            "sizing vs theory",
        );
    }
    let one = t.rows.iter().find(|r| t.str(r, "p") == "0.01").unwrap();
    assert_eq!((f(&t, one, "m"), f(&t, one, "k")), (9_585_059.0, 7.0));
}

#[test]
fn bloom_overfill_reaches_43_6_percent() {
    let t = quick("bloom_overfill");
    check_filter_rows(&t, "k", "bloom_overfill");
    let last = t.rows.iter().find(|r| t.str(r, "n") == "3000000").unwrap();
    let q = f(&t, last, "queries");
    within(f(&t, last, "fpr_measured") * q, q, 0.436, "43.6% at 3M");
    // FPR grows monotonically with the keys inserted
    let fprs: Vec<f64> = t.rows.iter().map(|r| f(&t, r, "fpr_measured")).collect();
    assert!(fprs.windows(2).all(|w| w[0] < w[1]), "{fprs:?}");
}

#[test]
fn opening_filter_saturates() {
    let t = quick("opening_100m_urls");
    let big = t
        .rows
        .iter()
        .find(|r| t.str(r, "n") == "100000000")
        .unwrap();
    assert!(f(&t, big, "fpr_measured") > 0.999);
    assert_eq!(f(&t, big, "false_negatives"), 0.0);
    assert!((f(&t, big, "required_mb") - 119.8).abs() < 0.1);
}

#[test]
fn hit_rate_counts_agree_with_the_economics() {
    let t = quick("hit_rate");
    for r in &t.rows {
        let (req, lookups) = (f(&t, r, "requests"), f(&t, r, "store_lookups"));
        assert_eq!(f(&t, r, "false_negatives"), 0.0);
        assert_eq!(
            f(&t, r, "genuine_hits") + f(&t, r, "false_positives_passed"),
            lookups
        );
        let h = f(&t, r, "hit_rate");
        within(
            lookups,
            req,
            theory::store_traffic(h, f(&t, r, "filter_fpr_theory")),
            "store traffic",
        );
    }
}

#[test]
fn key_size_leaves_fpr_unchanged_and_hashsets_grow() {
    let t = quick("key_size");
    // The exact set grows with the key size (4 B < 8 B < 16 B < 100 B < 2 KiB), and
    // so does its cost relative to the filter, which does not.
    let by_key = |k: &str| t.rows.iter().find(|r| t.str(r, "keys") == k).unwrap();
    let sets: Vec<f64> = ["u32", "u64", "bytes16", "url100", "blob2k"]
        .iter()
        .map(|k| f(&t, by_key(k), "hashset_bytes"))
        .collect();
    assert!(
        sets.windows(2).all(|w| w[0] < w[1]),
        "HashSet bytes: {sets:?}"
    );
    let ratio: Vec<f64> = ["u32", "u64", "bytes16", "url100", "blob2k"]
        .iter()
        .map(|k| f(&t, by_key(k), "hashset_over_filter"))
        .collect();
    assert!(
        ratio.windows(2).all(|w| w[0] < w[1]),
        "set/filter: {ratio:?}"
    );
    for r in &t.rows {
        let q = f(&t, r, "queries");
        within(
            f(&t, r, "fpr_measured") * q,
            q,
            f(&t, r, "fpr_theory"),
            &t.str(r, "keys"),
        );
        // the exact set holds at least the key bytes, measured by the allocator
        assert!(
            f(&t, r, "hashset_bytes") >= f(&t, r, "raw_key_bytes"),
            "{}",
            t.str(r, "keys")
        );
    }
}

/// The LSM read path against its exact expectations: false positives per run
/// checked at the run filter's FPR (Wilson, z = 4.5), the per-file hit rate at
/// h / (h·(R + 1)/2 + (1 − h)·R), and no false negatives.
#[test]
fn lsm_read_path_counts_reads_as_the_read_path_predicts() {
    let t = quick("lsm_read_path");
    assert_eq!(t.rows.len(), 18);
    for r in &t.rows {
        let what = format!("runs {} h {}", f(&t, r, "runs"), f(&t, r, "hit_rate"));
        let runs = f(&t, r, "runs");
        assert_eq!(f(&t, r, "false_negatives"), 0.0, "{what}");
        let absent = f(&t, r, "absent_lookups");
        if absent > 0.0 {
            // every run is checked for an absent key; each "maybe" is one read
            assert_eq!(f(&t, r, "absent_reads_without"), runs, "{what}");
            within(
                f(&t, r, "absent_reads_with") * absent,
                runs * absent,
                f(&t, r, "run_fpr_theory"),
                &what,
            );
        }
        let present = f(&t, r, "present_lookups");
        if present > 0.0 {
            // the key's own run is always read; without filters the runs up to it
            assert!(f(&t, r, "present_reads_with") >= 1.0, "{what}");
            let mean = f(&t, r, "present_reads_without");
            let sd = ((runs * runs - 1.0) / 12.0 / present).sqrt();
            assert!((mean - (runs + 1.0) / 2.0).abs() < Z * sd, "{what}: {mean}");
        }
        within(
            f(&t, r, "file_hit_rate_k"),
            f(&t, r, "file_hit_rate_n"),
            f(&t, r, "file_hit_rate_theory"),
            &what,
        );
    }
}

/// The CPython set of the same keys, measured inside a real python3: what
/// tracemalloc saw is the table plus every key object, and each object is the
/// size CPython's layout gives (compact ASCII str = 49 + length, bytes = 33 +
/// length, a 32-bit int 28-32 bytes); under CI, python3 must be there.
#[test]
fn key_size_measures_a_real_cpython_set_of_the_same_keys() {
    let t = quick("key_size");
    let n = |r: &[sketchlab::experiment::Value]| f(&t, r, "n");
    let mut measured = 0;
    for r in &t.rows {
        let keys = t.str(r, "keys");
        if keys == "blob2k" {
            assert!(t.f64(r, "python_bytes").is_none());
            continue;
        }
        let Some(total) = t.f64(r, "python_bytes") else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "under CI python3 must measure {keys}: {}",
                t.str(r, "python_version")
            );
            continue;
        };
        measured += 1;
        let (table, objects) = (
            f(&t, r, "python_table_bytes"),
            f(&t, r, "python_key_object_bytes"),
        );
        // tracemalloc sees the table and the key objects: exactly for bytes
        // and str; for ints, `int.from_bytes` allocates ceil(8w/30) 30-bit
        // digits and normalises a smaller value without shrinking, so each key
        // may hold one 4-byte digit more than `sys.getsizeof` reports
        let extra = total - table - objects;
        let slack = if keys.starts_with('u') {
            4.0 * n(r)
        } else {
            0.0
        };
        assert!(
            extra.abs() <= 1024.0 || (0.0..=slack).contains(&extra),
            "{keys}: {extra}"
        );
        // an open-addressing table of 16-byte entries, at most 60% full
        assert!(
            table >= 16.0 * n(r) / 0.6 && table <= 16.0 * 4.0 * n(r),
            "{keys}"
        );
        let per = objects / n(r);
        match keys.as_str() {
            "url100" => assert_eq!(per, 149.0),
            "bytes16" => assert_eq!(per, 49.0),
            "u32" => assert!((28.0..=32.0).contains(&per), "{per}"),
            "u64" => assert!((28.0..=36.0).contains(&per), "{per}"),
            other => panic!("unexpected key type {other}"),
        }
        let raw = f(&t, r, "raw_key_bytes");
        assert!((f(&t, r, "python_over_raw") - total / raw).abs() < 1e-9);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        assert_eq!(measured, 4);
    }
}

#[test]
fn double_hashing_matches_independent_hashes_on_large_filters() {
    let (spec, t) = (spec("double_hashing"), quick("double_hashing"));
    check_filter_rows(&t, "k_used", "double_hashing");
    let kind = spec.kind;
    let s =
        sketchlab::experiment::summary::summarise(&t, &kind.param_columns(), &kind.fields(), 0.95)
            .unwrap();
    let mut pairs = 0;
    for d in s
        .rows
        .iter()
        .filter(|r| s.str(r, "scheme") != "independent" && s.str(r, "n") == "100000")
    {
        let i = s
            .rows
            .iter()
            .find(|o| {
                s.str(o, "scheme") == "independent"
                    && ["n", "bits_per_key", "hash"]
                        .iter()
                        .all(|c| s.cell(o, c) == s.cell(d, c))
            })
            .unwrap();
        // means over replicates agree within 4.5 standard errors of the difference
        let se = |r: &[sketchlab::table::Value]| {
            f(&s, r, "fpr_measured_sd") / f(&s, r, "replicates").sqrt()
        };
        let (a, b) = (f(&s, d, "fpr_measured"), f(&s, i, "fpr_measured"));
        let tol = Z * (se(d).powi(2) + se(i).powi(2)).sqrt();
        assert!(
            (a - b).abs() <= tol,
            "{} {}: {a} vs {b} (±{tol})",
            s.str(d, "scheme"),
            s.str(d, "bits_per_key")
        );
        pairs += 1;
    }
    assert!(pairs >= 4, "{pairs}");
}

#[test]
fn enhanced_double_hashing_removes_the_repeated_probe_excess() {
    use sketchlab::hashing::double::{EnhancedProbes, Probes};
    use sketchlab::structures::bloom::theory;
    // n = 10^4 at 24 bits per key: m = 240,000, k = 17. A query whose probes
    // hit d distinct bits is a false positive with probability ρ^d; averaging
    // over every step h2 mod m gives each scheme's exact FPR at fill ρ.
    let (n, m, k) = (10_000.0, 240_000u64, 17u32);
    let rho = theory::expected_fill(n, m as f64, k as f64);
    let distinct = |v: Vec<u64>| {
        let mut v = v;
        v.sort_unstable();
        v.dedup();
        v.len() as i32
    };
    let (mut plain, mut enhanced, mut plain_short) = (0.0, 0.0, 0u64);
    for step in 0..m {
        let d = distinct(Probes::new(12_345, step, k, m).collect());
        plain_short += (d < k as i32) as u64;
        plain += rho.powi(d) / m as f64;
        enhanced +=
            rho.powi(distinct(EnhancedProbes::new(12_345, step, k, m).collect())) / m as f64;
    }
    // divisors of 240,000 below 17: 1,2,3,4,5,6,8,10,12,15,16 -> Σφ(d) = 40 short steps
    assert_eq!(plain_short, 40);
    // the excess formula in theory.rs is exactly this average
    let want = theory::fpr_double_hashing(n, m, k);
    assert!((plain / want - 1.0).abs() < 1e-9, "{plain} vs {want}");
    let independent = rho.powi(k as i32);
    assert!(plain / independent > 1.3, "plain {plain} vs {independent}");
    // enhanced double hashing repeats a probe only rarely and never collapses a
    // sequence to a few bits: within 2% of independent probes
    assert!(
        (enhanced / independent - 1.0).abs() < 0.02,
        "enhanced {enhanced} vs {independent}"
    );
}

#[test]
fn doc_examples_are_checked_and_simulated() {
    let t = quick("doc_examples");
    let row = |e: &str| t.rows.iter().find(|r| t.str(r, "example") == e).unwrap();
    for e in ["chapter_m12_k3", "essay_m16_k3"] {
        assert_eq!(f(&t, row(e), "consistent"), 1.0, "{e}");
        assert_eq!(f(&t, row(e), "documented_false_positive"), 1.0, "{e}");
    }
    // The chapter's own code: bits {1,3,8,9,10,11} and no false positive for grape.
    let ch = row("chapter_m12_k3");
    assert_eq!(t.str(ch, "book_code_false_positive"), "false");
    assert!(
        t.str(ch, "book_code_positions")
            .starts_with("apple:11/10/9 banana:3/8/1 grape:1/3/5")
    );
    // One hash, two inserts: exactly 1 - (15/16)^2 for a fresh key.
    let k1 = row("essay_m16_k1");
    let trials = f(&t, k1, "trials");
    within(
        f(&t, k1, "fpr_measured") * trials,
        trials,
        1.0 - (15.0f64 / 16.0).powi(2),
        "essay k = 1",
    );
    // Ten hashes, three inserts: far from "all sixteen bits".
    let k10 = row("essay_m16_k10");
    assert!(f(&t, k10, "bits_set_mean") < 15.0 && f(&t, k10, "prob_all_set") < 0.5);
    let rf = row("reference_fpr");
    let q = f(&t, rf, "queries");
    within(
        f(&t, rf, "fpr_measured") * q,
        q,
        f(&t, rf, "fpr_theory"),
        "chapter reference filter",
    );
}
