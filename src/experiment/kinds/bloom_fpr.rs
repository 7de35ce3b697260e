//! `bloom_fpr`: false-positive rate of a Bloom filter across n, bits per key,
//! k and hash strategy, next to (1 − e^(−kn/m))^k.

use super::common::{self, FillQuery, KEYS, MAX_BITS, QUERIES, fill_and_query};
use super::{Kind, KindInfo, Section};
use crate::experiment::params::{Def, HASH, HASH_SEED, PType, ParamDef, Params, Value};
use crate::experiment::table::{Metrics, Table};
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Series, Style};
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::KeyGen;

pub struct BloomFpr;

static PARAMS: [ParamDef; 7] = [
    common::count("n", Def::Required, "keys inserted"),
    ParamDef::new(
        "bits_per_key",
        PType::Float {
            min: 0.0,
            max: 1e4,
            min_open: true,
            max_open: false,
        },
        Def::Required,
        "m/n; m = ceil(bits_per_key * n)",
    ),
    ParamDef::new(
        "k",
        PType::IntOr {
            min: 1,
            max: 64,
            words: &["optimal"],
        },
        Def::Str("optimal"),
        "probes per key, or \"optimal\" = max(1, round(m/n ln 2))",
    ),
    HASH,
    HASH_SEED,
    KEYS,
    QUERIES,
];

static METRICS: [&str; 15] = [
    "m",
    "k_used",
    "k_optimal",
    "bytes",
    "fill_measured",
    "fill_theory",
    "members_checked",
    "false_negatives",
    "false_positives",
    "fpr_measured",
    "fpr_measured_lo",
    "fpr_measured_hi",
    "fpr_theory",
    "fpr_theory_optimal_k",
    "fpr_given_fill",
];

/// m and k for a trial.
pub fn m_k(n: u64, bits_per_key: f64, k: &Value) -> (u64, u32) {
    let m = (bits_per_key * n as f64).ceil().max(1.0) as u64;
    let k = match k {
        Value::Int(k) => *k as u32,
        _ => theory::optimal_k_int(m, n),
    };
    (m, k)
}

static INFO: KindInfo = KindInfo {
    name: "bloom_fpr",
    about: "Bloom filter FPR vs n, bits per key, k and hash, with Wilson intervals, next to theory",
    params: &PARAMS,
    metrics: &METRICS,
};

impl Kind for BloomFpr {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn check(&self, p: &Params) -> Result<(), (&'static str, String)> {
        if p.float("bits_per_key") * p.u64("n") as f64 > MAX_BITS {
            return Err((
                "bits_per_key",
                format!(
                    "bits_per_key * n must be <= 2^36 bits (8 GiB); n = {}",
                    p.u64("n")
                ),
            ));
        }
        Ok(())
    }

    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics> {
        let n = p.u64("n");
        let (m, k) = m_k(n, p.float("bits_per_key"), p.get("k"));
        let mut f = BloomFilter::new(m, k, p.hasher(seed))?;
        let mut keys = KeyGen::new(p.keys("keys"), p.salt(seed, 1));
        let fq = fill_and_query(&mut f, &mut keys, n, p.u64("queries"));
        let FillQuery { fill, .. } = fq;
        let (nf, mf, kf) = (n as f64, m as f64, k as f64);
        let k_opt = theory::optimal_k(mf, nf);
        let mut r = Metrics::new(&METRICS);
        r.set("m", m)
            .set("k_used", k)
            .set("k_optimal", k_opt)
            .set("bytes", f.bytes())
            .set("fill_theory", theory::expected_fill(nf, mf, kf))
            .set("fpr_theory", theory::fpr(nf, mf, kf))
            .set("fpr_theory_optimal_k", theory::fpr(nf, mf, k_opt))
            .set("fpr_given_fill", fill.powi(k as i32));
        fq.record(&mut r);
        Ok(r)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let Some(&n) = common::levels(t, "n").last() else {
            return vec![];
        };
        let hashes = common::names(t, "hash");
        let opt_rows = |h: &str| -> Vec<&Vec<_>> {
            t.rows
                .iter()
                .filter(|r| {
                    t.f64(r, "n") == Some(n) && t.str(r, "k") == "optimal" && t.str(r, "hash") == h
                })
                .collect()
        };
        let mut by_bpk = Chart::new(
            "fpr_vs_bits_per_key",
            &format!(
                "Bloom FPR vs bits per key (n = {}, optimal integer k)",
                sig(n, 3)
            ),
            "bits per key (m/n)",
            "false-positive rate",
        )
        .log_y();
        let mut fill = Chart::new(
            "fill_at_capacity",
            &format!(
                "Fraction of bits set at capacity (n = {}, optimal integer k)",
                sig(n, 3)
            ),
            "bits per key (m/n)",
            "fill ratio",
        )
        .hline(0.5, "half full");
        for (i, h) in hashes.iter().enumerate() {
            let rows = opt_rows(h);
            if i == 0 {
                by_bpk = by_bpk
                    .series(Series::new(
                        "theory (1-e^(-kn/m))^k, integer k",
                        Style::Line,
                        common::points(t, &rows, "bits_per_key", "fpr_theory"),
                    ))
                    .series(Series::new(
                        "theory at real-valued k*",
                        Style::Line,
                        common::points(t, &rows, "bits_per_key", "fpr_theory_optimal_k"),
                    ));
                fill = fill.series(Series::new(
                    "theory 1-e^(-kn/m)",
                    Style::Line,
                    common::points(t, &rows, "bits_per_key", "fill_theory"),
                ));
            }
            by_bpk = by_bpk.series(Series::new(
                format!("measured, {h} (95% Wilson)"),
                Style::Points,
                common::points(t, &rows, "bits_per_key", "fpr_measured"),
            ));
            fill = fill.series(Series::new(
                format!("measured, {h}"),
                Style::Points,
                common::points(t, &rows, "bits_per_key", "fill_measured"),
            ));
        }
        let mut charts = vec![by_bpk];
        // FPR vs k at a fixed m/n (the one nearest 10).
        if let Some(bpk) = common::nearest(&common::levels(t, "bits_per_key"), 10.0) {
            let mut c = Chart::new(
                "fpr_vs_k",
                &format!(
                    "Bloom FPR vs k at m/n = {} (n = {})",
                    sig(bpk, 3),
                    sig(n, 3)
                ),
                "k (hash functions)",
                "false-positive rate",
            )
            .log_y();
            for (i, h) in hashes.iter().enumerate() {
                let rows: Vec<_> = t
                    .rows
                    .iter()
                    .filter(|r| {
                        t.f64(r, "n") == Some(n)
                            && t.f64(r, "bits_per_key") == Some(bpk)
                            && t.str(r, "hash") == *h
                            && t.str(r, "k") != "optimal"
                    })
                    .collect();
                if i == 0 {
                    c = c.series(Series::new(
                        "theory",
                        Style::Line,
                        common::points(t, &rows, "k", "fpr_theory"),
                    ));
                }
                c = c.series(Series::new(
                    format!("measured, {h}"),
                    Style::Points,
                    common::points(t, &rows, "k", "fpr_measured"),
                ));
            }
            c = c.vline(
                theory::optimal_k(bpk, 1.0),
                format!(
                    "optimum k* = (m/n) ln 2 = {}",
                    sig(theory::optimal_k(bpk, 1.0), 3)
                ),
            );
            charts.push(c);
        }
        charts.push(fill);
        charts
    }

    fn section(&self, t: &Table) -> Section {
        let Some(&n) = common::levels(t, "n").last() else {
            return Section::default();
        };
        let shown = [2.0, 4.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0];
        let table = t.project(
            &[
                "n",
                "bits_per_key",
                "hash",
                "k_used",
                "fpr_theory",
                "fpr_measured",
                "fpr_measured_lo",
                "fpr_measured_hi",
                "fill_measured",
                "false_negatives",
            ],
            |r| {
                t.f64(r, "n") == Some(n)
                    && t.str(r, "k") == "optimal"
                    && t.f64(r, "bits_per_key").is_some_and(|b| shown.contains(&b))
            },
        );
        let (inside, total) = common::coverage(t, "fpr_measured", "fpr_theory");
        let (inside_fill, _) = common::coverage(t, "fpr_measured", "fpr_given_fill");
        let fneg: f64 = t
            .rows
            .iter()
            .filter_map(|r| t.f64(r, "false_negatives"))
            .sum();
        let at10 = t.rows.iter().find(|r| {
            t.f64(r, "n") == Some(n)
                && t.str(r, "k") == "optimal"
                && t.f64(r, "bits_per_key") == Some(10.0)
        });
        let at10 = at10
            .map(|r| {
                format!(
                    " At 10 bits/key and k = {} the measured FPR is {} against {} in theory.",
                    t.str(r, "k_used"),
                    pct(t.f64(r, "fpr_measured").unwrap_or(f64::NAN), 3),
                    pct(t.f64(r, "fpr_theory").unwrap_or(f64::NAN), 3)
                )
            })
            .unwrap_or_default();
        Section {
            table,
            reading: format!(
                "Theory (1-e^(-kn/m))^k falls inside the measured 95% Wilson interval in {inside} of {total} trials ({}). The interval covers query sampling only, while each filter's own fill varies around its expectation; given each filter's measured fill ρ, ρ^k is inside in {inside_fill} of {total} ({}). False negatives across all trials: {fneg}.{at10}",
                pct(inside as f64 / total.max(1) as f64, 3),
                pct(inside_fill as f64 / total.max(1) as f64, 3)
            ),
        }
    }
}
