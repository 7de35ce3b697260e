//! `bloom_sizing`: the essay's lost "for a million keys" table. For each
//! target p: bits per key, m, MB, k, theory FPR at the integer k, and the FPR
//! measured on a filter built exactly that way.

use super::common::{self, KEYS, QUERIES, fill_and_query};
use super::{Kind, KindInfo, Section};
use crate::experiment::params::{Def, HASH, HASH_SEED, ParamDef, Params};
use crate::experiment::table::{Metrics, Table};
use crate::export::markdown::sig;
use crate::plot::{Chart, Point, Series, Style};
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::KeyGen;

pub struct BloomSizing;

static PARAMS: [ParamDef; 6] = [
    common::count(
        "n",
        Def::Int(1_000_000),
        "keys the filter is sized for and filled with",
    ),
    common::rate("p", Def::Required, "target false-positive rate"),
    HASH,
    HASH_SEED,
    KEYS,
    QUERIES,
];

static METRICS: [&str; 18] = [
    "m",
    "bits_per_key",
    "bits_per_key_theory",
    "extra_bits_per_decade",
    "mb",
    "bytes",
    "k",
    "k_optimal",
    "lookups_per_query",
    "fill_measured",
    "fill_theory",
    "members_checked",
    "false_negatives",
    "false_positives",
    "fpr_measured",
    "fpr_measured_lo",
    "fpr_measured_hi",
    "fpr_theory",
];

static INFO: KindInfo = KindInfo {
    name: "bloom_sizing",
    about: "Bloom sizing by the chapter's formulas for a target p, and the FPR a filter built that way measures",
    params: &PARAMS,
    metrics: &METRICS,
};

impl Kind for BloomSizing {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn check(&self, p: &Params) -> Result<(), (&'static str, String)> {
        if theory::optimal_m(p.u64("n"), p.float("p")) as f64 > common::MAX_BITS {
            return Err((
                "n",
                "the filter for n at p must be <= 2^36 bits (8 GiB)".into(),
            ));
        }
        Ok(())
    }

    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics> {
        let (n, target) = (p.u64("n"), p.float("p"));
        let mut f = BloomFilter::with_rate(n, target, p.hasher(seed))?;
        let (m, k) = (f.m(), f.k());
        let mut keys = KeyGen::new(p.keys("keys"), p.salt(seed, 1));
        let fq = fill_and_query(&mut f, &mut keys, n, p.u64("queries"));
        let nf = n as f64;
        let extra =
            (target * 10.0 < 1.0).then(|| (m - theory::optimal_m(n, target * 10.0)) as f64 / nf);
        let mut r = Metrics::new(&METRICS);
        r.set("m", m)
            .set("bits_per_key", m as f64 / nf)
            .set("bits_per_key_theory", theory::bits_per_element(target))
            .set("extra_bits_per_decade", extra)
            .set("mb", m as f64 / 8.0 / 1e6)
            .set("bytes", f.bytes())
            .set("k", k)
            .set("k_optimal", theory::optimal_k(m as f64, nf))
            .set("lookups_per_query", k)
            .set("fill_theory", theory::expected_fill(nf, m as f64, k as f64))
            .set("fpr_theory", theory::fpr(nf, m as f64, k as f64));
        fq.record(&mut r);
        Ok(r)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let rows: Vec<_> = t.rows.iter().collect();
        let target: Vec<Point> = common::levels(t, "p")
            .into_iter()
            .map(|p| Point::new(p, p))
            .collect();
        vec![
            Chart::new(
                "fpr_vs_target",
                "Measured FPR of filters sized by the chapter's formulas",
                "target p",
                "false-positive rate",
            )
            .log_x()
            .log_y()
            .series(Series::new("target (y = p)", Style::Line, target))
            .series(Series::new(
                "theory at the integer k used",
                Style::Line,
                common::points(t, &rows, "p", "fpr_theory"),
            ))
            .series(Series::new(
                "measured (95% Wilson)",
                Style::Points,
                common::points(t, &rows, "p", "fpr_measured"),
            )),
            Chart::new(
                "bits_per_key",
                "Bits per key vs target p: 1.44 log2(1/p)",
                "target p",
                "bits per key",
            )
            .log_x()
            .series(Series::new(
                "1.44 log2(1/p)",
                Style::Line,
                common::points(t, &rows, "p", "bits_per_key_theory"),
            ))
            .series(Series::new(
                "m/n of the built filter",
                Style::Points,
                common::points(t, &rows, "p", "bits_per_key"),
            )),
        ]
    }

    fn section(&self, t: &Table) -> Section {
        let table = t.project(
            &[
                "n",
                "p",
                "bits_per_key",
                "m",
                "mb",
                "k",
                "fpr_theory",
                "fpr_measured",
                "fpr_measured_lo",
                "fpr_measured_hi",
                "extra_bits_per_decade",
            ],
            |_| true,
        );
        let decades: Vec<f64> = t
            .rows
            .iter()
            .filter_map(|r| t.f64(r, "extra_bits_per_decade"))
            .collect();
        let (lo, hi) = decades
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let (inside, total) = common::coverage(t, "fpr_measured", "fpr_theory");
        Section {
            table,
            reading: format!(
                "Each factor of ten in p costs {}–{} extra bits per key in the built filters (theory 1.44·log2(10) = {}); the theory FPR at the integer k lies inside the measured interval in {inside} of {total} rows.",
                sig(lo, 4),
                sig(hi, 4),
                sig(theory::bits_per_decade(), 4)
            ),
        }
    }
}
