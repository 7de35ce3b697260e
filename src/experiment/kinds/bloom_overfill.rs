//! `bloom_overfill`: a filter sized for `capacity` keys at rate `p`, filled
//! with `n` keys (the essay's lost overfill table), and the database load
//! behind it at a given request rate and hit rate.

use super::common::{self, FillQuery, KEYS, QUERIES, fill_and_query};
use super::{Kind, KindInfo, Section};
use crate::experiment::params::{Def, HASH, HASH_SEED, PType, ParamDef, Params};
use crate::experiment::table::{Metrics, Table};
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Series, Style};
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::KeyGen;

pub struct BloomOverfill;

static PARAMS: [ParamDef; 9] = [
    common::count(
        "capacity",
        Def::Int(1_000_000),
        "keys the filter is sized for",
    ),
    common::rate("p", Def::Float(0.01), "false-positive rate it is sized for"),
    common::count("n", Def::Required, "keys actually inserted"),
    HASH,
    HASH_SEED,
    KEYS,
    QUERIES,
    ParamDef::new(
        "request_rate",
        PType::Float {
            min: 0.0,
            max: f64::INFINITY,
            min_open: true,
            max_open: true,
        },
        Def::Float(10_000.0),
        "requests per second in front of the store",
    ),
    ParamDef::new(
        "hit_rate",
        PType::Float {
            min: 0.0,
            max: 1.0,
            min_open: false,
            max_open: false,
        },
        Def::Float(0.02),
        "fraction of requests for keys that exist",
    ),
];

static METRICS: [&str; 20] = [
    "m",
    "k",
    "mb",
    "overfill",
    "fill_measured",
    "fill_theory",
    "members_checked",
    "false_negatives",
    "false_positives",
    "fpr_measured",
    "fpr_measured_lo",
    "fpr_measured_hi",
    "fpr_theory",
    "db_load_measured",
    "db_load_measured_lo",
    "db_load_measured_hi",
    "db_load_theory",
    "db_load_vs_design",
    "required_m",
    "required_mb",
];

static INFO: KindInfo = KindInfo {
    name: "bloom_overfill",
    about: "a filter sized for one capacity filled past it: FPR and the store load it lets through",
    params: &PARAMS,
    metrics: &METRICS,
};

impl Kind for BloomOverfill {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn check(&self, p: &Params) -> Result<(), (&'static str, String)> {
        if theory::optimal_m(p.u64("capacity"), p.float("p")) as f64 > common::MAX_BITS {
            return Err(("capacity", "the filter must be <= 2^36 bits (8 GiB)".into()));
        }
        Ok(())
    }

    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics> {
        let (cap, target, n) = (p.u64("capacity"), p.float("p"), p.u64("n"));
        let mut f = BloomFilter::with_rate(cap, target, p.hasher(seed))?;
        let (m, k) = (f.m(), f.k());
        let mut keys = KeyGen::new(p.keys("keys"), p.salt(seed, 1));
        let fq = fill_and_query(&mut f, &mut keys, n, p.u64("queries"));
        let FillQuery { fpr, .. } = fq;
        let (nf, mf, kf) = (n as f64, m as f64, k as f64);
        let (rate, h) = (p.float("request_rate"), p.float("hit_rate"));
        let load = |fp: f64| rate * theory::store_traffic(h, fp);
        let fpr_theory = theory::fpr(nf, mf, kf);
        let design = load(theory::fpr(cap as f64, mf, kf));
        let required = theory::optimal_m(n, target);
        let mut r = Metrics::new(&METRICS);
        r.set("m", m)
            .set("k", k)
            .set("mb", mf / 8.0 / 1e6)
            .set("overfill", nf / cap as f64)
            .set("fill_theory", theory::expected_fill(nf, mf, kf))
            .set("fpr_theory", fpr_theory)
            .set("db_load_measured", load(fpr.rate))
            .set("db_load_measured_lo", load(fpr.lo))
            .set("db_load_measured_hi", load(fpr.hi))
            .set("db_load_theory", load(fpr_theory))
            .set("db_load_vs_design", load(fpr.rate) / design)
            .set("required_m", required)
            .set("required_mb", required as f64 / 8.0 / 1e6);
        fq.record(&mut r);
        Ok(r)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let rows: Vec<_> = t.rows.iter().collect();
        let cap = common::levels(t, "capacity")
            .first()
            .copied()
            .unwrap_or(f64::NAN);
        let target = common::levels(t, "p").first().copied().unwrap_or(f64::NAN);
        let log = common::levels(t, "n").last().copied().unwrap_or(1.0)
            / common::levels(t, "n").first().copied().unwrap_or(1.0)
            > 50.0;
        let mut fpr = Chart::new(
            "fpr_vs_keys",
            &format!(
                "Overfilling a filter sized for {} keys at {}",
                sig(cap, 3),
                pct(target, 2)
            ),
            "keys inserted",
            "false-positive rate",
        )
        .series(Series::new(
            "theory (1-e^(-kn/m))^k",
            Style::Line,
            common::points(t, &rows, "n", "fpr_theory"),
        ))
        .series(Series::new(
            "measured (95% Wilson)",
            Style::Points,
            common::points(t, &rows, "n", "fpr_measured"),
        ))
        .vline(cap, "design capacity")
        .hline(target, "design rate");
        let mut load = Chart::new(
            "db_load",
            "Store lookups per second behind the filter",
            "keys inserted",
            "lookups per second",
        )
        .series(Series::new(
            "theory rate·(h + (1-h)·p)",
            Style::Line,
            common::points(t, &rows, "n", "db_load_theory"),
        ))
        .series(Series::new(
            "measured",
            Style::Points,
            common::points(t, &rows, "n", "db_load_measured"),
        ))
        .vline(cap, "design capacity");
        if log {
            fpr = fpr.log_x();
            load = load.log_x();
        }
        vec![fpr, load]
    }

    fn section(&self, t: &Table) -> Section {
        let table = t.project(
            &[
                "capacity",
                "n",
                "overfill",
                "mb",
                "k",
                "fill_measured",
                "fpr_theory",
                "fpr_measured",
                "fpr_measured_lo",
                "fpr_measured_hi",
                "db_load_theory",
                "db_load_measured",
                "db_load_vs_design",
                "required_mb",
            ],
            |_| true,
        );
        let last = t.rows.iter().max_by(|a, b| {
            t.f64(a, "n")
                .unwrap_or(0.0)
                .total_cmp(&t.f64(b, "n").unwrap_or(0.0))
        });
        let reading = last
            .map(|r| {
                format!(
                    "At {}× capacity ({} keys) the filter's FPR is {} (theory {}) and the store sees {}× its design load ({} lookups/s); the filter would need {} MB to hold that many keys at its design rate.",
                    sig(t.f64(r, "overfill").unwrap_or(f64::NAN), 3),
                    sig(t.f64(r, "n").unwrap_or(f64::NAN), 3),
                    pct(t.f64(r, "fpr_measured").unwrap_or(f64::NAN), 3),
                    pct(t.f64(r, "fpr_theory").unwrap_or(f64::NAN), 3),
                    sig(t.f64(r, "db_load_vs_design").unwrap_or(f64::NAN), 3),
                    sig(t.f64(r, "db_load_measured").unwrap_or(f64::NAN), 4),
                    sig(t.f64(r, "required_mb").unwrap_or(f64::NAN), 4),
                )
            })
            .unwrap_or_default();
        Section { table, reading }
    }
}
