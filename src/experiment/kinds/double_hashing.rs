//! `double_hashing`: Kirsch–Mitzenmacher double hashing (two hash halves,
//! k probes) against k independently seeded hashes, at equal m and k.

use super::bloom_fpr::m_k;
use super::common::{self, FillQuery, KEYS, MAX_BITS, QUERIES, fill_and_query};
use super::{Kind, KindInfo, Section};
use crate::experiment::params::{Def, HASH, HASH_SEED, PType, ParamDef, Params};
use crate::experiment::table::{Metrics, Table};
use crate::plot::{Chart, Series, Style};
use crate::structures::bloom::{BloomFilter, IndependentBloom, theory};
use crate::workload::KeyGen;

pub struct DoubleHashing;

static PARAMS: [ParamDef; 9] = [
    common::count("n", Def::Int(100_000), "keys inserted"),
    ParamDef::new(
        "bits_per_key",
        PType::Float {
            min: 0.0,
            max: 1e4,
            min_open: true,
            max_open: false,
        },
        Def::Required,
        "m/n",
    ),
    ParamDef::new(
        "k",
        PType::IntOr {
            min: 1,
            max: 64,
            words: &["optimal"],
        },
        Def::Str("optimal"),
        "probes per key",
    ),
    ParamDef::new(
        "scheme",
        PType::Choice(&["double", "independent"]),
        Def::Required,
        "double = (h1 + i*h2) mod m from one hash; independent = k seeded hashes",
    ),
    HASH,
    HASH_SEED,
    KEYS,
    QUERIES,
    ParamDef::new(
        "repeats",
        PType::Int {
            min: 1,
            max: 10_000,
        },
        Def::Int(10),
        "independent filters (fresh keys) per setting; the 95% interval is mean ± 1.96·sd/√repeats over them",
    ),
];

static METRICS: [&str; 11] = [
    "m",
    "k_used",
    "hash_evaluations_per_query",
    "fill_measured",
    "fill_theory",
    "false_negatives",
    "false_positives",
    "fpr_measured",
    "fpr_measured_lo",
    "fpr_measured_hi",
    "fpr_theory",
];

static INFO: KindInfo = KindInfo {
    name: "double_hashing",
    about: "Kirsch-Mitzenmacher double hashing vs k independent hashes at equal m and k",
    params: &PARAMS,
    metrics: &METRICS,
};

impl Kind for DoubleHashing {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn check(&self, p: &Params) -> Result<(), (&'static str, String)> {
        if p.float("bits_per_key") * p.u64("n") as f64 > MAX_BITS {
            return Err((
                "bits_per_key",
                "bits_per_key * n must be <= 2^36 bits (8 GiB)".into(),
            ));
        }
        Ok(())
    }

    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics> {
        let n = p.u64("n");
        let (m, k) = m_k(n, p.float("bits_per_key"), p.get("k"));
        let hasher = p.hasher(seed);
        let queries = p.u64("queries");
        let repeats = p.u64("repeats");
        let double = p.str("scheme") == "double";
        // Independent filters (fresh key sets), so the interval covers the
        // filter-to-filter variation as well as query sampling.
        let mut fprs = Vec::with_capacity(repeats as usize);
        let (mut fill, mut fneg, mut fps) = (0.0, 0u64, 0u64);
        for rep in 0..repeats {
            let mut keys = KeyGen::new(p.keys("keys"), p.salt(seed, 1 + rep));
            let fq: FillQuery = if double {
                fill_and_query(
                    &mut BloomFilter::new(m, k, hasher.clone())?,
                    &mut keys,
                    n,
                    queries,
                )
            } else {
                fill_and_query(
                    &mut IndependentBloom::new(m, k, &hasher)?,
                    &mut keys,
                    n,
                    queries,
                )
            };
            fprs.push(fq.fpr.rate);
            fill += fq.fill / repeats as f64;
            fneg += fq.false_negatives;
            fps += fq.fpr.successes;
        }
        let mean = fps as f64 / (queries * repeats) as f64;
        let (lo, hi) = if repeats >= 2 {
            let sd = (fprs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (repeats - 1) as f64)
                .sqrt();
            let half = crate::metrics::Z95 * sd / (repeats as f64).sqrt();
            (mean - half, mean + half)
        } else {
            let pr = crate::metrics::Proportion::new(fps, queries);
            (pr.lo, pr.hi)
        };
        let (nf, mf, kf) = (n as f64, m as f64, k as f64);
        let mut r = Metrics::new(&METRICS);
        r.set("m", m)
            .set("k_used", k)
            .set("hash_evaluations_per_query", if double { 1 } else { k })
            .set("fill_measured", fill)
            .set("fill_theory", theory::expected_fill(nf, mf, kf))
            .set("false_negatives", fneg)
            .set("false_positives", fps)
            .set("fpr_measured", mean)
            .set("fpr_measured_lo", lo)
            .set("fpr_measured_hi", hi)
            .set("fpr_theory", theory::fpr(nf, mf, kf));
        Ok(r)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let mut c = Chart::new(
            "double_vs_independent",
            "Double hashing vs k independent hashes",
            "bits per key (m/n)",
            "false-positive rate",
        )
        .log_y();
        for (i, scheme) in ["double", "independent"].iter().enumerate() {
            let rows: Vec<_> = t.where_str("scheme", scheme).collect();
            if i == 0 {
                c = c.series(Series::new(
                    "theory",
                    Style::Line,
                    common::points(t, &rows, "bits_per_key", "fpr_theory"),
                ));
            }
            c = c.series(Series::new(
                format!("measured, {scheme}"),
                Style::Points,
                common::points(t, &rows, "bits_per_key", "fpr_measured"),
            ));
        }
        vec![c]
    }

    fn section(&self, t: &Table) -> Section {
        let table = t.project(
            &[
                "n",
                "bits_per_key",
                "k_used",
                "scheme",
                "hash_evaluations_per_query",
                "fpr_theory",
                "fpr_measured",
                "fpr_measured_lo",
                "fpr_measured_hi",
            ],
            |_| true,
        );
        // Pairs at the same (bits_per_key, hash, k): do their intervals overlap?
        let mut pairs = 0;
        let mut overlapping = 0;
        let mut worst: f64 = 1.0;
        for r in t.where_str("scheme", "double") {
            let same = |o: &&Vec<_>| {
                ["n", "bits_per_key", "k", "hash", "keys"]
                    .iter()
                    .all(|c| t.cell(o, c) == t.cell(r, c))
            };
            if let Some(o) = t.where_str("scheme", "independent").find(same) {
                pairs += 1;
                let (a_lo, a_hi, b_lo, b_hi) = (
                    t.f64(r, "fpr_measured_lo").unwrap_or(0.0),
                    t.f64(r, "fpr_measured_hi").unwrap_or(1.0),
                    t.f64(o, "fpr_measured_lo").unwrap_or(0.0),
                    t.f64(o, "fpr_measured_hi").unwrap_or(1.0),
                );
                if a_lo <= b_hi && b_lo <= a_hi {
                    overlapping += 1;
                }
                if let (Some(a), Some(b)) = (t.f64(r, "fpr_measured"), t.f64(o, "fpr_measured"))
                    && a > 0.0
                    && b > 0.0
                {
                    worst = worst.max(a / b).max(b / a);
                }
            }
        }
        Section {
            table,
            reading: format!(
                "In {overlapping} of {pairs} paired settings the two schemes' 95% intervals overlap; the largest FPR ratio between them is {}×, while double hashing evaluates the hash once per query instead of k times.",
                crate::export::markdown::sig(worst, 3)
            ),
        }
    }
}
