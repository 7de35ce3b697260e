//! Tests of [`super`]: sizing, measuring at the user's count, replaying.
use super::*;

/// 0.5% after a merge: CPC's ICON estimator (ln 2/√k) needs lg_k = 15,
/// HLL's 1.04/√m lg_k = 16; never merged, HLL's HIP (0.833/√m) needs 15.
#[test]
fn lg_k_is_the_implementations_power_of_two_for_the_estimator() {
    assert_eq!(estimator(Sketch::Cpc, true), "icon");
    assert_eq!(lg_k_for(Sketch::Cpc, "icon", 0.005), Some(15));
    assert_eq!(lg_k_for(Sketch::Hll6, "ertl", 0.005), Some(16));
    assert_eq!(estimator(Sketch::Hll6, false), "hip");
    assert_eq!(lg_k_for(Sketch::Hll6, "hip", 0.005), Some(15));
    assert_eq!(lg_k_for(Sketch::Hll6, "ertl", 1e-4), None);
}

/// At a small distinct count the sketches are measured at it, their RSE
/// interval covers a target they were sized for or they were resized,
/// and DataSketches' HLL stores its sparse list, far below its dense size.
#[test]
fn sketches_are_measured_at_the_users_distinct_count() {
    let a = recommend(0.02, Some(300.0), true, 2.0);
    eprintln!("{}", a.summary());
    assert!(a.left_out.is_empty(), "{:?}", a.left_out);
    for m in &a.measured {
        assert_eq!(m.distinct, 300, "{m:?}");
        assert!(m.scaled.is_empty() && m.merged);
        assert!(m.rse_lo <= MARGIN * 0.02 || !m.resized.is_empty(), "{m:?}");
    }
    let ds = a.get("datasketches_hll8").unwrap();
    assert!(ds.bytes < 1 << ds.lg_k, "{ds:?}");
    assert!(a.smallest.is_some() && a.summary().contains("recommended (smallest)"));
}

/// At 1,000 distinct items never merged, 1% needs lg_k = 13 by HIP's
/// asymptotic 0.833/√m, but lg_k = 12 holds it there (linear counting):
/// it is taken, its whole interval under 1%, and the note says what a
/// sketch seeing more items needs. Theta at 2^10 nominal entries keeps
/// all 1,000 hashes: exact.
#[test]
fn a_small_distinct_count_takes_a_smaller_power_of_two_only_when_measured() {
    let a = recommend(0.01, Some(1000.0), false, 2.0);
    let h = a.get("hll6").unwrap();
    assert_eq!(
        (h.lg_k, lg_k_for(Sketch::Hll6, "hip", 0.01)),
        (12, Some(13))
    );
    assert!(
        h.rse_hi <= 0.01 && h.below_theory.contains("needs lg_k = 13"),
        "{h:?}"
    );
    let t = a.get("theta").unwrap();
    assert_eq!((t.lg_k, t.rse), (10, 0.0), "{t:?}");
    for m in &a.measured {
        assert!(
            m.lg_k
                >= lg_k_for(Sketch::from_name(&m.structure).unwrap(), &m.estimator, 0.01).unwrap()
                || m.rse_hi <= 0.01,
            "{m:?}"
        );
    }
    // past 10·2^lg_k the asymptotic choice stands
    let big = recommend(0.01, Some(1e6), false, 2.0);
    assert!(
        big.measured.iter().all(|m| m.below_theory.is_empty()),
        "{big:?}"
    );
}

/// 10^12 distinct items in a budget of 0.3 s: the register sketches are
/// replayed at that count (their RSE interval covering the theory's,
/// HIP and the martingale included), DataSketches' streamed at fewer
/// items, each saying so.
#[test]
fn past_the_budget_register_sketches_are_replayed_at_the_users_count() {
    let a = recommend(0.05, Some(1e12), false, 0.3);
    for m in &a.measured {
        let s = Sketch::from_name(&m.structure).unwrap();
        if s.replays() {
            assert_eq!(
                (m.method, m.distinct),
                ("replayed", 1_000_000_000_000),
                "{m:?}"
            );
            assert!(m.scaled.is_empty());
            let wide = crate::stats::sd_interval(m.rse, m.replicates as usize + 1, 0.999);
            assert!(wide.lo <= m.rse_theory && m.rse_theory <= wide.hi, "{m:?}");
        } else {
            assert_eq!(m.method, "streamed");
            assert!(
                m.distinct < 1_000_000_000_000 && m.scaled.contains("not 1,000,000,000,000"),
                "{m:?}"
            );
        }
    }
    assert!(a.summary().contains("replayed at your distinct count"));
    assert_eq!(round_down(20_532_207), 20_000_000);
    assert_eq!(round_down(7), 7);
}
