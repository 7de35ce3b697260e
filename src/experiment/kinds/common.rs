//! Pieces several kinds share: parameter definitions, the fill-then-query
//! measurement, and chart helpers.

use crate::experiment::params::{Def, PType, ParamDef};
use crate::experiment::table::{Cell, Table};
use crate::metrics::Proportion;
use crate::plot::Point;
use crate::structures::Filter;
use crate::workload::KeyGen;

pub const MAX_BITS: f64 = (1u64 << 36) as f64;

pub const fn count(name: &'static str, default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        name,
        PType::Int {
            min: 1,
            max: 1_000_000_000_000,
        },
        default,
        help,
    )
}

pub const fn rate(name: &'static str, default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        name,
        PType::Float {
            min: 0.0,
            max: 1.0,
            min_open: true,
            max_open: true,
        },
        default,
        help,
    )
}

pub const KEYS: ParamDef = ParamDef::new("keys", PType::Keys, Def::Str("u64"), "key type");
pub const QUERIES: ParamDef = count(
    "queries",
    Def::Int(1_000_000),
    "keys never inserted, queried to measure the FPR",
);

/// Result of filling a filter with ids `0..n` and querying ids `n..n+queries`.
#[derive(Clone, Copy, Debug)]
pub struct FillQuery {
    pub fpr: Proportion,
    pub false_negatives: u64,
    /// How many inserted keys were re-queried (all of them up to 10^6, then
    /// an evenly spaced sample of 10^6).
    pub members_checked: u64,
    pub fill: f64,
}

impl FillQuery {
    /// Fills the columns every filter study shares: `fill_measured`,
    /// `members_checked`, `false_negatives`, `false_positives` and
    /// `fpr_measured` with its `_lo`/`_hi` Wilson bounds.
    pub fn record(&self, m: &mut crate::experiment::Metrics) {
        m.set("fill_measured", self.fill)
            .set("members_checked", self.members_checked)
            .set("false_negatives", self.false_negatives)
            .set("false_positives", self.fpr.successes)
            .set_proportion("fpr_measured", &self.fpr);
    }
}

pub fn fill_and_query(f: &mut impl Filter, keys: &mut KeyGen, n: u64, queries: u64) -> FillQuery {
    for id in 0..n {
        f.insert(keys.key(id));
    }
    let stride = n.div_ceil(1_000_000).max(1);
    let mut false_negatives = 0;
    let mut members_checked = 0;
    for id in (0..n).step_by(stride as usize) {
        members_checked += 1;
        if !f.contains(keys.key(id)) {
            false_negatives += 1;
        }
    }
    let positives = (n..n + queries)
        .filter(|&id| f.contains(keys.key(id)))
        .count() as u64;
    FillQuery {
        fpr: Proportion::new(positives, queries),
        false_negatives,
        members_checked,
        fill: f.fill_ratio(),
    }
}

/// Points `(x, y ± [lo, hi])` from rows, sorted by x.
pub fn points(t: &Table, rows: &[&Vec<Cell>], x: &str, y: &str) -> Vec<Point> {
    let mut v: Vec<Point> = rows
        .iter()
        .filter_map(|r| {
            let (xv, yv) = (t.f64(r, x)?, t.f64(r, y)?);
            Some(
                match (t.f64(r, &format!("{y}_lo")), t.f64(r, &format!("{y}_hi"))) {
                    (Some(lo), Some(hi)) => Point::with_interval(xv, yv, lo, hi),
                    _ => Point::new(xv, yv),
                },
            )
        })
        .collect();
    v.sort_by(|a, b| a.x.total_cmp(&b.x));
    v
}

/// How many rows have `theory` inside `[metric_lo, metric_hi]`.
pub fn coverage(t: &Table, metric: &str, theory: &str) -> (usize, usize) {
    let mut inside = 0;
    let mut total = 0;
    for r in &t.rows {
        if let (Some(th), Some(lo), Some(hi)) = (
            t.f64(r, theory),
            t.f64(r, &format!("{metric}_lo")),
            t.f64(r, &format!("{metric}_hi")),
        ) {
            total += 1;
            if lo <= th && th <= hi {
                inside += 1;
            }
        }
    }
    (inside, total)
}

/// The numeric values of a column, distinct and ascending.
pub fn levels(t: &Table, column: &str) -> Vec<f64> {
    let mut v: Vec<f64> = t.distinct(column).iter().filter_map(Cell::as_f64).collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

/// The distinct string values of a column, in first-seen order.
pub fn names(t: &Table, column: &str) -> Vec<String> {
    t.distinct(column).iter().map(|c| c.to_string()).collect()
}

/// The level closest to `want`.
pub fn nearest(levels: &[f64], want: f64) -> Option<f64> {
    levels
        .iter()
        .copied()
        .min_by(|a, b| (a - want).abs().total_cmp(&(b - want).abs()))
}

/// The trial's random stream (never `thread_rng`): xoshiro256++ seeded from the trial seed.
pub fn rng(seed: u64) -> rand::rngs::Xoshiro256PlusPlus {
    <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(seed)
}
