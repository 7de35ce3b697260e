//! `minhash_lsh`: near-duplicate detection on a real corpus — the paragraphs
//! of 14 licence texts (`data/licenses.txt`: GPL-1/2/3, LGPL-2/2.1/3,
//! GFDL-1.2/1.3, MPL-1.1/2.0, Apache-2.0, Artistic, BSD, CC0; successive
//! versions share many paragraphs nearly verbatim). Each paragraph of at
//! least `min_words` words becomes its set of 5-word shingles; every pair's
//! exact Jaccard is computed once; MinHash signatures of b·r minima are
//! banded (a pair is a candidate when any band of r minima agrees), and the
//! candidates are scored against "exact Jaccard ≥ threshold": precision,
//! recall, and the S-curve 1 − (1 − J^r)^b each pair should follow.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{KeyHasher, StrategyId};
use crate::stats::Proportion;
use crate::structures::minhash::{MinHash, theory};
use std::collections::HashMap;
use std::sync::OnceLock;

pub struct MinHashLsh;

crate::params! {
    pub struct P {
        bands: u64 [count] = common::int(1, 1024, Def::Int(20), "b: bands"),
        rows: u64 [count] = common::int(1, 64, Def::Int(5), "r: minima per band (k = b·r)"),
        threshold: f64 [fraction] = common::rate(Def::Float(0.5), "a pair is a near-duplicate when its exact Jaccard is at least this"),
        min_words: u64 [count] = common::int(5, 1000, Def::Int(20), "paragraphs shorter than this are left out"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
    }
}

crate::row! {
    pub struct R {
        documents: u64 [Same, count],
        pairs: u64 [Same, count],
        near_duplicates: u64 [Same, count],
        candidates: f64 [count],
        /// Candidates that are near-duplicates.
        precision: Proportion [higher, fraction],
        /// Near-duplicates that became candidates.
        recall: Proportion [higher, fraction],
        /// Σ over near-duplicate pairs of 1 − (1 − J^r)^b, ÷ their number.
        recall_theory: f64 [Same, fraction],
        /// Expected candidates: Σ over all pairs of 1 − (1 − J^r)^b.
        candidates_theory: f64 [Same, count],
        /// The S-curve's midpoint (1/b)^(1/r).
        s_curve_midpoint: f64 [Same, fraction],
    }
}

/// The corpus's paragraphs as sorted, distinct 5-word shingle hashes (a
/// fixed function of the text: xxh3 seed 0 of the lowercased words).
fn paragraphs(min_words: u64) -> Vec<Vec<u64>> {
    let text = include_str!("../../../../data/licenses.txt");
    let mut out = Vec::new();
    for para in text.split("\n\n") {
        let words: Vec<String> = para
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        if (words.len() as u64) < min_words || words.first().is_some_and(|w| w == "===") {
            continue;
        }
        let mut sh: Vec<u64> = words
            .windows(5)
            .map(|w| xxhash_rust::xxh3::xxh3_64(w.join(" ").as_bytes()))
            .collect();
        sh.sort_unstable();
        sh.dedup();
        out.push(sh);
    }
    out
}

/// The paragraphs' shingle sets and every pair's exact Jaccard (i < j).
type Corpus = (Vec<Vec<u64>>, Vec<f64>);

/// The corpus, computed once per `min_words` (a fixed function of the text).
fn corpus(min_words: u64) -> &'static Corpus {
    static C: OnceLock<std::sync::Mutex<HashMap<u64, &'static Corpus>>> = OnceLock::new();
    let map = C.get_or_init(Default::default);
    let mut m = map.lock().expect("corpus cache");
    m.entry(min_words).or_insert_with(|| {
        let docs = paragraphs(min_words);
        let mut js = Vec::with_capacity(docs.len() * docs.len() / 2);
        for i in 0..docs.len() {
            for j in i + 1..docs.len() {
                js.push(theory::jaccard(&docs[i], &docs[j]));
            }
        }
        Box::leak(Box::new((docs, js)))
    })
}

impl Measure for MinHashLsh {
    type P = P;
    type R = R;
    const NAME: &'static str = "minhash_lsh";
    const ABOUT: &'static str = "MinHash + LSH banding for near-duplicate paragraphs of 14 licence texts: precision and recall vs exact Jaccard";
    const MIN_REPLICATES: u32 = 2;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (docs, exact) = corpus(p.min_words);
        let (b, r) = (p.bands as usize, p.rows as usize);
        let h = p.hash_seed.hasher(p.hash, seeds);
        let sigs: Vec<Vec<u64>> = docs
            .iter()
            .map(|d| -> anyhow::Result<Vec<u64>> {
                let mut m = MinHash::new(b * r, &h)?;
                for s in d {
                    m.insert(&s.to_le_bytes());
                }
                Ok(m.signature().to_vec())
            })
            .collect::<anyhow::Result<_>>()?;
        let n = docs.len();
        let pair = |i: usize, j: usize| i * (2 * n - i - 1) / 2 + (j - i - 1);
        let mut cand = vec![false; exact.len()];
        let band_hash = h.derive(u64::MAX);
        for band in 0..b {
            let mut buckets: HashMap<u64, Vec<usize>> = HashMap::new();
            for (i, s) in sigs.iter().enumerate() {
                let bytes: Vec<u8> = s[band * r..(band + 1) * r]
                    .iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect();
                buckets
                    .entry(band_hash.native(&bytes) as u64)
                    .or_default()
                    .push(i);
            }
            for ids in buckets.values() {
                for (x, &i) in ids.iter().enumerate() {
                    for &j in &ids[x + 1..] {
                        cand[pair(i, j)] = true;
                    }
                }
            }
        }
        let truth = |j: f64| j >= p.threshold;
        let near = exact.iter().filter(|&&j| truth(j)).count() as u64;
        let candidates = cand.iter().filter(|&&c| c).count() as u64;
        let hits = exact
            .iter()
            .zip(&cand)
            .filter(|&(&j, &c)| c && truth(j))
            .count() as u64;
        let curve = |j: f64| theory::band_probability(j, b, r);
        Ok(R {
            documents: n as u64,
            pairs: exact.len() as u64,
            near_duplicates: near,
            candidates: candidates as f64,
            precision: Proportion::new(hits, candidates),
            recall: Proportion::new(hits, near),
            recall_theory: exact
                .iter()
                .filter(|&&j| truth(j))
                .map(|&j| curve(j))
                .sum::<f64>()
                / near.max(1) as f64,
            candidates_theory: exact.iter().map(|&j| curve(j)).sum(),
            s_curve_midpoint: (1.0 / b as f64).powf(1.0 / r as f64),
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // the licence corpus (about 40,000 words) signed with b*r minima per paragraph
        let k = (p.bands * p.rows) as f64;
        Some(Footprint::one(k * 8.0 * 2_000.0, 40_000.0 * k).plus(400_000.0))
    }
}
