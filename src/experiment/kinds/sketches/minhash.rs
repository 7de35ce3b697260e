//! `minhash`: pairs of sets with an exactly constructed Jaccard similarity J
//! (|A ∪ B| = `union_size`, |A ∩ B| = round(J·union_size), the rest split
//! between A only and B only), estimated by k-hash MinHash and bottom-k:
//! error vs √(J(1 − J)/k) and the chapter's 1/√k, and P(minima agree)
//! pooled over all k minima and sketches against J.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::kinds::{Study, Tables};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::export::markdown::{pct, sig};
use crate::hashing::StrategyId;
use crate::plot::{Chart, Point, Series, Style};
use crate::report::Section;
use crate::stats::Proportion;
use crate::structures::minhash::{BottomK, MinHash, theory};
use crate::table::Value;
use crate::workload::{KeyGen, KeyType};

pub struct MinHashStudy;

crate::params! {
    pub struct P {
        jaccard: f64 = common::rate(Def::Float(0.5), "target Jaccard similarity J"),
        union_size: u64 = common::count(Def::Int(1000), "|A ∪ B|"),
        k: u64 = common::int(1, 1 << 16, Def::Int(128), "minima per signature"),
        variant: String = common::choice(&["k_hashes", "bottom_k"], Def::Str("k_hashes"), "k seeded hash functions, or the k smallest of one"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R {
        /// |A ∩ B| / |A ∪ B| as constructed.
        j_exact: f64 [Same],
        estimate: f64,
        /// estimate − J.
        err: f64 [Pitchfork],
        /// (estimate − J)·√k: in units of the chapter's 1/√k.
        err_in_rule: f64,
        /// √(J(1 − J)/k).
        se_theory: f64 [Same],
        /// 1/√k.
        rule_of_thumb: f64 [Same],
        /// 1 when |estimate − J| ≤ 1/√k.
        within_rule: f64,
        /// k-hash only: agreeing minima among the k (P(min equal) = J).
        agree: Option<Proportion>,
    }
}

impl Study for MinHashStudy {
    type P = P;
    type R = R;
    const NAME: &'static str = "minhash";
    const ABOUT: &'static str = "MinHash (k hashes, bottom-k) on pairs of exact Jaccard 0.05-0.95: error vs sqrt(J(1-J)/k) and 1/sqrt(k), P(min equal) = J";
    const MIN_REPLICATES: u32 = 2;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let u = p.union_size;
        let inter = (p.jaccard * u as f64).round() as u64;
        let a_only = (u - inter) / 2;
        let j = inter as f64 / u as f64;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        // ids: [0, inter) in both, then A only, then B only
        let in_a = |id: u64| id < inter + a_only;
        let in_b = |id: u64| id < inter || id >= inter + a_only;
        let h = p.hash_seed.hasher(p.hash, seeds);
        let k = p.k as usize;
        let (estimate, agree) = if p.variant == "k_hashes" {
            let (mut a, mut b) = (MinHash::new(k, &h)?, MinHash::new(k, &h)?);
            for id in 0..u {
                let key = keys.key(id);
                if in_a(id) {
                    a.insert(key);
                }
                if in_b(id) {
                    b.insert(key);
                }
            }
            let same = a.agreements(&b) as u64;
            (a.jaccard(&b)?, Some(Proportion::new(same, p.k)))
        } else {
            let (mut a, mut b) = (BottomK::new(k, h.clone())?, BottomK::new(k, h)?);
            for id in 0..u {
                let key = keys.key(id);
                if in_a(id) {
                    a.insert(key);
                }
                if in_b(id) {
                    b.insert(key);
                }
            }
            (a.jaccard(&b)?, None)
        };
        let rule = theory::rule_of_thumb(k);
        Ok(R {
            j_exact: j,
            estimate,
            err: estimate - j,
            err_in_rule: (estimate - j) / rule,
            se_theory: theory::standard_error(j, k),
            rule_of_thumb: rule,
            within_rule: ((estimate - j).abs() <= rule) as u8 as f64,
            agree,
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let n = p.union_size as f64;
        let per_key = if p.variant == "k_hashes" {
            p.k as f64
        } else {
            1.0
        };
        Some(Footprint::one(2.0 * p.k as f64 * 8.0, n * per_key).plus(n * 16.0))
    }

    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let s = t.summary();
        let mut c = Chart::new(
            "error_sd_vs_k",
            "MinHash error sd vs k (95% chi-square) at J = 0.5 and 0.05, next to √(J(1−J)/k) and 1/√k",
            "k (minima)",
            "sd of estimate − J",
        )
        .log_x()
        .log_y();
        let mut first = true;
        for j in [0.5, 0.05] {
            for v in ["k_hashes", "bottom_k"] {
                let rows: Vec<&Vec<Value>> = s
                    .rows
                    .iter()
                    .filter(|r| s.f64(r, "jaccard") == Some(j) && s.str(r, "variant") == v)
                    .collect();
                if v == "k_hashes" {
                    c = c.series(Series::new(
                        format!("√(J(1−J)/k), J = {j}"),
                        Style::Line,
                        common::points(s, &rows, "k", "se_theory"),
                    ));
                    if first {
                        c = c.series(Series::new(
                            "1/√k",
                            Style::Line,
                            common::points(s, &rows, "k", "rule_of_thumb"),
                        ));
                        first = false;
                    }
                }
                let pts: Vec<Point> = rows
                    .iter()
                    .filter_map(|r| {
                        Some(Point::with_interval(
                            s.f64(r, "k")?,
                            s.f64(r, "err_sd")?,
                            s.f64(r, "err_sd_lo")?,
                            s.f64(r, "err_sd_hi")?,
                        ))
                    })
                    .collect();
                c = c.series(Series::new(format!("{v}, J = {j}"), Style::Points, pts));
            }
        }
        let rows: Vec<&Vec<Value>> = s
            .rows
            .iter()
            .filter(|r| s.str(r, "variant") == "k_hashes" && s.f64(r, "k") == Some(1024.0))
            .collect();
        let agree = Chart::new(
            "min_agreement_vs_jaccard",
            "P(minima agree) over 1,024 minima × sketches (95% Wilson) vs J",
            "Jaccard similarity J",
            "share of agreeing minima",
        )
        .series(Series::new(
            "= J",
            Style::Line,
            common::points(s, &rows, "j_exact", "j_exact"),
        ))
        .series(Series::new(
            "measured",
            Style::Points,
            common::points(s, &rows, "j_exact", "agree"),
        ));
        vec![c, agree]
    }

    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let table = s.project(
            &[
                "variant",
                "k",
                "jaccard",
                "replicates",
                "j_exact",
                "err",
                "err_sd",
                "se_theory",
                "rule_of_thumb",
                "within_rule",
                "agree",
            ],
            |r| [16.0, 1024.0].contains(&s.f64(r, "k").unwrap_or(0.0)),
        );
        let worst = s
            .rows
            .iter()
            .filter_map(|r| {
                Some((
                    s.f64(r, "err_in_rule_sd")?,
                    s.str(r, "variant"),
                    s.str(r, "k"),
                    s.str(r, "jaccard"),
                ))
            })
            .fold(
                (0.0, String::new(), String::new(), String::new()),
                |a, b| if b.0 > a.0 { b } else { a },
            );
        // bottom-k against k-hash at each (k, J)
        let (mut bottom_k_le, mut pairs) = (0, 0);
        for r in s.rows.iter().filter(|r| s.str(r, "variant") == "bottom_k") {
            let twin = s.rows.iter().find(|q| {
                s.str(q, "variant") == "k_hashes"
                    && s.str(q, "k") == s.str(r, "k")
                    && s.str(q, "jaccard") == s.str(r, "jaccard")
            });
            if let (Some(a), Some(b)) = (s.f64(r, "err_sd"), twin.and_then(|q| s.f64(q, "err_sd")))
            {
                pairs += 1;
                bottom_k_le += (a <= b) as usize;
            }
        }
        let within: Vec<f64> = s
            .rows
            .iter()
            .filter_map(|r| s.f64(r, "within_rule"))
            .collect();
        let min_within = within.iter().copied().fold(1.0, f64::min);
        Section {
            table,
            reading: format!(
                "The error's sd is at most {} of 1/√k (worst: {} k = {} at J = {}), i.e. √(J(1−J)/k) ≤ 0.5/√k; the share of estimates within 1/√k of J is at least {} in every setting. Bottom-k's sd is at or below k-hash MinHash's in {} of {} (k, J) settings.",
                sig(worst.0, 3),
                worst.1,
                worst.2,
                worst.3,
                pct(min_within, 1),
                bottom_k_le,
                pairs
            ),
        }
    }
}
