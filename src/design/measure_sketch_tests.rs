//! Tests of [`super`]: sizing, measuring at the user's count, replaying.
use super::*;
use crate::design::sketch_advice::recommend;
use crate::vocab::Prefer;

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
    let a = recommend(0.02, Some(300.0), true, 16.0, Prefer::Bytes);
    eprintln!("{}", a.summary());
    assert!(a.left_out.is_empty(), "{:?}", a.left_out);
    for m in &a.measured {
        assert_eq!(m.distinct, 300, "{m:?}");
        assert!(m.scaled.is_empty() && m.merged);
        assert!(m.rse_lo <= MARGIN * 0.02 || !m.resized.is_empty(), "{m:?}");
    }
    let ds = a.get("datasketches_hll8").unwrap();
    assert!(ds.bytes < 1 << ds.lg_k, "{ds:?}");
    assert!(a.choice.smallest.is_some() && a.summary().contains("recommended (smallest)"));
}

/// At 1,000 distinct items never merged, 1% needs lg_k = 13 by HIP's
/// asymptotic 0.833/√m, but lg_k = 12 holds it there (linear counting):
/// it is taken, its whole interval under 1%, and the note says what a
/// sketch seeing more items needs. Theta at 2^10 nominal entries keeps
/// all 1,000 hashes: exact.
#[test]
fn a_small_distinct_count_takes_a_smaller_power_of_two_only_when_measured() {
    let a = recommend(0.01, Some(1000.0), false, 16.0, Prefer::Bytes);
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
    let big = recommend(0.01, Some(1e6), false, 16.0, Prefer::Bytes);
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
    let a = recommend(0.05, Some(1e12), false, 2.4, Prefer::Bytes);
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

/// Every sketch's largest lg_k is its implementation's own: the
/// constructor builds it and refuses the next, and for the crates it is
/// the constant in the crate's source (read from cargo's registry copy).
#[test]
fn every_lg_k_cap_is_its_implementations_constant() {
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
    let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
    for s in Sketch::ALL {
        let cap = s.max_lg_k();
        assert!(s.build(cap, h.clone()).is_ok(), "{s:?} at {cap}");
        assert!(s.build(cap + 1, h.clone()).is_err(), "{s:?} at {}", cap + 1);
    }
    assert_eq!(
        Sketch::Hll6.max_lg_k(),
        crate::structures::hyperloglog::P_MAX
    );
    // the constants as each crate's source writes them
    let cpc = source("datasketches-0.6.0", "src/cpc/mod.rs");
    assert_eq!(
        Sketch::Cpc.max_lg_k(),
        constant(&cpc, "const MAX_LG_K: u8 =")
    );
    let theta = source("datasketches-0.6.0", "src/thetafamily/common/constants.rs");
    assert_eq!(
        Sketch::Theta.max_lg_k(),
        constant(&theta, "pub const MAX_LG_K: u8 =")
    );
    let ull = source("ultraloglog-0.1.6", "src/lib.rs");
    assert_eq!(
        Sketch::UltraLogLog.max_lg_k(),
        constant(&ull, "const MAX_P: u32 =")
    );
    let hll = source("datasketches-0.6.0", "src/hll/sketch.rs");
    let at = hll.find("if !(4..=").unwrap();
    assert_eq!(
        Sketch::DataSketchesHll8.max_lg_k(),
        constant(&hll[at..], "if !(4..=")
    );
}

/// A crate's source file as cargo's registry copy holds it.
pub(crate) fn source(krate: &str, file: &str) -> String {
    let registry = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cargo")))
        .unwrap()
        .join("registry/src");
    let path = std::fs::read_dir(&registry)
        .unwrap()
        .flatten()
        .map(|e| e.path().join(krate).join(file))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{krate}/{file} not in {}", registry.display()));
    std::fs::read_to_string(path).unwrap()
}

/// The number written after `decl` in `text`.
pub(crate) fn constant(text: &str, decl: &str) -> u32 {
    let at = text.find(decl).unwrap_or_else(|| panic!("{decl}"));
    text[at + decl.len()..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// A target no lg_k reaches gets the nearest configuration and its error:
/// 0.01% is past sketchlab's HyperLogLog at p = 18, which is measured.
#[test]
fn a_target_out_of_reach_gets_the_nearest_configuration() {
    let m = candidate(Sketch::Hll6, 1e-4, 100_000, false, 2.0).unwrap();
    assert_eq!(m.lg_k, 18);
    assert!(m.short_of_target.contains("no lg_k"), "{m:?}");
}
