//! The hash strategies' studies on the shared quick run.

use super::common::*;
use sketchlab::table::Table;

#[test]
fn birthday_matches_the_bound() {
    let t = quick("birthday");
    assert_eq!(t.rows.len(), 4);
    for r in &t.rows {
        assert_eq!(f(&t, r, "bits"), 32.0);
        let k = f(&t, r, "searches_done");
        assert!(k >= 200.0);
        // P(first collision within q·√N) against 1 - e^(-q²/2), every q
        for q in ["0_25", "0_5", "1", "1_177", "1_5", "2", "3"] {
            let (p, th) = (
                f(&t, r, &format!("p_at_{q}")),
                f(&t, r, &format!("p_at_{q}_theory")),
            );
            within(
                p * k,
                k,
                th,
                &format!("{} P(collision) at {q}·√N", t.str(r, "hash")),
            );
        }
        // the median's order-statistic interval is ordered and near 77,163
        let (lo, med, hi) = (
            f(&t, r, "first_collision_median_lo"),
            f(&t, r, "first_collision_median"),
            f(&t, r, "first_collision_median_hi"),
        );
        assert!(lo <= med && med <= hi);
        assert!((med / 77_163.0 - 1.0).abs() < 0.2, "{med}");
    }
}

#[test]
fn birthday_bound_rows_are_the_essays_arithmetic() {
    let t = quick("birthday_bound");
    let row = |bits: &str, m: &str| {
        t.rows
            .iter()
            .find(|r| t.str(r, "bits").starts_with(bits) && t.str(r, "m") == m)
            .unwrap()
    };
    let people = row("8.5", "23");
    assert_eq!(f(&t, people, "pairs_at_m"), 253.0);
    assert!((f(&t, people, "p_exact_at_m") - 0.5073).abs() < 1e-4);
    assert!((f(&t, people, "n_values") - 365.0).abs() < 1e-6);
    let b32 = row("32", "0");
    assert!((f(&t, b32, "m_50pct") - 77_163.0).abs() < 1.0);
    let uuid = row("122", "0");
    // 2^61 as results.csv writes a float: to 10 significant digits
    assert!((f(&t, uuid, "sqrt_n") / 2f64.powi(61) - 1.0).abs() <= 5e-10);
    assert!((f(&t, uuid, "years_to_sqrt_n") - 73.07).abs() < 0.01);
}

#[test]
fn hash_quality_flags_what_is_structurally_weak() {
    let t = quick("hash_quality");
    let row = |h: &str, c: &str| {
        t.rows
            .iter()
            .find(|r| t.str(r, "hash") == h && t.str(r, "test") == c)
            .unwrap()
    };
    // Every strategy spreads random keys evenly (the control): |z| <= 4.5.
    for r in t.rows.iter().filter(|r| t.str(r, "test") == "random") {
        assert!(
            f(&t, r, "chi2_low16_z").abs() <= Z && f(&t, r, "chi2_high16_z").abs() <= Z,
            "{}",
            t.str(r, "hash")
        );
    }
    // Strong mixers avalanche within the bound a perfect function stays under.
    for h in [
        "sip13",
        "sip24",
        "xxh3",
        "murmur3_x64_128",
        "murmur64a",
        "ahash",
    ] {
        let r = row(h, "avalanche");
        assert!(
            f(&t, r, "avalanche_worst_bias") <= f(&t, r, "avalanche_noise_floor"),
            "{h}"
        );
    }
    // CRC-32 is linear: flipping an input bit flips a fixed set of output bits.
    assert_eq!(
        f(&t, row("crc32", "avalanche"), "avalanche_worst_bias"),
        1.0
    );
    // ...and it spreads sequential integers perfectly evenly (z far below 0).
    assert!(f(&t, row("crc32", "sequential"), "chi2_low16_z") < -50.0);
}

#[test]
fn hash_in_structures_keeps_guarantees_on_random_keys() {
    let t = quick("hash_in_structures");
    for r in &t.rows {
        assert_eq!(
            f(&t, r, "false_negatives"),
            0.0,
            "{} {}",
            t.str(r, "hash"),
            t.str(r, "keyset")
        );
    }
    for r in t.rows.iter().filter(|r| t.str(r, "keyset") == "random") {
        let q = f(&t, r, "queries_done");
        within(
            f(&t, r, "fpr_measured") * q,
            q,
            f(&t, r, "fpr_theory"),
            &t.str(r, "hash"),
        );
        assert!(
            f(&t, r, "hll_z").abs() <= Z,
            "{}: HLL z = {}",
            t.str(r, "hash"),
            f(&t, r, "hll_z")
        );
    }
}

#[test]
fn hash_speed_hashes_what_it_times() {
    // Timings are never asserted; what the timed loop computed is: the
    // checksum of the hashes is a function of the seed and the keys, so two
    // runs agree on it for every strategy and size, and sizes differ.
    let (a, b) = (quick("hash_speed"), quick_spec("hash_speed").1);
    assert_eq!(a.rows.len(), 14 * 8);
    let sums = |t: &Table| -> Vec<String> { t.rows.iter().map(|r| t.str(r, "checksum")).collect() };
    assert_eq!(sums(&a), sums(&b));
    let distinct: std::collections::HashSet<String> = sums(&a).into_iter().collect();
    assert!(
        distinct.len() > 100,
        "{} distinct checksums",
        distinct.len()
    );
}

#[test]
fn a_32_bit_hash_puts_a_floor_under_bloom_fpr() {
    let t = quick("hash_width_floor");
    for r in &t.rows {
        let q = f(&t, r, "queries_done");
        // Measured against theory plus the n/2^w floor, for every width.
        within(
            f(&t, r, "fpr_measured") * q,
            q,
            f(&t, r, "fpr_theory_with_width"),
            &format!("{} p = {}", t.str(r, "hash"), t.str(r, "p")),
        );
        if f(&t, r, "width") == 32.0 && f(&t, r, "p") == 1e-5 {
            // n/2^32 = 2.3e-4 dwarfs the design rate: > 10x worse.
            assert!(f(&t, r, "fpr_measured") > 10.0 * f(&t, r, "fpr_theory"));
        }
    }
}
