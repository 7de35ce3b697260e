//! `hit_rate`: the essay's lost economics table. A simulated authoritative
//! store (an exact set) sits behind a filter; requests arrive at a given hit
//! rate; we count the lookups that reach the store, next to h + (1 − h)·p.

use super::common::{self, KEYS, rng};
use super::{Kind, KindInfo, Section};
use crate::experiment::params::{Def, HASH, HASH_SEED, PType, ParamDef, Params};
use crate::experiment::table::{Metrics, Table};
use crate::export::markdown::{pct, sig};
use crate::metrics::Proportion;
use crate::plot::{Chart, Point, Series, Style};
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::KeyGen;
use rand::RngExt;
use std::collections::HashSet;

pub struct HitRate;

static PARAMS: [ParamDef; 8] = [
    common::count(
        "n",
        Def::Int(1_000_000),
        "keys in the store (and the filter's capacity)",
    ),
    common::rate(
        "p",
        Def::Float(0.01),
        "the filter's design false-positive rate",
    ),
    ParamDef::new(
        "hit_rate",
        PType::Float {
            min: 0.0,
            max: 1.0,
            min_open: false,
            max_open: false,
        },
        Def::Required,
        "fraction of requests for keys in the store",
    ),
    common::count("requests", Def::Int(1_000_000), "requests simulated"),
    common::count(
        "per",
        Def::Int(10_000),
        "report counts per this many requests (the essay: per 10,000 requests a second)",
    ),
    HASH,
    HASH_SEED,
    KEYS,
];

static METRICS: [&str; 20] = [
    "m",
    "k",
    "filter_fpr_theory",
    "genuine_hits",
    "misses",
    "false_positives_passed",
    "store_lookups",
    "false_negatives",
    "store_lookups_per",
    "store_lookups_per_lo",
    "store_lookups_per_hi",
    "store_lookups_per_theory",
    "store_lookups_per_filter_theory",
    "hits_per",
    "false_positives_per",
    "false_positives_per_theory",
    "miss_fpr_measured",
    "fraction_removed",
    "fraction_removed_theory",
    "no_filter_per",
];

static INFO: KindInfo = KindInfo {
    name: "hit_rate",
    about: "store lookups behind a filter at a given hit rate, next to h + (1-h)p",
    params: &PARAMS,
    metrics: &METRICS,
};

impl Kind for HitRate {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn check(&self, p: &Params) -> Result<(), (&'static str, String)> {
        if p.u64("n") > 100_000_000 {
            return Err((
                "n",
                "must be <= 100000000 (the store is an exact in-memory set)".into(),
            ));
        }
        Ok(())
    }

    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics> {
        let (n, target, h, requests, per) = (
            p.u64("n"),
            p.float("p"),
            p.float("hit_rate"),
            p.u64("requests"),
            p.u64("per") as f64,
        );
        let mut keys = KeyGen::new(p.keys("keys"), p.salt(seed, 1));
        let mut filter = BloomFilter::with_rate(n, target, p.hasher(seed))?;
        // The authoritative store: an exact set of the key bytes.
        let mut store: HashSet<Box<[u8]>> = HashSet::with_capacity(n as usize);
        for id in 0..n {
            let k = keys.key(id);
            filter.insert(k);
            store.insert(k.into());
        }
        let mut rng = rng(p.salt(seed, 2));
        let (mut hits, mut misses, mut fps, mut lookups, mut fneg) = (0u64, 0u64, 0u64, 0u64, 0u64);
        let mut next_absent = n; // ids >= n are never in the store
        for _ in 0..requests {
            let id = if rng.random_bool(h) {
                rng.random_range(0..n)
            } else {
                next_absent += 1;
                next_absent - 1
            };
            let key = keys.key(id);
            let member = id < n;
            if filter.contains(key) {
                lookups += 1;
                // The store confirms the hit or reveals the false positive.
                if store.contains(key) {
                    hits += 1;
                } else {
                    fps += 1;
                }
            } else if member {
                fneg += 1;
            }
            if !member {
                misses += 1;
            }
        }
        let lk = Proportion::new(lookups, requests);
        let filter_fpr = theory::fpr(n as f64, filter.m() as f64, filter.k() as f64);
        let scale = per / requests as f64;
        let mut r = Metrics::new(&METRICS);
        r.set("m", filter.m())
            .set("k", filter.k())
            .set("filter_fpr_theory", filter_fpr)
            .set("genuine_hits", hits)
            .set("misses", misses)
            .set("false_positives_passed", fps)
            .set("store_lookups", lookups)
            .set("false_negatives", fneg)
            .set("store_lookups_per", lk.rate * per)
            .set("store_lookups_per_lo", lk.lo * per)
            .set("store_lookups_per_hi", lk.hi * per)
            .set(
                "store_lookups_per_theory",
                per * theory::store_traffic(h, target),
            )
            .set(
                "store_lookups_per_filter_theory",
                per * theory::store_traffic(h, filter_fpr),
            )
            .set("hits_per", hits as f64 * scale)
            .set("false_positives_per", fps as f64 * scale)
            .set("false_positives_per_theory", per * (1.0 - h) * target)
            .set(
                "miss_fpr_measured",
                if misses > 0 {
                    fps as f64 / misses as f64
                } else {
                    f64::NAN
                },
            )
            .set("fraction_removed", 1.0 - lk.rate)
            .set(
                "fraction_removed_theory",
                1.0 - theory::store_traffic(h, target),
            )
            .set("no_filter_per", per);
        Ok(r)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let rows: Vec<_> = t.rows.iter().collect();
        let per = common::levels(t, "per")
            .first()
            .copied()
            .unwrap_or(10_000.0);
        let floor: Vec<Point> = common::levels(t, "hit_rate")
            .into_iter()
            .map(|h| Point::new(h, h * per))
            .collect();
        vec![
            Chart::new(
                "store_lookups_vs_hit_rate",
                &format!("Lookups reaching the store per {} requests", sig(per, 3)),
                "hit rate h",
                "store lookups",
            )
            .log_x()
            .log_y()
            .series(Series::new(
                "theory per·(h + (1-h)p)",
                Style::Line,
                common::points(t, &rows, "hit_rate", "store_lookups_per_theory"),
            ))
            .series(Series::new("genuine hits only (h·per)", Style::Line, floor))
            .series(Series::new(
                "measured (95% Wilson)",
                Style::Points,
                common::points(t, &rows, "hit_rate", "store_lookups_per"),
            ))
            .hline(per, "no filter"),
        ]
    }

    fn section(&self, t: &Table) -> Section {
        let table = t.project(
            &[
                "hit_rate",
                "hits_per",
                "false_positives_per",
                "false_positives_per_theory",
                "store_lookups_per",
                "store_lookups_per_theory",
                "fraction_removed",
            ],
            |_| true,
        );
        let reading = t
            .rows
            .iter()
            .max_by(|a, b| t.f64(a, "hit_rate").unwrap_or(0.0).total_cmp(&t.f64(b, "hit_rate").unwrap_or(0.0)))
            .map(|r| {
                format!(
                    "False positives shrink as the hit rate climbs; at h = {} the filter removes only {} of requests (theory {}), so the real hits, not the false positives, set the store load.",
                    sig(t.f64(r, "hit_rate").unwrap_or(f64::NAN), 2),
                    pct(t.f64(r, "fraction_removed").unwrap_or(f64::NAN), 3),
                    pct(t.f64(r, "fraction_removed_theory").unwrap_or(f64::NAN), 3)
                )
            })
            .unwrap_or_default();
        Section { table, reading }
    }
}
