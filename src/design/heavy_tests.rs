use super::*;
use crate::design::heavy_measure::{Want, bytes_of};

fn args() -> HeavyHittersArgs {
    HeavyHittersArgs {
        stream_length: Some(2e5),
        top: Some(20.0),
        phi: None,
        memory: None,
        error: Some(0.001),
        stream: "zipf".into(),
        zipf_s: 1.1,
        universe: Some(1e4),
        keys: None,
        keys_format: "lines".into(),
        measure_seconds: 60.0,
        common: crate::design::tests_common(),
    }
}

/// The adversarial stream gives `wanted` keys half the stream evenly, the
/// rest keys seen once; the sorted stream meets its keys rarest first.
#[test]
fn the_streams_are_what_they_say() {
    let s = super::super::streams::items(ItemStream::Adversarial, 1000, 0, 1.0, 5, 7);
    let t = Truth::new(&s, Some(5), None);
    assert_eq!(t.wanted.len(), 5);
    assert!(t.wanted.values().all(|&c| c == 100));
    assert_eq!(t.counts.len(), 5 + 500);
    let s = super::super::streams::items(ItemStream::Sorted, 10_000, 100, 1.1, 0, 7);
    let t = Truth::new(&s, None, Some(0.01));
    assert!(matches!(t.want, Want::Above(c) if c == 100.0));
    let counts: Vec<u64> = s.iter().map(|k| t.counts[k]).collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]));
}

/// Under an error target every structure's pick is the smallest size that
/// met it by measurement: no size measured with fewer bytes met it, and
/// the pick meets it (every wanted key found, its count within E·N).
#[test]
fn the_error_target_qualifies_by_measurement() {
    let r = heavy_hitters(&args(), Path::new("/nonexistent")).unwrap();
    assert!(r.target_met, "{}", r.answer);
    for c in &r.candidates {
        let Some(m) = c.chosen.as_ref().filter(|m| m.meets == Some(true)) else {
            continue;
        };
        assert!(
            m.found >= r.stream.needed && m.max_error_share <= 0.001,
            "{m:?}"
        );
        for step in c.ladder.iter().filter(|s| s.meets == Some(true)) {
            assert!(step.bytes >= m.bytes, "{step:?} vs {m:?}");
        }
    }
    let rec = r.choice.recommended.as_deref().unwrap();
    assert!(
        r.answer.starts_with(&format!("Use {rec} (")),
        "{}",
        r.answer
    );
    // the recommendation is the smallest of the picks that meet the target
    let smallest = r
        .candidates
        .iter()
        .filter_map(|c| c.chosen.as_ref())
        .filter(|m| m.meets == Some(true))
        .min_by_key(|m| m.bytes)
        .unwrap();
    assert_eq!(smallest.structure, rec);
}

/// Under a budget each structure gets the most it can hold within it: its
/// bytes fit and fill at least half the budget (a hash map's next doubling
/// is the largest step), and frequent items' next power of two does not fit.
#[test]
fn a_memory_budget_is_filled_not_exceeded() {
    let budget = 64_000.0;
    let i = HeavyHittersArgs {
        memory: Some(budget),
        error: None,
        phi: Some(0.01),
        top: None,
        ..args()
    };
    let r = heavy_hitters(&i, Path::new("/nonexistent")).unwrap();
    for c in &r.candidates {
        let m = c.chosen.as_ref().expect("64 kB holds 100 keys");
        assert!(
            m.bytes as f64 <= budget && m.bytes as f64 >= budget / 2.0,
            "{m:?}"
        );
        if c.structure == "frequent_items" {
            let (b, _) = bytes_of(Hitter::FrequentItems, m.knob * 2, 100, false).unwrap();
            assert!(b as f64 > budget, "{b}");
        }
    }
    assert!(r.answer.starts_with("Within 64 kB, use "), "{}", r.answer);
}

#[test]
fn bad_input_is_refused() {
    super::super::assert_refused(
        args(),
        &[
            |i| i.top = Some(0.0),
            |i| i.top = Some(1.5),
            |i| i.top = Some(2e4),
            |i| i.error = Some(0.0),
            |i| i.error = Some(0.6),
            |i| i.stream_length = Some(f64::NAN),
            |i| {
                i.top = None;
                i.phi = Some(0.9)
            },
            |i| i.memory = Some(100.0),
            |i| i.measure_seconds = 0.0,
        ],
        check,
    );
}
