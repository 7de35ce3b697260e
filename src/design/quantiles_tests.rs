use super::*;
use crate::design::measure_sketch::tests::{constant, source};

fn args() -> QuantilesArgs {
    QuantilesArgs {
        stream_length: Some(1e5),
        rank_error: Some(0.005),
        relative_error: None,
        quantiles: vec![0.5, 0.99],
        merge_nodes: 1.0,
        stream: "lognormal".into(),
        values: None,
        measure_seconds: 60.0,
        common: crate::design::tests_common(),
    }
}

/// Each sketch's pick met the target by measurement at every quantile
/// asked, and no size measured with fewer bytes met it; a merged review
/// measures merged sketches and what the nodes send.
#[test]
fn the_pick_meets_the_target_by_measurement() {
    for i in [
        args(),
        QuantilesArgs {
            rank_error: None,
            relative_error: Some(0.02),
            merge_nodes: 8.0,
            ..args()
        },
    ] {
        let r = quantiles(&i, Path::new("/nonexistent")).unwrap();
        assert!(r.target_met, "{}", r.answer);
        for c in &r.candidates {
            let Some(m) = c.chosen.as_ref().filter(|m| m.meets) else {
                continue;
            };
            let target = i.rank_error.or(i.relative_error).unwrap();
            assert!(metric(&i, m) <= target, "{m:?}");
            assert_eq!(m.rank_error_at.len(), 2);
            for step in c.ladder.iter().filter(|s| s.meets) {
                assert!(step.bytes >= m.bytes, "{step:?} vs {m:?}");
            }
            assert_eq!(m.node_bytes.is_some(), i.merge_nodes > 1.0);
        }
        assert_eq!(r.nodes_measured, i.merge_nodes as u64);
        let rec = r.choice.recommended.as_deref().unwrap();
        assert!(
            r.answer.starts_with(&format!("Use {rec} (")),
            "{}",
            r.answer
        );
    }
}

/// The k each DataSketches constructor accepts is the crate's own range,
/// as its source writes it.
#[test]
fn every_k_range_is_its_crates() {
    let kll = source("datasketches-0.6.0", "src/kll/mod.rs");
    assert_eq!(
        Quant::Kll.range(),
        (
            constant(&kll, "const DEFAULT_M: u8 =") as u64,
            u16::MAX as u64
        )
    );
    let req = source("datasketches-0.6.0", "src/req/mod.rs");
    assert_eq!(
        Quant::Req.range(),
        (
            constant(&req, "const MIN_K: u16 =") as u64,
            constant(&req, "const MAX_K: u16 =") as u64
        )
    );
    let td = source("datasketches-0.6.0", "src/tdigest/sketch.rs");
    assert_eq!(
        Quant::DatasketchesTdigest.range().0,
        constant(&td, "if k <") as u64
    );
    // KLL's start is the smallest k whose published error meets the target
    let k = Quant::Kll.start(Some(0.01), None);
    let err = |k: u64| {
        datasketches::kll::KllSketch::<datasketches::kll::KllFloat<f64>>::new(k as u16)
            .unwrap()
            .normalized_rank_error()
    };
    assert!(err(k) <= 0.01 && err(k - 1) > 0.01, "{k}");
    assert_eq!(accuracy(&[0.1, 0.2]), RankAccuracy::LowRank);
    assert_eq!(accuracy(&[0.1, 0.99]), RankAccuracy::HighRank);
}

#[test]
fn bad_input_is_refused() {
    super::super::assert_refused(
        args(),
        &[
            |i| i.rank_error = Some(0.0),
            |i| i.rank_error = Some(0.7),
            |i| i.quantiles = vec![],
            |i| i.quantiles = vec![0.5, 1.0],
            |i| i.merge_nodes = 0.5,
            |i| {
                i.rank_error = None;
                i.relative_error = Some(1.0)
            },
            |i| i.stream_length = Some(f64::INFINITY),
        ],
        check,
    );
}
