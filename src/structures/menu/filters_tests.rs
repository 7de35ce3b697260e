//! Tests of the filter menu: configuration, bytes, theory.
use super::*;
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::stats::Proportion;

fn hasher() -> HashStrategy {
    HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(11))
}

/// Every structure of the menu, at one quick point (n = 20k, ε = 1%):
/// no false negatives, and the measured FPR inside its theory's 99.9%
/// Wilson interval; the static filters refuse a later insert.
#[test]
fn every_menu_filter_meets_its_theory_at_one_point() {
    let (n, queries, eps) = (20_000u64, 200_000u64, 0.01);
    for s in Filter::ALL {
        let mut b = s
            .build(n, eps, hasher(), 11, |add| {
                (0..n).for_each(|i| add(&i.to_le_bytes()))
            })
            .unwrap();
        assert!((0..n).all(|i| b.filter.contains(&i.to_le_bytes())), "{s:?}");
        let fp = (n..n + queries)
            .filter(|i| b.filter.contains(&i.to_le_bytes()))
            .count() as u64;
        let p = Proportion::at(fp, queries, 0.999);
        let theory = b.config.fpr_theory;
        assert!(
            p.lo <= theory && theory <= p.hi,
            "{s:?} ({}): {fp}/{queries} vs theory {theory}",
            b.config.words(),
        );
        assert_eq!(
            b.filter.insert(b"late").is_ok(),
            s.inserts_after_build(),
            "{s:?}"
        );
    }
}

/// The configured bytes are what the built structure holds, at
/// n = 10^3, 3·10^4, 10^6 and 0.95·2^20·4 + 1 (a cuckoo table just past
/// 95% load, which the reference code does not double), and every rate
/// the theory promises is the target or under (a whole k: within 1%).
#[test]
fn configured_bytes_are_what_the_built_structure_holds() {
    for n in [1_000u64, 30_000, 1_000_000, 3_984_589] {
        for eps in [0.01, 1e-4] {
            for s in Filter::ALL {
                let c = s.configure(n, eps).unwrap();
                let b = c
                    .build(hasher(), 3, |add| {
                        (0..n).for_each(|i| add(&i.to_le_bytes()))
                    })
                    .unwrap();
                assert_eq!(
                    b.filter.bytes() as u64,
                    c.bytes,
                    "{s:?} at n = {n}, ε = {eps}: {}",
                    c.words()
                );
                if s != Filter::Quotient {
                    // qfilter's fill counts keys over 2^q
                    if let Some(load) = c.load {
                        assert!((b.filter.fill_ratio() - load).abs() < 1e-9, "{s:?} {n}");
                    }
                }
                // a whole k puts a Bloom filter's rate a hair off ε (1.0035% at n = 10^3, 1%)
                assert!(
                    c.fpr_theory <= eps * 1.01,
                    "{s:?} {n} {eps}: {}",
                    c.fpr_theory
                );
            }
        }
    }
    // the cases: a cuckoo filter for 10^6 keys at 10^-3 is 2^18
    // buckets at load 0.954, f = 13, 1.70 MB; binary fuse at 10^3 keys
    // is 1,408 bytes (size factor 1.375, whole segments)
    let c = Filter::Cuckoo.configure(1_000_000, 1e-3).unwrap();
    assert_eq!(
        c.shape,
        Shape::Cuckoo {
            buckets: 1 << 18,
            b: 4,
            f: 13
        }
    );
    assert_eq!(c.bytes, 1_703_936);
    assert!((c.load.unwrap() - 0.9537).abs() < 1e-4);
    assert_eq!(
        Filter::BinaryFuse.configure(1_000, 0.01).unwrap().bytes,
        1_408
    );
    let x = Filter::Xor.configure(1_000, 1e-6).unwrap();
    assert!(
        matches!(x.shape, Shape::Static { kind: "xor32", .. }),
        "{x:?}"
    );
}

/// A larger configuration errs less and costs more, and keeps the
/// structure and its target.
#[test]
fn a_larger_configuration_is_larger() {
    for s in Filter::ALL {
        let c = s.configure(50_000, 0.01).unwrap();
        let l = c.larger().unwrap();
        assert_eq!((l.filter, l.n, l.target), (s, 50_000, 0.01));
        assert!(
            l.bytes > c.bytes && l.fpr_theory < c.fpr_theory,
            "{s:?}: {l:?}"
        );
    }
}

#[test]
fn names_round_trip_and_unreachable_rates_say_why() {
    for s in Filter::ALL {
        assert_eq!(Filter::from_name(s.name()), Some(s));
    }
    assert!(Filter::Xor.reach(1e-10).unwrap().contains("2^-32"));
    assert_eq!(Filter::Xor.reach(1e-5), None);
    assert_eq!(Filter::BinaryFuse.reach(1e-5), None);
    // Parquet writers' formula divides by ln(1 − ε^(1/8)), which is 0 below
    // about 2^-424; at 1e-80 it still sizes (and clamps at 128 MiB)
    assert!(
        Filter::SplitBlockBloom
            .reach(1e-300)
            .unwrap()
            .contains("32-byte")
    );
    let c = Filter::SplitBlockBloom.configure(3_000_000, 1e-80).unwrap();
    assert_eq!(c.bytes, 128 << 20);
    // a degenerate one-block filter's theory is computed, not looped over
    let one = crate::structures::bloom::theory::fpr_split_block(3e6, 1.0);
    assert!((one - 1.0).abs() < 1e-6, "{one}");
    assert_eq!(
        Filter::BinaryFuse.static_kind(0.01),
        Some(StaticKind::BinaryFuse8)
    );
    assert_eq!(
        Filter::BinaryFuse.static_kind(1e-3),
        Some(StaticKind::BinaryFuse16)
    );
    let e = Filter::Xor
        .build(10, 1e-12, hasher(), 1, |_| {})
        .err()
        .unwrap();
    assert!(e.to_string().contains("32-bit"), "{e}");
}
