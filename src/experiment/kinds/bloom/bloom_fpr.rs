//! `bloom_fpr`: false-positive rate of a Bloom filter across n, bits per key,
//! k and hash strategy, next to (1 − e^(−kn/m))^k.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::common::{
    self, FillQuery, HASH, HASH_SEED, KEYS, MAX_BITS, QUERIES, fill_and_query,
};
use crate::experiment::kinds::footprint::bloom_bytes;
use crate::experiment::kinds::{Study, Tables};
use crate::experiment::params::{Def, HashSeed, KSetting, Seeds};
use crate::export::markdown::{pct, sig};
use crate::hashing::StrategyId;
use crate::report::Section;
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::{KeyGen, KeyType};

pub struct BloomFpr;

crate::params! {
    pub struct P {
        n: u64 = common::count(Def::Required, "keys inserted"),
        bits_per_key: f64 = common::positive(1e4, Def::Required, "m/n; m = ceil(bits_per_key * n)"),
        k: KSetting = common::k_param(Def::Str("optimal"), "probes per key, or \"optimal\" = max(1, round(m/n ln 2))"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
        queries: u64 = QUERIES,
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same],
        k_used: u32 [Same],
        k_optimal: f64 [Same],
        bytes: usize [Same],
        fill_measured: Proportion,
        fill_theory: f64 [Same],
        members_checked: u64 [Sum],
        false_negatives: u64 [Max],
        fpr_measured: Proportion,
        fpr_theory: f64 [Same],
        fpr_theory_optimal_k: f64 [Same],
        /// The theory plus plain double hashing's repeated-probe excess.
        fpr_theory_double: f64 [Same],
        fpr_given_fill: f64,
    }
}

/// m and k for a trial.
pub fn m_k(n: u64, bits_per_key: f64, k: KSetting) -> (u64, u32) {
    let m = (bits_per_key * n as f64).ceil().max(1.0) as u64;
    let k = match k {
        KSetting::Fixed(k) => k,
        KSetting::Optimal => theory::optimal_k_int(m, n),
    };
    (m, k)
}

/// The cross-parameter check every m = bits_per_key·n kind shares.
pub fn check_bits(n: u64, bits_per_key: f64) -> Result<(), (&'static str, String)> {
    if bits_per_key * n as f64 > MAX_BITS {
        return Err((
            "bits_per_key",
            format!(
                "bits_per_key * n must be <= 2^40 bits (128 GiB; the hard cap for absurd sizes: `sketchlab plan` checks the machine); n = {n}"
            ),
        ));
    }
    Ok(())
}

impl Study for BloomFpr {
    type P = P;
    type R = R;
    const NAME: &'static str = "bloom_fpr";
    const CHARTS: &'static str = include_str!("bloom_fpr.charts.toml");
    const ABOUT: &'static str =
        "Bloom filter FPR vs n, bits per key, k and hash, with Wilson intervals, next to theory";

    const THEORY: &'static [(&'static str, &'static str)] = &[
        ("fpr_measured", "fpr_theory"),
        ("fill_measured", "fill_theory"),
    ];

    fn validate(&self, p: &P) -> Result<(), (&'static str, String)> {
        check_bits(p.n, p.bits_per_key)
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (m, k) = m_k(p.n, p.bits_per_key, p.k);
        let mut f = BloomFilter::new(m, k, p.hash_seed.hasher(p.hash, seeds))?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let fq: FillQuery = fill_and_query(&mut f, &mut keys, p.n, p.queries)?;
        let (nf, mf, kf) = (p.n as f64, m as f64, k as f64);
        let k_opt = theory::optimal_k(mf, nf);
        Ok(R {
            m,
            k_used: k,
            k_optimal: k_opt,
            bytes: f.bytes(),
            fill_measured: fq.fill,
            fill_theory: theory::expected_fill(nf, mf, kf),
            members_checked: fq.members_checked,
            false_negatives: fq.false_negatives,
            fpr_measured: fq.fpr,
            fpr_theory: theory::fpr(nf, mf, kf),
            fpr_theory_optimal_k: theory::fpr(nf, mf, k_opt),
            fpr_theory_double: theory::fpr_double_hashing(nf, m, k),
            fpr_given_fill: fq.fill.rate.powi(k as i32),
        })
    }

    fn draws(&self, p: &P, metric: &str) -> Option<f64> {
        // the FPR is over the trial's absent-key queries
        (metric == "fpr_measured").then_some(p.queries as f64)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let (m, _) = super::bloom_fpr::m_k(p.n, p.bits_per_key, p.k);
        Some(Footprint::one(
            bloom_bytes(m as f64),
            (p.n + p.queries) as f64,
        ))
    }

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
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
        let excess = small_filter_excess(t);
        Section {
            table,
            reading: format!(
                "{excess}Theory (1-e^(-kn/m))^k falls inside the measured 95% Wilson interval in {inside} of {total} trials ({}). The interval covers query sampling only, while each filter's own fill varies around its expectation; given each filter's measured fill ρ, ρ^k is inside in {inside_fill} of {total} ({}). False negatives across all trials: {fneg}.{at10}",
                pct(inside as f64 / total.max(1) as f64, 3),
                pct(inside_fill as f64 / total.max(1) as f64, 3)
            ),
        }
    }
}

/// The double-hashing loss at small filters: false positives pooled over the
/// smallest n's optimal-k rows at ≥ 20 bits per key, against the
/// independent-probe theory and the repeated-probe theory.
fn small_filter_excess(t: &crate::table::Table) -> String {
    let Some(&n) = common::levels(t, "n").first() else {
        return String::new();
    };
    let rows: Vec<_> = t
        .rows
        .iter()
        .filter(|r| {
            t.f64(r, "n") == Some(n)
                && t.str(r, "k") == "optimal"
                && t.f64(r, "bits_per_key").is_some_and(|b| b >= 20.0)
        })
        .collect();
    let (mut fp, mut expect, mut expect_double, mut var) = (0.0, 0.0, 0.0, 0.0);
    for r in &rows {
        let q = t.f64(r, "fpr_measured_n").unwrap_or(0.0);
        let th = t.f64(r, "fpr_theory").unwrap_or(f64::NAN);
        fp += t.f64(r, "fpr_measured_k").unwrap_or(0.0);
        expect += q * th;
        var += q * th * (1.0 - th);
        expect_double += q * t.f64(r, "fpr_theory_double").unwrap_or(f64::NAN);
    }
    if rows.is_empty() || expect <= 0.0 {
        return String::new();
    }
    format!(
        "At n = {} and 20–24 bits per key ({} trials pooled), {} false positives against {} expected from independent probes ({}σ) and {} from plain double hashing's repeated probes (when the step's order mod m is below k, fewer distinct bits are tested). ",
        sig(n, 3),
        rows.len(),
        fp,
        sig(expect, 4),
        sig((fp - expect) / var.sqrt(), 3),
        sig(expect_double, 4)
    )
}
