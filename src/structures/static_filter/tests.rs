use super::*;
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::stats::Proportion;

const N: u64 = 20_000;
const QUERIES: u64 = 400_000;

fn key(i: u64) -> [u8; 8] {
    i.to_le_bytes()
}

fn built(kind: StaticKind) -> StaticFilter<HashStrategy> {
    let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(7));
    let keys: Vec<[u8; 8]> = (0..N).map(key).collect();
    StaticFilter::build(kind, h, keys.iter().map(|k| k.as_slice())).unwrap()
}

#[test]
fn every_static_filter_holds_its_keys_and_meets_two_to_the_minus_f() {
    for kind in StaticKind::ALL {
        let f = built(kind);
        assert!(
            (0..N).all(|i| f.contains(&key(i))),
            "{kind:?}: a false negative"
        );
        let fp = (N..N + QUERIES).filter(|&i| f.contains(&key(i))).count() as u64;
        // 99.9% Wilson interval of the measured rate (fixed keys and seed)
        let p = Proportion::at(fp, QUERIES, 0.999);
        let theory = theory::fpr(kind.fingerprint_bits());
        assert!(
            p.lo <= theory && theory <= p.hi,
            "{kind:?}: measured {fp}/{QUERIES} [{}, {}] vs 2^-f = {theory}",
            p.lo,
            p.hi
        );
        // space: above the limit f, at most xor's 1.23·f (+ its 32 spare slots)
        let f_bits = kind.fingerprint_bits() as f64;
        let bpk = f.bits_per_key();
        assert!(
            bpk > f_bits
                && bpk
                    <= theory::xor_bits_per_key(kind.fingerprint_bits())
                        + 32.0 * f_bits / N as f64
                        + 1e-9,
            "{kind:?}: {bpk} bits/key"
        );
        assert_eq!(
            f.bytes(),
            (f.slots() * kind.fingerprint_bits() as usize).div_ceil(8)
        );
    }
}

#[test]
fn a_static_filter_refuses_an_insert_after_build_and_says_why() {
    let mut f = built(StaticKind::Xor8);
    let e = f.insert(b"late key").unwrap_err();
    assert_eq!(e, InsertError::Static("xor8"));
    assert!(e.to_string().contains("cannot insert after build"), "{e}");
    // the refusal changes nothing: the filter still holds exactly its N keys
    assert_eq!(f.fill().successes, N);
}

#[test]
fn names_round_trip() {
    for kind in StaticKind::ALL {
        assert_eq!(StaticKind::from_name(kind.name()), Some(kind));
    }
    assert_eq!(StaticKind::from_name("bloom"), None);
}
