//! `key_size`: a Bloom filter's cost and FPR do not depend on the key size;
//! an exact set's memory does. The exact set's memory is measured with the
//! counting global allocator (bytes requested from the allocator while
//! building it), not estimated.

use super::common::{self, KEYS, QUERIES, fill_and_query};
use super::{Kind, KindInfo, Section};
use crate::experiment::params::{Def, HASH, HASH_SEED, PType, ParamDef, Params};
use crate::experiment::table::{Metrics, Table};
use crate::export::markdown::{pct, sig};
use crate::metrics::alloc::measure_retained;
use crate::plot::{Chart, Series, Style};
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::{KeyGen, KeyType};
use std::collections::HashSet;

pub struct KeySize;

static PARAMS: [ParamDef; 7] = [
    common::count("n", Def::Int(1_000_000), "keys inserted"),
    common::rate(
        "p",
        Def::Float(0.01),
        "design false-positive rate (sets bits per key)",
    ),
    KEYS,
    HASH,
    HASH_SEED,
    QUERIES,
    ParamDef::new(
        "measure_hashset",
        PType::Bool,
        Def::Bool(true),
        "also build an exact HashSet of the keys and measure its memory",
    ),
];

static METRICS: [&str; 22] = [
    "key_bytes",
    "m",
    "k",
    "bits_per_key",
    "filter_bytes",
    "filter_bytes_per_key",
    "filter_mb",
    "fill_measured",
    "members_checked",
    "false_negatives",
    "false_positives",
    "fpr_measured",
    "fpr_measured_lo",
    "fpr_measured_hi",
    "fpr_theory",
    "raw_key_bytes",
    "hashset_bytes",
    "hashset_bytes_per_key",
    "hashset_mb",
    "hashset_over_filter",
    "raw_gb_per_100m_keys",
    "hashset_gb_per_100m_keys",
];

/// Builds the exact set of keys `0..n` the natural way for the key type and
/// returns the bytes it retains (`None` without the counting allocator).
fn hashset_bytes(keys: &mut KeyGen, n: u64) -> Option<u64> {
    match keys.kind() {
        KeyType::U64 => {
            let (set, bytes) = measure_retained(|| {
                (0..n)
                    .map(|id| u64::from_le_bytes(keys.key(id).try_into().unwrap()))
                    .collect::<HashSet<u64>>()
            });
            drop(set);
            bytes
        }
        KeyType::Url100 | KeyType::Decimal => {
            let (set, bytes) = measure_retained(|| {
                (0..n)
                    .map(|id| String::from_utf8(keys.key(id).to_vec()).expect("ascii keys"))
                    .collect::<HashSet<String>>()
            });
            drop(set);
            bytes
        }
        KeyType::Blob2k => {
            let (set, bytes) = measure_retained(|| {
                (0..n)
                    .map(|id| keys.key(id).to_vec())
                    .collect::<HashSet<Vec<u8>>>()
            });
            drop(set);
            bytes
        }
    }
}

static INFO: KindInfo = KindInfo {
    name: "key_size",
    about: "Bloom FPR and bytes at equal bits per key for small and large keys, next to a measured exact HashSet",
    params: &PARAMS,
    metrics: &METRICS,
};

impl Kind for KeySize {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn check(&self, p: &Params) -> Result<(), (&'static str, String)> {
        if p.u64("n") > 10_000_000 {
            return Err((
                "n",
                "must be <= 10000000 (the exact set of 2 KiB keys must fit in memory)".into(),
            ));
        }
        Ok(())
    }

    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics> {
        let (n, target) = (p.u64("n"), p.float("p"));
        let kind = p.keys("keys");
        let mut f = BloomFilter::with_rate(n, target, p.hasher(seed))?;
        let (m, k) = (f.m(), f.k());
        let mut keys = KeyGen::new(kind, p.salt(seed, 1));
        let fq = fill_and_query(&mut f, &mut keys, n, p.u64("queries"));
        let key_bytes = kind.key_len().map(|l| l as u64).unwrap_or_else(|| {
            (0..n.min(1000))
                .map(|id| keys.key(id).len() as u64)
                .sum::<u64>()
                / n.min(1000)
        });
        let hs = if p.bool("measure_hashset") {
            hashset_bytes(&mut keys, n)
        } else {
            None
        };
        let nf = n as f64;
        let mut r = Metrics::new(&METRICS);
        r.set("key_bytes", key_bytes)
            .set("m", m)
            .set("k", k)
            .set("bits_per_key", m as f64 / nf)
            .set("filter_bytes", f.bytes())
            .set("filter_bytes_per_key", f.bytes() as f64 / nf)
            .set("filter_mb", f.bytes() as f64 / 1e6)
            .set("fpr_theory", theory::fpr(nf, m as f64, k as f64))
            .set("raw_key_bytes", key_bytes * n)
            .set("raw_gb_per_100m_keys", key_bytes as f64 * 1e8 / 1e9)
            .set("hashset_bytes", hs)
            .set("hashset_bytes_per_key", hs.map(|b| b as f64 / nf))
            .set("hashset_mb", hs.map(|b| b as f64 / 1e6))
            .set(
                "hashset_over_filter",
                hs.map(|b| b as f64 / f.bytes() as f64),
            )
            .set(
                "hashset_gb_per_100m_keys",
                hs.map(|b| b as f64 / nf * 1e8 / 1e9),
            );
        fq.record(&mut r);
        Ok(r)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let rows: Vec<_> = t.rows.iter().collect();
        vec![
            Chart::new(
                "fpr_vs_key_size",
                "Bloom FPR at equal bits per key, by key size",
                "key size (bytes)",
                "false-positive rate",
            )
            .log_x()
            .series(Series::new(
                "theory",
                Style::Line,
                common::points(t, &rows, "key_bytes", "fpr_theory"),
            ))
            .series(Series::new(
                "measured (95% Wilson)",
                Style::Points,
                common::points(t, &rows, "key_bytes", "fpr_measured"),
            )),
            Chart::new(
                "memory_per_key",
                "Memory per key: Bloom filter vs exact HashSet (measured)",
                "key size (bytes)",
                "bytes per key",
            )
            .log_x()
            .log_y()
            .series(Series::new(
                "Bloom filter",
                Style::LinePoints,
                common::points(t, &rows, "key_bytes", "filter_bytes_per_key"),
            ))
            .series(Series::new(
                "HashSet (counting allocator)",
                Style::LinePoints,
                common::points(t, &rows, "key_bytes", "hashset_bytes_per_key"),
            )),
        ]
    }

    fn section(&self, t: &Table) -> Section {
        let table = t.project(
            &[
                "keys",
                "key_bytes",
                "n",
                "bits_per_key",
                "filter_mb",
                "fpr_measured",
                "fpr_measured_lo",
                "fpr_measured_hi",
                "hashset_mb",
                "hashset_bytes_per_key",
                "hashset_over_filter",
            ],
            |_| true,
        );
        let fprs: Vec<f64> = t
            .rows
            .iter()
            .filter_map(|r| t.f64(r, "fpr_measured"))
            .collect();
        let (lo, hi) = fprs
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let hs: Vec<String> = t
            .rows
            .iter()
            .filter_map(|r| {
                Some(format!(
                    "{} {} MB",
                    t.str(r, "keys"),
                    sig(t.f64(r, "hashset_mb")?, 3)
                ))
            })
            .collect();
        Section {
            table,
            reading: format!(
                "Measured FPR ranges {}–{} across key sizes at the same bits per key; the filter is the same size for every key type, while the exact HashSet measures {}.",
                pct(lo, 3),
                pct(hi, 3),
                if hs.is_empty() {
                    "nothing (counting allocator not installed)".to_string()
                } else {
                    hs.join(", ")
                }
            ),
        }
    }
}
