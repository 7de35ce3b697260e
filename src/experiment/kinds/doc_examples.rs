//! `doc_examples`: the documents' worked examples, checked for internal
//! consistency, replayed through the chapter's own code, and simulated.
//!
//! * `chapter_m12_k3`: doc 000's m = 12, k = 3 picture after "apple", "banana".
//! * `essay_m16_k3`: doc 002's 16 bits, three hashes, /login and /logout
//!   (the picture itself was lost; the text keeps "five of the sixteen bits",
//!   /signup as the false positive, and bit 9 shared by the two keys).
//! * `essay_m16_k10`: "ten hashes per key and all sixteen bits are ones
//!   within three inserts".
//! * `essay_m16_k1`: "One hash per key and /signup collides constantly".
//! * `reference_fpr`: the chapter's Python class at n, p: its measured FPR.

use super::common::{self, rng};
use super::{Kind, KindInfo, Section};
use crate::experiment::params::{Def, HASH, HASH_SEED, PType, ParamDef, Params};
use crate::experiment::table::{Metrics, Table};
use crate::export::markdown::pct;
use crate::metrics::Proportion;
use crate::plot::{Chart, Point, Series, Style};
use crate::structures::bloom::reference::ChapterBloom;
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::{KeyGen, KeyType};
use rand::RngExt;

pub struct DocExamples;

const EXAMPLES: &[&str] = &[
    "chapter_m12_k3",
    "essay_m16_k3",
    "essay_m16_k10",
    "essay_m16_k1",
    "reference_fpr",
];

static PARAMS: [ParamDef; 7] = [
    ParamDef::new(
        "example",
        PType::Choice(EXAMPLES),
        Def::Required,
        "which worked example",
    ),
    common::count(
        "trials",
        Def::Int(100_000),
        "random filters simulated for the small examples",
    ),
    common::count("n", Def::Int(100_000), "reference_fpr: expected_items"),
    common::rate("p", Def::Float(0.01), "reference_fpr: false_positive_rate"),
    common::count(
        "queries",
        Def::Int(1_000_000),
        "reference_fpr: keys never inserted, queried",
    ),
    HASH,
    HASH_SEED,
];

static METRICS: [&str; 22] = [
    "m",
    "k",
    "inserts",
    "documented_bits_set",
    "max_bits_set",
    "consistent",
    "documented_false_positive",
    "fp_prob_given_documented_fill",
    "book_code_positions",
    "book_code_bits_set",
    "book_code_false_positive",
    "bits_set_mean",
    "bits_set_theory",
    "prob_all_set",
    "prob_all_set_lo",
    "prob_all_set_hi",
    "prob_all_set_theory",
    "fpr_measured",
    "fpr_measured_lo",
    "fpr_measured_hi",
    "fpr_theory",
    "false_negatives",
];

/// What a document states about a small example.
struct Documented {
    m: u64,
    k: u32,
    inserted: &'static [&'static str],
    bits_set: u64,
    /// The set bits, where the document shows them.
    ones: Option<&'static [u64]>,
    /// Queries: key, the bits the document names for it, whether it says "maybe".
    queries: &'static [(&'static str, Option<&'static [u64]>, bool)],
    /// Bits the text says two inserted keys share (the essay's bit 9).
    shared_bits: u64,
}

fn documented(example: &str) -> Option<Documented> {
    Some(match example {
        "chapter_m12_k3" => Documented {
            m: 12,
            k: 3,
            inserted: &["apple", "banana"],
            bits_set: 6,
            ones: Some(&[0, 2, 5, 7, 9, 11]),
            queries: &[
                ("grape", Some(&[2, 5, 9]), true),
                ("mango", Some(&[3]), false),
            ],
            shared_bits: 0,
        },
        "essay_m16_k3" => Documented {
            m: 16,
            k: 3,
            inserted: &["/login", "/logout"],
            bits_set: 5,
            ones: None,
            queries: &[("/signup", None, true)],
            shared_bits: 1,
        },
        "essay_m16_k10" => Documented {
            m: 16,
            k: 10,
            inserted: &["/login", "/logout", "/signup"],
            bits_set: 16,
            ones: None,
            queries: &[],
            shared_bits: 0,
        },
        "essay_m16_k1" => Documented {
            m: 16,
            k: 1,
            inserted: &["/login", "/logout"],
            bits_set: 2,
            ones: None,
            queries: &[("/signup", None, true)],
            shared_bits: 0,
        },
        _ => return None,
    })
}

impl Documented {
    /// Whether the stated picture obeys the filter's invariants.
    fn consistent(&self) -> bool {
        let probes = self.inserted.len() as u64 * self.k as u64;
        let mut ok = self.bits_set <= probes
            && self.bits_set <= self.m
            && probes - self.bits_set >= self.shared_bits;
        if let Some(ones) = self.ones {
            ok &= ones.len() as u64 == self.bits_set && ones.iter().all(|&b| b < self.m);
        }
        for (_, bits, maybe) in self.queries {
            match (self.ones, bits) {
                (Some(ones), Some(bits)) => ok &= bits.iter().all(|b| ones.contains(b)) == *maybe,
                // Without the picture: a "maybe" needs at least one set bit.
                _ => ok &= !*maybe || self.bits_set >= 1,
            }
        }
        ok
    }
}

fn run_small(d: &Documented, p: &Params, seed: u64, r: &mut Metrics) -> anyhow::Result<()> {
    let inserts = d.inserted.len() as u64;
    let probes = inserts * d.k as u64;
    r.set("m", d.m)
        .set("k", d.k)
        .set("inserts", inserts)
        .set("documented_bits_set", d.bits_set)
        .set("max_bits_set", probes)
        .set("consistent", d.consistent())
        .set("documented_false_positive", d.queries.first().map(|q| q.2))
        .set(
            "fp_prob_given_documented_fill",
            (d.bits_set as f64 / d.m as f64).powi(d.k as i32),
        );

    // The chapter's own code on the same keys.
    let mut book = ChapterBloom::with_mk(d.m, d.k)?;
    for key in d.inserted {
        book.add(key);
    }
    let mut shown: Vec<String> = Vec::new();
    for key in d.inserted.iter().chain(d.queries.iter().map(|q| &q.0)) {
        let pos: Vec<String> = book
            .positions(key.as_bytes())
            .map(|x| x.to_string())
            .collect();
        shown.push(format!("{key}:{}", pos.join("/")));
    }
    r.set("book_code_positions", shown.join(" "))
        .set("book_code_bits_set", book.count_ones())
        .set(
            "book_code_false_positive",
            d.queries.first().map(|q| book.contains(q.0)),
        );

    // Simulation: random keys through double hashing with the trial's hash.
    let trials = p.u64("trials");
    let hasher = p.hasher(seed);
    let mut keys = KeyGen::new(KeyType::Decimal, p.salt(seed, 1));
    let mut rng = rng(p.salt(seed, 2));
    let (mut bits_total, mut all_set, mut fps) = (0u64, 0u64, 0u64);
    let mut f = BloomFilter::new(d.m, d.k, hasher)?;
    for _ in 0..trials {
        f.clear();
        let base: u64 = rng.random_range(0..u64::MAX / 4);
        for j in 0..inserts {
            f.insert(keys.key(base + j));
        }
        let ones = f.bits().count_ones();
        bits_total += ones;
        all_set += (ones == d.m) as u64;
        fps += f.contains(keys.key(base + inserts)) as u64;
    }
    let (mf, nf, kf) = (d.m as f64, inserts as f64, d.k as f64);
    r.set("bits_set_mean", bits_total as f64 / trials as f64)
        .set(
            "bits_set_theory",
            mf * theory::expected_fill_exact(nf, mf, kf),
        )
        .set_proportion("prob_all_set", &Proportion::new(all_set, trials))
        .set(
            "prob_all_set_theory",
            theory::prob_all_covered(d.m as u32, probes as u32),
        )
        .set_proportion("fpr_measured", &Proportion::new(fps, trials))
        .set("fpr_theory", theory::fpr(nf, mf, kf));
    Ok(())
}

static INFO: KindInfo = KindInfo {
    name: "doc_examples",
    about: "the documents' worked examples: consistency, the chapter's own code, and simulation",
    params: &PARAMS,
    metrics: &METRICS,
};

impl Kind for DocExamples {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics> {
        let mut r = Metrics::new(&METRICS);
        let example = p.str("example");
        if let Some(d) = documented(example) {
            run_small(&d, p, seed, &mut r)?;
            return Ok(r);
        }
        // reference_fpr: the chapter's class, items as Python str keys.
        let (n, target, queries) = (p.u64("n"), p.float("p"), p.u64("queries"));
        let mut f = ChapterBloom::new(n, target)?;
        let mut keys = KeyGen::new(KeyType::Decimal, p.salt(seed, 1));
        let fq = common::fill_and_query(&mut f, &mut keys, n, queries);
        r.set("m", f.m())
            .set("k", f.k())
            .set("inserts", n)
            .set("false_negatives", fq.false_negatives)
            .set_proportion("fpr_measured", &fq.fpr)
            .set(
                "fpr_theory",
                theory::fpr(n as f64, f.m() as f64, f.k() as f64),
            )
            .set("bits_set_mean", fq.fill * f.m() as f64)
            .set(
                "bits_set_theory",
                f.m() as f64 * theory::expected_fill(n as f64, f.m() as f64, f.k() as f64),
            );
        Ok(r)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let rows: Vec<_> = t
            .rows
            .iter()
            .filter(|r| t.f64(r, "documented_bits_set").is_some())
            .collect();
        let x_label = rows
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{} = {}", i + 1, t.str(r, "example")))
            .collect::<Vec<_>>()
            .join(", ");
        let at = |col: &str| -> Vec<Point> {
            rows.iter()
                .enumerate()
                .filter_map(|(i, r)| {
                    let y = t.f64(r, col)?;
                    Some(
                        match (
                            t.f64(r, &format!("{col}_lo")),
                            t.f64(r, &format!("{col}_hi")),
                        ) {
                            (Some(lo), Some(hi)) => Point::with_interval(i as f64 + 1.0, y, lo, hi),
                            _ => Point::new(i as f64 + 1.0, y),
                        },
                    )
                })
                .collect()
        };
        vec![
            Chart::new(
                "small_examples_bits_set",
                "Worked examples: bits set after the documented inserts",
                &x_label,
                "bits set",
            )
            .series(Series::new(
                "documented",
                Style::Points,
                at("documented_bits_set"),
            ))
            .series(Series::new(
                "simulated mean, random keys",
                Style::Points,
                at("bits_set_mean"),
            ))
            .series(Series::new(
                "theory m(1-(1-1/m)^(kn))",
                Style::Points,
                at("bits_set_theory"),
            )),
            Chart::new(
                "small_examples_fpr",
                "Worked examples: chance a fresh key is a false positive",
                &x_label,
                "probability",
            )
            .series(Series::new(
                "simulated random keys (95% Wilson)",
                Style::Points,
                at("fpr_measured"),
            ))
            .series(Series::new(
                "(bits set / m)^k for the documented picture",
                Style::Points,
                at("fp_prob_given_documented_fill"),
            )),
        ]
    }

    fn section(&self, t: &Table) -> Section {
        let table = t.project(
            &[
                "example",
                "m",
                "k",
                "inserts",
                "documented_bits_set",
                "consistent",
                "book_code_positions",
                "book_code_bits_set",
                "book_code_false_positive",
                "bits_set_mean",
                "prob_all_set",
                "fpr_measured",
                "fpr_theory",
            ],
            |_| true,
        );
        let mut notes = Vec::new();
        for r in &t.rows {
            let ex = t.str(r, "example");
            match ex.as_str() {
                "essay_m16_k10" => notes.push(format!(
                    "with ten hashes three inserts leave {:.1} of 16 bits set on average and all 16 in {} of filters",
                    t.f64(r, "bits_set_mean").unwrap_or(f64::NAN),
                    pct(t.f64(r, "prob_all_set").unwrap_or(f64::NAN), 2)
                )),
                "reference_fpr" => notes.push(format!(
                    "the chapter's own class measures {} FPR at its design point (theory {})",
                    pct(t.f64(r, "fpr_measured").unwrap_or(f64::NAN), 3),
                    pct(t.f64(r, "fpr_theory").unwrap_or(f64::NAN), 3)
                )),
                _ if t.f64(r, "consistent") == Some(0.0) => notes.push(format!("{ex} is internally inconsistent")),
                _ => {}
            }
        }
        let consistent = t
            .rows
            .iter()
            .filter(|r| t.f64(r, "consistent") == Some(1.0))
            .count();
        let book_fp = t
            .rows
            .iter()
            .filter(|r| t.f64(r, "book_code_false_positive") == Some(0.0))
            .map(|r| t.str(r, "example"))
            .collect::<Vec<_>>();
        Section {
            table,
            reading: format!(
                "{consistent} documented pictures are consistent with the filter's invariants; the chapter's own code does not reproduce the documented false positive in {}; {}.",
                if book_fp.is_empty() {
                    "any example".to_string()
                } else {
                    book_fp.join(", ")
                },
                notes.join("; ")
            ),
        }
    }
}
