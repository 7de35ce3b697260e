//! Counting, blocked, scalable Bloom and cuckoo filters on the shared quick run.

use super::common::*;

/// Deleting genuine cuckoo members: every delete finds its fingerprint, no
/// kept member vanishes, and the deleted keys test present at the FPR of the
/// load left (Wilson, z = 4.5).
#[test]
fn cuckoo_deletes_keep_the_other_members() {
    let t = quick("cuckoo_delete");
    assert_eq!(t.rows.len(), 3);
    for r in &t.rows {
        let what = format!("f = {}", f(&t, r, "fingerprint_bits"));
        let d = f(&t, r, "deleted");
        assert!(d > 0.0, "{what}");
        assert_eq!(f(&t, r, "delete_failures"), 0.0, "{what}");
        assert_eq!(f(&t, r, "lost_members_k"), 0.0, "{what}");
        assert_eq!(f(&t, r, "false_negatives"), 0.0, "{what}");
        assert_eq!(f(&t, r, "deleted_still_present_n"), d, "{what}");
        within(
            f(&t, r, "deleted_still_present_k"),
            d,
            f(&t, r, "deleted_still_present_theory"),
            &what,
        );
    }
}

/// Cuckoo tables from 2^10 to 2^20 buckets at 90%: every member found, the
/// FPR at 1 − (1 − 1/(2^f − 1))^(2bα) (Wilson, z = 4.5), two buckets per
/// query, and fewer evictions than inserts at every size.
#[test]
fn cuckoo_scale_keeps_its_cost_per_operation() {
    let t = quick("cuckoo_scale");
    assert_eq!(t.rows.len(), 6);
    for r in &t.rows {
        let what = format!("2^{} buckets", f(&t, r, "buckets_log2"));
        assert_eq!(f(&t, r, "false_negatives"), 0.0, "{what}");
        assert_eq!(f(&t, r, "buckets_per_query"), 2.0, "{what}");
        let capacity = f(&t, r, "capacity");
        assert_eq!(f(&t, r, "items"), (0.9 * capacity).round(), "{what}");
        let kicks = f(&t, r, "kicks_per_insert");
        assert!(kicks > 0.0 && kicks < 1.0, "{what}: {kicks}");
        within(
            f(&t, r, "fpr_measured_k"),
            f(&t, r, "fpr_measured_n"),
            f(&t, r, "fpr_theory"),
            &what,
        );
    }
}

#[test]
fn counting_bloom_space_overflow_and_deletes() {
    // space: 4-bit counters are 4× the plain filter's bytes (8-bit: 8×) at the
    // same FPR, which equals the plain filter's exactly (same probes)
    let t = quick("counting_bloom_space");
    for r in t.where_str("test", "space") {
        let bits = f(&t, r, "counter_bits");
        assert!((f(&t, r, "bytes_over_plain") / bits - 1.0).abs() < 1e-4);
        assert_eq!(
            t.cell(r, "fpr_measured_k"),
            t.cell(r, "plain_fpr_measured_k")
        );
        assert_eq!(f(&t, r, "overflow_events"), 0.0);
    }
    // saturation: the pooled overflow rate per load is within 4.5 sigma (Wilson) of theory
    let t = quick("counting_bloom_saturation");
    for bits in ["4", "8"] {
        for load in ["1", "3", "5"] {
            let rows: Vec<_> = t
                .rows
                .iter()
                .filter(|r| t.str(r, "counter_bits") == bits && t.str(r, "load") == load)
                .collect();
            assert!(!rows.is_empty(), "{bits} {load}");
            let hits: f64 = rows.iter().map(|r| f(&t, r, "any_overflow_k")).sum();
            let theory = f(&t, rows[0], "any_overflow_theory");
            within(
                hits,
                rows.len() as f64,
                theory,
                &format!("{bits}-bit at load {load}"),
            );
            if bits == "8" {
                assert_eq!(hits, 0.0, "8-bit counters overflowed at load {load}");
            }
        }
    }
    // forced overflow: decrementing saturated 4-bit counters loses members at
    // 10× capacity; sticky counters and 8-bit counters never do
    let t = quick("counting_bloom_overflow");
    let mut lost_decrementing = 0.0;
    for r in &t.rows {
        let lost = f(&t, r, "lost_members_k") + f(&t, r, "deletes_refused");
        if t.str(r, "overflow") == "sticky" || t.str(r, "counter_bits") == "8" {
            assert_eq!(
                lost,
                0.0,
                "{} {}",
                t.str(r, "overflow"),
                t.str(r, "counter_bits")
            );
        } else if t.str(r, "load") == "10" {
            lost_decrementing += lost;
        }
    }
    assert!(lost_decrementing > 0.0);
    // bogus deletes: none lost without them, strictly more with more of them
    let t = quick("counting_bloom_bogus");
    let mut lost: Vec<(f64, f64)> = t
        .rows
        .iter()
        .map(|r| (f(&t, r, "bogus_deletes"), f(&t, r, "lost_members")))
        .collect();
    lost.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert_eq!(lost[0], (0.0, 0.0));
    assert!(lost.windows(2).all(|w| w[0].1 < w[1].1), "{lost:?}");
}

#[test]
fn blocked_bloom_pays_its_theoretical_penalty() {
    let t = quick("blocked_bloom");
    assert!(!t.rows.is_empty());
    for r in &t.rows {
        let what = format!("{} bits/key", t.str(r, "bits_per_key"));
        assert_eq!(f(&t, r, "false_negatives"), 0.0, "{what}");
        for (m, th) in [
            ("fpr_measured", "fpr_theory_blocked"),
            ("standard_fpr_measured", "fpr_theory_standard"),
        ] {
            within(
                f(&t, r, &format!("{m}_k")),
                f(&t, r, &format!("{m}_n")),
                f(&t, r, th),
                &format!("{what} {m}"),
            );
        }
        // the penalty is real: blocked is worse than standard beyond noise at >= 10 bits/key
        if f(&t, r, "bits_per_key") >= 10.0 {
            assert!(f(&t, r, "penalty_theory") > 1.1);
        }
    }
}

#[test]
fn scalable_bloom_stays_under_its_bound_while_a_fixed_filter_degrades() {
    let t = quick("scalable_bloom");
    for r in &t.rows {
        let what = format!("n = {}, growth {}", t.str(r, "n"), t.str(r, "growth"));
        assert_eq!(f(&t, r, "false_negatives"), 0.0, "{what}");
        within(
            f(&t, r, "fpr_measured_k"),
            f(&t, r, "fpr_measured_n"),
            f(&t, r, "fpr_theory"),
            &what,
        );
        assert!(f(&t, r, "fpr_theory") < f(&t, r, "fpr_bound"), "{what}");
        within(
            f(&t, r, "fixed_fpr_measured_k"),
            f(&t, r, "fixed_fpr_measured_n"),
            f(&t, r, "fixed_fpr_theory"),
            &format!("{what}, fixed"),
        );
    }
    // at 10x the fixed filter's capacity it answers yes to nearly everything
    let big = t.rows.iter().find(|r| t.str(r, "n") == "1000000").unwrap();
    assert!(f(&t, big, "fixed_fpr_measured") > 0.9);
    assert!(f(&t, big, "filters") > 3.0);
}

#[test]
fn cuckoo_filters_fill_to_their_load_and_match_the_fpr_bound() {
    let t = quick("cuckoo_load");
    for r in &t.rows {
        let what = format!(
            "b = {}, f = {}",
            t.str(r, "bucket_size"),
            t.str(r, "fingerprint_bits")
        );
        assert_eq!(
            f(&t, r, "false_negatives"),
            0.0,
            "{what}: a member was dropped"
        );
        let load = f(&t, r, "first_failure_load");
        // larger buckets reach higher loads (Fan et al.: b = 1 ~50%, 2 ~84%, 4 ~95%, 8 ~98%)
        let floor = match t.str(r, "bucket_size").as_str() {
            "1" => 0.3,
            "2" => 0.7,
            "4" => 0.9,
            _ => 0.95,
        };
        assert!(load > floor && load <= 1.0, "{what}: {load}");
    }
    let t = quick("cuckoo_fpr");
    for r in &t.rows {
        let what = format!("f = {}", t.str(r, "fingerprint_bits"));
        assert_eq!(f(&t, r, "false_negatives"), 0.0, "{what}");
        within(
            f(&t, r, "fpr_measured_k"),
            f(&t, r, "fpr_measured_n"),
            f(&t, r, "fpr_theory"),
            &what,
        );
        assert!(f(&t, r, "fpr_theory") <= f(&t, r, "fpr_bound"));
    }
    let t = quick("cuckoo_bogus");
    for r in &t.rows {
        let lost = f(&t, r, "lost_members_k");
        if f(&t, r, "bogus_deletes") == 0.0 {
            assert_eq!(lost, 0.0);
        } else if t.str(r, "fingerprint_bits") == "8" && f(&t, r, "bogus_deletes") >= 10_000.0 {
            assert!(lost > 0.0);
        }
    }
}

/// The frontier on the shared quick run: every structure that can be sized
/// for ε holds all its members and meets its own theory's FPR (Wilson,
/// z = 4.5), never takes fewer bits per key than log2(1/ε) at its measured
/// rate, and says what it cannot do: a static filter takes no key after
/// build, and one that cannot reach ε leaves its metrics empty with the reason.
#[test]
fn filter_frontier_meets_each_structures_theory_and_the_limit() {
    let t = quick("filter_frontier");
    let mut structures = std::collections::BTreeSet::new();
    for r in &t.rows {
        let s = t.str(r, "structure");
        let what = format!("{s} at ε = {}, {} keys", t.str(r, "fpr"), t.str(r, "keys"));
        structures.insert(s.clone());
        let static_filter = sketchlab::structures::menu::Filter::from_name(&s)
            .expect("a menu filter")
            .is_static();
        assert_eq!(
            t.str(r, "inserts_after_build") == "true",
            !static_filter,
            "{what}"
        );
        if t.f64(r, "bits_per_key").is_none() {
            assert!(
                !t.str(r, "note").is_empty(),
                "{what}: no metrics and no reason"
            );
            assert_eq!(s, "xor", "{what}: only xor runs out of fingerprint widths");
            continue;
        }
        assert_eq!(f(&t, r, "false_negatives"), 0.0, "{what}");
        let (k, n) = (f(&t, r, "fpr_measured_k"), f(&t, r, "fpr_measured_n"));
        within(k, n, f(&t, r, "fpr_theory"), &what);
        if k > 0.0 {
            // the limit at the upper end of the measured rate's interval
            let hi = f(&t, r, "fpr_measured_hi");
            assert!(f(&t, r, "bits_per_key") >= (1.0 / hi).log2(), "{what}");
        }
    }
    assert_eq!(
        structures.len(),
        sketchlab::structures::menu::Filter::ALL.len(),
        "{structures:?}"
    );
}

/// The frontier's timing side: every reachable structure was built, queried
/// and timed, and its timed absent-key loop agrees with the FPR it should
/// have (its positives within z = 4.5 of the theory of the frontier's row
/// at the same n, ε and keys: the quick grids share them).
#[test]
fn filter_speed_times_every_structure() {
    let t = quick("filter_speed");
    let frontier = quick("filter_frontier");
    for r in &t.rows {
        let what = format!("{} at ε = {}", t.str(r, "structure"), t.str(r, "fpr"));
        if t.f64(r, "bytes").is_none() {
            assert!(!t.str(r, "note").is_empty(), "{what}");
            continue;
        }
        for c in [
            "build_ns_per_key",
            "query_ns_positive",
            "query_ns_mixed",
            "query_ns_negative",
        ] {
            assert!(f(&t, r, c) > 0.0, "{what}: {c}");
        }
        let theory = frontier
            .rows
            .iter()
            .find(|x| {
                ["structure", "fpr", "n", "keys"]
                    .iter()
                    .all(|c| frontier.str(x, c) == t.str(r, c))
            })
            .map(|x| f(&frontier, x, "fpr_theory"))
            .unwrap_or_else(|| panic!("{what}: no frontier row at the same (n, ε, keys)"));
        within(
            f(&t, r, "negatives_positive"),
            f(&t, r, "queries"),
            theory,
            &what,
        );
    }
}
