//! "Which structure for which need", read from the filter frontier's typed
//! rows (every structure configured as its implementation sizes it, built
//! at n and queried), never from a formula: per need and target FPR, the
//! structure with the fewest measured bits per key among those that offer
//! the need and whose measured FPR is not above the target beyond the rate
//! margin. The report renders the choices ([`crate::report::decision`]).

use crate::experiment::kinds::filters::filter_frontier::{FilterFrontier, P, R};
use crate::experiment::kinds::{Measure, Tables, typed_rows};
use crate::report::decision::{Choice, TARGETS};
use crate::stats::Proportion;
use crate::workload::KeyType;

/// Whether a structure's row offers a need.
type Offers = fn(&R) -> bool;

/// The needs a filter may have, and whether a structure's row offers it
/// (a set built once and only queried: every structure).
const NEEDS: [(&str, Offers); 4] = [
    ("a set built once, then queried", |_| true),
    ("inserts after the build", |r| r.inserts_after_build),
    ("deletes", |r| r.deletes),
    ("merging two filters", |r| r.merges),
];

/// The rate margin a measured FPR may exceed its target by (the materiality
/// table's `rate`, ±10%) before a structure is passed over.
const RATE_MARGIN: f64 = 0.10;

/// The decision from the results of a study of `kind`: u64 keys at the
/// largest n it measured (the n of its frontier chart); `None` for a study
/// of another kind, or one with no row.
pub fn choices(kind: &str, t: &Tables) -> Option<(u64, Vec<Choice>)> {
    if kind != FilterFrontier::NAME {
        return None;
    }
    decide(&typed_rows::<FilterFrontier>(&t.results))
}

fn decide(rows: &[(P, R)]) -> Option<(u64, Vec<Choice>)> {
    let n = rows.iter().map(|(p, _)| p.n).max()?;
    let mut out = Vec::new();
    for (need, offers) in NEEDS {
        for target in TARGETS {
            // (structure, its row, bits per key, measured FPR) of each fit
            let mut fit: Vec<(&P, &R, f64, Proportion)> = rows
                .iter()
                .filter(|(p, r)| {
                    p.n == n
                        && p.keys == KeyType::U64
                        && (p.fpr - target).abs() < target * 1e-9
                        && offers(r)
                })
                .filter_map(|(p, r)| Some((p, r, r.bits_per_key?, r.fpr_measured?)))
                .filter(|(.., m)| m.lo <= target * (1.0 + RATE_MARGIN))
                .collect();
            fit.sort_by(|a, b| a.2.total_cmp(&b.2));
            let Some(&(p, r, bits, m)) = fit.first() else {
                continue;
            };
            out.push(Choice {
                need,
                fpr: target,
                structure: p.structure.to_string(),
                config: r.config.clone(),
                bits_per_key: bits,
                fpr_measured: m.rate,
                fpr_lo: m.lo,
                fpr_hi: m.hi,
                runner_up: fit
                    .get(1)
                    .map(|(p, _, bits, _)| (p.structure.to_string(), *bits)),
            });
        }
    }
    Some((n, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::params::HashSeed;
    use crate::hashing::StrategyId;
    use crate::report::decision::markdown;
    use crate::structures::menu::Filter;

    fn row(s: Filter, fpr: f64, bits: f64, measured: f64, offers: [bool; 3]) -> (P, R) {
        let p = P {
            structure: s,
            fpr,
            n: 1_000_000,
            keys: KeyType::U64,
            hash: StrategyId::Xxh3,
            hash_seed: HashSeed::Trial,
            queries: 1_000_000,
        };
        let r = R {
            config: format!("{s} config"),
            inserts_after_build: offers[0],
            deletes: offers[1],
            merges: offers[2],
            bits_per_key: Some(bits),
            fpr_measured: Some(Proportion {
                successes: 0,
                trials: 0,
                rate: measured,
                lo: measured * 0.98,
                hi: measured * 1.02,
            }),
            ..R::default()
        };
        (p, r)
    }

    #[test]
    fn each_need_takes_the_smallest_structure_that_offers_it_and_meets_the_target() {
        let rows = [
            row(Filter::Bloom, 0.01, 9.6, 0.01, [true, false, true]),
            row(Filter::Cuckoo, 0.01, 12.6, 0.009, [true, true, false]),
            row(Filter::Xor, 0.01, 9.8, 0.0039, [false, false, false]),
            // the smallest, but its FPR lies far above the target
            row(Filter::Ribbon, 0.01, 2.0, 0.05, [true, true, true]),
        ];
        let (n, c) = decide(&rows).unwrap();
        assert_eq!(n, 1_000_000);
        let pick = |need: &str| c.iter().find(|c| c.need == need && c.fpr == 0.01).unwrap();
        assert_eq!(pick(NEEDS[0].0).structure, "bloom");
        assert_eq!(pick(NEEDS[0].0).runner_up.as_ref().unwrap().0, "xor");
        assert_eq!(pick(NEEDS[1].0).structure, "bloom");
        assert_eq!(pick(NEEDS[2].0).structure, "cuckoo");
        assert_eq!(pick(NEEDS[3].0).structure, "bloom");
        assert!(c.iter().all(|c| c.structure != "ribbon"));
        // no row at 0.1%: that target is left out, not invented
        assert!(c.iter().all(|c| c.fpr == 0.01));
        let md = markdown(n, &c);
        assert!(
            md.contains("n = 1,000,000") && md.contains("| deletes | 1% | `cuckoo`"),
            "{md}"
        );
    }
}
