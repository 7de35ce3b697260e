//! Count-Min, MinHash, LSH and t-digest on the shared quick run.

use super::common::*;
use sketchlab::stats::wilson;

/// Count-Min at d = 1 … 6: with independent rows the share of keys beyond
/// εN is (per-row share)^d (Wilson, z = 4.5, at every d); double-hashed rows
/// agree at d = 1 (one row) and keep a floor of keys that share every row
/// with a heavy hitter, so at d = 6 they exceed what independence allows.
#[test]
fn count_min_depth_independent_rows_multiply_and_double_rows_floor() {
    let t = quick("count_min_depth");
    let alls: Vec<_> = t.where_str("bin", "all").collect();
    assert_eq!(alls.len(), 2 * 6 * 2);
    for r in alls {
        let (rows, d) = (t.str(r, "rows"), f(&t, r, "d"));
        let what = format!("{rows} rows, d = {d}");
        assert_eq!(f(&t, r, "underestimates"), 0.0, "{what}");
        let (k, n) = (f(&t, r, "over_eps_n_k"), f(&t, r, "over_eps_n_n"));
        let independent = f(&t, r, "all_rows_if_independent");
        if d == 1.0 {
            assert_eq!(f(&t, r, "all_rows_vs_independent"), 1.0, "{what}");
        }
        match rows.as_str() {
            "independent" => within(k, n, independent, &what),
            "double" if d == 6.0 => {
                let (lo, _) = wilson(k as u64, n as u64, Z);
                assert!(
                    lo > 100.0 * independent,
                    "{what}: {k} of {n} vs {independent}"
                );
            }
            _ => {}
        }
    }
}

#[test]
fn count_min_overestimates_merges_exactly_and_rows_average_n_over_w() {
    let s = quick_summary("count_min");
    let all: Vec<&Vec<sketchlab::experiment::Value>> = s.where_str("bin", "all").collect();
    assert!(!all.is_empty());
    for r in &all {
        let label = format!(
            "s = {}, {}, conservative {}, weight {}",
            s.str(r, "s"),
            s.str(r, "counter"),
            s.str(r, "conservative"),
            s.str(r, "weight")
        );
        // no underestimate unless a counter saturated
        if f(&s, r, "saturated") == 0.0 {
            assert_eq!(f(&s, r, "underestimates"), 0.0, "{label}");
        }
        if s.str(r, "counter") == "u64" {
            assert_eq!(f(&s, r, "saturated"), 0.0, "{label}");
            if let Some(pu) = s.f64(r, "peer_underestimates") {
                assert_eq!(pu, 0.0, "DataSketches underestimated: {label}");
            }
        }
        if s.str(r, "conservative") == "false" {
            assert_eq!(f(&s, r, "merge_exact"), 1.0, "{label}");
            // a row's mean overshoot is (N − f)/w averaged over keys, ≈ N/w; it
            // moves with how many keys share each heavy key's cell (Poisson,
            // variance U/w): sd ≈ N·√(Σ p_r²·(U/w)/d)/U over the Zipf probabilities
            if f(&s, r, "saturated") == 0.0 {
                let (o, nw) = (f(&s, r, "row_overshoot"), f(&s, r, "n_over_w"));
                let (u, w, d) = (100_000u64, f(&s, r, "w"), f(&s, r, "d"));
                let zs: f64 = s.str(r, "s").parse().unwrap();
                let n = f(&s, r, "total");
                let h: f64 = (1..=u).map(|k| (k as f64).powf(-zs)).sum();
                let p2: f64 = (1..=u).map(|k| ((k as f64).powf(-zs) / h).powi(2)).sum();
                let sd = n * (p2 * (u as f64 / w) / d).sqrt() / u as f64;
                assert!(
                    (o - nw).abs() <= Z * sd + 1e-3 * nw,
                    "{label}: {o} vs {nw} (sd {sd})"
                );
            }
        }
        // the per-query bound: the share beyond εN is at most δ (+ Z binomial se)
        let (share, delta, keys) = (
            f(&s, r, "over_eps_n"),
            f(&s, r, "delta"),
            f(&s, r, "keys_in_bin"),
        );
        assert!(
            share <= delta + Z * (delta / keys).sqrt(),
            "{label}: {share} > δ {delta}"
        );
    }
    // conservative update never overshoots more than plain on the same stream
    for r in all.iter().filter(|r| s.str(r, "conservative") == "true") {
        let twin = all
            .iter()
            .find(|q| {
                s.str(q, "conservative") == "false"
                    && ["s", "counter", "weight"]
                        .iter()
                        .all(|c| s.str(q, c) == s.str(r, c))
            })
            .unwrap();
        assert!(f(&s, r, "mean_overshoot") <= f(&s, twin, "mean_overshoot"));
    }
    let ex = quick("count_min_examples");
    for r in ex
        .rows
        .iter()
        .filter(|r| ex.cell(r, "consistent") != &sketchlab::table::Value::Empty)
    {
        assert_eq!(
            ex.cell(r, "consistent"),
            &sketchlab::table::Value::Bool(true)
        );
    }
}

#[test]
fn minhash_errors_match_their_standard_error_and_minima_agree_with_probability_j() {
    let s = quick_summary("minhash");
    for r in &s.rows {
        let label = format!(
            "{} k = {} J = {}",
            s.str(r, "variant"),
            s.str(r, "k"),
            s.str(r, "jaccard")
        );
        let (m, sd, se, reps) = (
            f(&s, r, "err"),
            f(&s, r, "err_sd"),
            f(&s, r, "se_theory"),
            f(&s, r, "replicates"),
        );
        // unbiased within Z standard errors of the mean (the se itself bounds the sd)
        assert!(m.abs() <= Z * se / reps.sqrt(), "{label}: bias {m}");
        // the spread is the binomial one (bottom-k samples without replacement: at most)
        assert!(sd <= 2.0 * se, "{label}: sd {sd} vs {se}");
    }
    let t = quick("minhash");
    for j in ["0.05", "0.25", "0.5", "0.95"] {
        let (mut k, mut n) = (0.0, 0.0);
        for r in t
            .where_str("jaccard", j)
            .filter(|r| t.str(r, "variant") == "k_hashes")
        {
            k += f(&t, r, "agree_k");
            n += f(&t, r, "agree_n");
        }
        let p: f64 = j.parse().unwrap();
        let se = (p * (1.0 - p) / n).sqrt();
        assert!(
            (k / n - p).abs() <= Z * se,
            "J = {j}: {} of minima agree",
            k / n
        );
    }
}

#[test]
fn minhash_lsh_recall_follows_the_s_curve() {
    let s = quick_summary("minhash_lsh");
    assert!(!s.rows.is_empty());
    for r in &s.rows {
        let label = format!("r = {} J ≥ {}", s.str(r, "rows"), s.str(r, "threshold"));
        let (near, reps) = (f(&s, r, "near_duplicates"), f(&s, r, "replicates"));
        assert!(f(&s, r, "documents") > 500.0 && near > 50.0, "{label}");
        // each pair is a candidate with probability 1 − (1 − J^r)^b: the mean
        // recall over seeds within Z binomial standard errors of the curve's
        let (rec, th) = (f(&s, r, "recall"), f(&s, r, "recall_theory"));
        let se = (th * (1.0 - th) / (near * reps))
            .sqrt()
            .max(1.0 / (near * reps));
        assert!((rec - th).abs() <= Z * se, "{label}: recall {rec} vs {th}");
        let (c, ct) = (f(&s, r, "candidates"), f(&s, r, "candidates_theory"));
        assert!(
            (c - ct).abs() <= Z * (ct / reps).sqrt() + 1.0,
            "{label}: {c} candidates vs {ct}"
        );
    }
}

#[test]
fn tdigest_rank_errors_respect_the_scale_bound_and_sampling_theory() {
    let s = quick_summary("tdigest");
    assert!(!s.rows.is_empty());
    for r in &s.rows {
        let label = format!("{} q = {}", s.str(r, "dist"), s.str(r, "q"));
        // a centroid holds at most its scale's share (K2: q(1 − q)/η): the mean
        // rank error stays within half of it
        assert!(
            f(&s, r, "rank_err_tdigest") <= f(&s, r, "tdigest_bound"),
            "{label}"
        );
        // a uniform sample's mean |rank error| is √(2/π)·√(q(1−q)/s): within Z
        // of it (over replicates; the sample quantile adds at most 1/s)
        let (e, sd, reps) = (
            f(&s, r, "rank_err_reservoir"),
            f(&s, r, "reservoir_sd_theory"),
            f(&s, r, "replicates"),
        );
        // (only where the sample reaches q: (1 − q)·s ≥ 5 of its values above it)
        let (q, size) = (f(&s, r, "q"), f(&s, r, "reservoir_values"));
        if (1.0 - q) * size >= 5.0 {
            let want = (2.0 / std::f64::consts::PI).sqrt() * sd;
            let slack = Z * sd / reps.sqrt() + 1.0 / size;
            assert!(
                (e - want).abs() <= slack,
                "{label}: reservoir {e} vs {want}"
            );
        }
        assert!(f(&s, r, "bytes_tdigest") < 4096.0, "{label}");
    }
}

#[test]
fn count_min_peers_never_underestimate_and_conservative_update_helps() {
    let s = quick_summary("count_min_peers");
    assert_eq!(s.rows.len(), 3);
    for r in &s.rows {
        assert_eq!(f(&s, r, "underestimates"), 0.0);
        // conservative update never overshoots more than plain on the same stream and shape
        assert!(f(&s, r, "overshoot_sketchlab_conservative") <= f(&s, r, "overshoot_sketchlab"));
        assert!(f(&s, r, "overshoot_count_min_sketch") <= f(&s, r, "overshoot_datasketches") * 1.1);
        assert_eq!((f(&s, r, "w"), f(&s, r, "d")), (2048.0, 5.0));
        assert_eq!(
            f(&s, r, "bytes_sketchlab"),
            f(&s, r, "bytes_count_min_sketch")
        );
    }
    let m = std::fs::read_to_string(quick_out().join("count_min_peers/manifest.json")).unwrap();
    assert!(m.contains("\"reproducible\": false"), "{m}");
}

/// Heavy hitters on the shared quick run: every structure stays within
/// its budget, conservative update's count error is never above plain
/// Count-Min's on a stream of the same shape (the first replicate of each),
/// SpaceSaving and DataSketches' frequent items keep every true hitter's
/// error within their deterministic bounds (N/k; 3.5/M of N), and recall
/// rises with the budget for every structure at s = 0.8 and 1.5.
#[test]
fn heavy_hitters_stay_in_budget_and_conservative_update_is_never_worse() {
    let t = quick("heavy_hitters");
    let row = |structure: &str, bytes: f64, s: f64| {
        t.rows
            .iter()
            .find(|r| {
                t.str(r, "structure") == structure
                    && f(&t, r, "bytes") == bytes
                    && f(&t, r, "s") == s
                    && f(&t, r, "replicate") == 0.0
            })
            .unwrap_or_else(|| panic!("{structure} {bytes} {s}"))
    };
    let budgets = sketchlab::experiment::view::common::sorted_levels(
        t.rows.iter().map(|r| f(&t, r, "bytes")),
    );
    for r in &t.rows {
        let what = format!(
            "{} {} B s = {}",
            t.str(r, "structure"),
            f(&t, r, "bytes"),
            f(&t, r, "s")
        );
        assert!(f(&t, r, "bytes_used") <= f(&t, r, "bytes"), "{what}");
        assert!(f(&t, r, "true_hitters") >= f(&t, r, "top"), "{what}");
        let s = f(&t, r, "s");
        if matches!(
            t.str(r, "structure").as_str(),
            "space_saving" | "frequent_items"
        ) {
            assert!(
                f(&t, r, "abs_error_share") <= f(&t, r, "bound_share"),
                "{what}: error {} of N over its bound {}",
                f(&t, r, "abs_error_share"),
                f(&t, r, "bound_share")
            );
        }
        if t.str(r, "structure") == "count_min_conservative" && f(&t, r, "replicate") == 0.0 {
            let plain = row("count_min", f(&t, r, "bytes"), s);
            assert!(
                f(&t, r, "count_error") <= f(&t, plain, "count_error"),
                "{what}: conservative {} > plain {}",
                f(&t, r, "count_error"),
                f(&t, plain, "count_error")
            );
        }
    }
    for structure in [
        "count_min",
        "count_min_conservative",
        "frequent_items",
        "space_saving",
    ] {
        for s in [0.8, 1.5] {
            // a top-`top` list finds at most `top` of the true hitters (ties
            // at the cut make more): recall against what it could find
            let recall: Vec<f64> = budgets
                .iter()
                .map(|&b| {
                    let r = row(structure, b, s);
                    let hitters = f(&t, r, "true_hitters");
                    // from the proportion's count: exact, where the written
                    // rate (10 digits) times the hitters is not
                    f(&t, r, "recall_k") / hitters.min(f(&t, r, "top"))
                })
                .collect();
            assert!(
                recall.windows(2).all(|w| w[1] >= w[0]),
                "{structure} s = {s}: recall {recall:?} falls with the budget"
            );
        }
    }
}

/// The quantile frontier on the shared quick run (five streams): every
/// structure answers at every q; sketchlab's t-digest stays inside its K2
/// half-centroid bound; DDSketch's value stays within its relative accuracy
/// α = 1/size of the exact quantile on every stream (its guarantee, even
/// where its rank error is large); the reservoir's mean error at the median
/// stays within 4 standard errors of its sampling theory.
#[test]
fn quantile_frontier_sketches_meet_their_bounds() {
    let s = quick_summary("quantile_frontier");
    for r in &s.rows {
        let (structure, q) = (s.str(r, "structure"), f(&s, r, "q"));
        let what = format!(
            "{structure} size {} q = {q} {}",
            s.str(r, "size"),
            s.str(r, "dist")
        );
        let err = f(&s, r, "rank_err");
        assert!(err.is_finite() && err >= 0.0, "{what}: {err}");
        assert!(f(&s, r, "bytes") > 0.0, "{what}");
        if structure == "tdigest" {
            assert!(
                err <= f(&s, r, "rank_err_theory"),
                "{what}: {err} over the K2 half-centroid bound"
            );
        }
        if structure == "ddsketch" {
            let alpha = 1.0 / f(&s, r, "size");
            assert!(
                f(&s, r, "value_err") <= alpha,
                "{what}: value error {} over α = {alpha}",
                f(&s, r, "value_err")
            );
        }
        if structure == "reservoir" && q == 0.5 {
            // E|N(0, σ)| = σ·√(2/π); the mean over R replicates has sd ≈ σ·0.6/√R
            let sd = f(&s, r, "rank_err_theory");
            let reps = f(&s, r, "replicates");
            let expected = sd * (2.0 / std::f64::consts::PI).sqrt();
            assert!(
                (err - expected).abs() <= 4.0 * sd * 0.61 / reps.sqrt(),
                "{what}: mean |err| {err} vs {expected}"
            );
        }
    }
}
