//! `bloom_overfill`: a filter sized for `capacity` keys at rate `p`, filled
//! with `n` keys (the essay's lost overfill table), and the database load
//! behind it at a given request rate and hit rate.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES, fill_and_query};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes};
use crate::experiment::kinds::{Study, Tables};
use crate::experiment::params::{Def, HashSeed, PType, ParamDef, Seeds};
use crate::export::markdown::{pct, sig};
use crate::hashing::StrategyId;
use crate::plot::{Chart, Point, Series, Style};
use crate::report::Section;
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::{KeyGen, KeyType};

pub struct BloomOverfill;

/// A fraction in [0, 1].
pub const FRACTION: PType = PType::Float {
    min: 0.0,
    max: 1.0,
    min_open: false,
    max_open: false,
};

crate::params! {
    pub struct P {
        capacity: u64 = common::count(Def::Int(1_000_000), "keys the filter is sized for"),
        p: f64 = common::rate(Def::Float(0.01), "false-positive rate it is sized for"),
        n: u64 = common::count(Def::Required, "keys actually inserted"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
        queries: u64 = QUERIES,
        request_rate: f64 = common::positive(f64::INFINITY, Def::Float(10_000.0), "requests per second in front of the store"),
        hit_rate: f64 = ParamDef::new("", FRACTION, Def::Float(0.02), "fraction of requests for keys that exist"),
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same],
        k: u32 [Same],
        mb: f64 [Same],
        overfill: f64 [Same],
        fill_measured: Proportion,
        fill_theory: f64 [Same],
        members_checked: u64 [Sum],
        false_negatives: u64 [Max],
        fpr_measured: Proportion,
        fpr_theory: f64 [Same],
        db_load_measured: crate::stats::Estimate,
        db_load_theory: f64 [Same],
        db_load_vs_design: f64,
        required_m: u64 [Same],
        required_mb: f64 [Same],
    }
}

impl Study for BloomOverfill {
    type P = P;
    type R = R;
    const NAME: &'static str = "bloom_overfill";
    const CHARTS: &'static str = include_str!("bloom_overfill.charts.toml");
    const RECONSTRUCTS: Option<&'static str> =
        Some("The overfill: a 1M-key, 1% filter filled to 3M keys");
    const ABOUT: &'static str =
        "a filter sized for one capacity filled past it: FPR and the store load it lets through";

    const THEORY: &'static [(&'static str, &'static str)] = &[("fpr_measured", "fpr_theory")];

    fn validate(&self, p: &P) -> Result<(), (&'static str, String)> {
        if theory::optimal_m(p.capacity, p.p) as f64 > common::MAX_BITS {
            return Err(("capacity", "the filter must be <= 2^40 bits (128 GiB; the hard cap for absurd sizes: `sketchlab plan` checks the machine)".into()));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (cap, target, n) = (p.capacity, p.p, p.n);
        let mut f = BloomFilter::with_rate(cap, target, p.hash_seed.hasher(p.hash, seeds))?;
        let (m, k) = (f.m(), f.k());
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let fq = fill_and_query(&mut f, &mut keys, n, p.queries)?;
        let fpr = fq.fpr;
        let (nf, mf, kf) = (n as f64, m as f64, k as f64);
        let (rate, h) = (p.request_rate, p.hit_rate);
        let load = |fp: f64| rate * theory::store_traffic(h, fp);
        let fpr_theory = theory::fpr(nf, mf, kf);
        let design = load(theory::fpr(cap as f64, mf, kf));
        let required = theory::optimal_m(n, target);
        Ok(R {
            m,
            k,
            mb: mf / 8.0 / 1e6,
            overfill: nf / cap as f64,
            fill_measured: fq.fill,
            fill_theory: theory::expected_fill(nf, mf, kf),
            members_checked: fq.members_checked,
            false_negatives: fq.false_negatives,
            fpr_measured: fpr,
            fpr_theory,
            db_load_measured: crate::stats::Estimate::proportion(fpr.successes, fpr.trials)
                .map(load),
            db_load_theory: load(fpr_theory),
            db_load_vs_design: load(fpr.rate) / design,
            required_m: required,
            required_mb: required as f64 / 8.0 / 1e6,
        })
    }

    fn draws(&self, p: &P, metric: &str) -> Option<f64> {
        // the FPR is over the trial's absent-key queries
        (metric == "fpr_measured").then_some(p.queries as f64)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        Some(Footprint::one(
            bloom_bytes(bloom_bits(p.capacity, p.p)),
            (p.n + p.queries) as f64,
        ))
    }

    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let t = &t.results;
        let cap = common::levels(t, "capacity").first().copied();
        cap.and_then(|cap| load_ratio_vs_hit_rate(t, cap))
            .into_iter()
            .collect()
    }

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
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

/// How the "load triples" verdict depends on the hit rate: the store-load
/// ratio between the largest overfill and the design point, as a function of
/// h, from the two measured FPRs (h + (1−h)·p_n over h + (1−h)·p_cap).
fn load_ratio_vs_hit_rate(t: &crate::table::Table, cap: f64) -> Option<Chart> {
    let at = |n: f64| t.rows.iter().find(|r| t.f64(r, "n") == Some(n));
    let (design, over) = (at(cap)?, at(*common::levels(t, "n").last()?)?);
    let (p1, p3) = (t.f64(design, "fpr_measured")?, t.f64(over, "fpr_measured")?);
    let n_over = t.f64(over, "n")?;
    if n_over <= cap {
        return None;
    }
    let ratio = |h: f64| (h + (1.0 - h) * p3) / (h + (1.0 - h) * p1);
    let pts: Vec<Point> = (0..=400)
        .map(|i| 10f64.powf(-4.0 + 4.0 * i as f64 / 400.0))
        .map(|h| Point::new(h, ratio(h)))
        .collect();
    // the h at which the ratio is exactly 3 (ratio falls monotonically in h)
    let (mut lo, mut hi) = (1e-9f64, 1.0f64);
    for _ in 0..100 {
        let mid = (lo * hi).sqrt();
        if ratio(mid) > 3.0 { lo = mid } else { hi = mid }
    }
    let mut c = Chart::new(
        "load_ratio_vs_hit_rate",
        &format!(
            "Store load at {} keys / at {} keys, by hit rate (measured FPRs {} and {})",
            sig(n_over, 3),
            sig(cap, 3),
            pct(p3, 3),
            pct(p1, 3)
        ),
        "hit rate h",
        "load ratio",
    )
    .log_x()
    .log_y()
    .series(Series::new(
        "(h + (1-h)·p_over) / (h + (1-h)·p_design)",
        Style::Line,
        pts,
    ))
    .hline(3.0, format!("3× (\"triples\") at h = {}", pct(lo, 3)))
    .hline(ratio(0.0), format!("h → 0: {}×", sig(ratio(0.0), 3)));
    for h in common::levels(t, "hit_rate") {
        c = c.vline(h, format!("h = {} (the spec)", pct(h, 2)));
    }
    Some(c)
}
