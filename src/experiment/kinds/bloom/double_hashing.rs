//! `double_hashing`: Kirsch–Mitzenmacher double hashing (two hash halves, k
//! probes), enhanced double hashing, and k independently seeded hashes, at
//! equal m and k. Each replicate is one filter with fresh keys; the summary's
//! t-interval over replicates covers the filter-to-filter variation.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::bloom::bloom_fpr::{check_bits, m_k};
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES, fill_and_query};
use crate::experiment::kinds::footprint::bloom_bytes;
use crate::experiment::kinds::{Study, Tables};
use crate::experiment::params::{Def, HashSeed, KSetting, Seeds};
use crate::export::markdown::{pct, sig};
use crate::hashing::StrategyId;
use crate::hashing::double::Scheme;
use crate::report::Section;
use crate::stats::{self, Proportion};
use crate::structures::bloom::{BloomFilter, IndependentBloom, theory};
use crate::table::{Table, Value};
use crate::workload::{KeyGen, KeyType};

pub struct DoubleHashing;

crate::params! {
    pub struct P {
        n: u64 = common::count(Def::Int(100_000), "keys inserted"),
        bits_per_key: f64 = common::positive(1e4, Def::Required, "m/n"),
        k: KSetting = common::k_param(Def::Str("optimal"), "probes per key"),
        scheme: String = common::choice(
            &["double", "enhanced", "independent"],
            Def::Required,
            "double = (h1 + i*h2) mod m; enhanced = + (i^3 - i)/6 (Dillinger & Manolios); independent = k seeded hashes",
        ),
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
        hash_evaluations_per_query: u32 [Same],
        fill_measured: Proportion,
        fill_theory: f64 [Same],
        false_negatives: u64 [Max],
        fpr_measured: Proportion,
        /// (1 − e^(−kn/m))^k: independent probes.
        fpr_theory: f64 [Same],
        /// The same plus the repeated-probe excess of plain double hashing.
        fpr_theory_double: f64 [Same],
        /// The theory for this row's scheme: with the excess for plain double
        /// hashing, without it for enhanced and independent probes.
        fpr_theory_scheme: f64 [Same],
    }
}

impl Study for DoubleHashing {
    type P = P;
    type R = R;
    const NAME: &'static str = "double_hashing";
    const CHARTS: &'static str = include_str!("double_hashing.charts.toml");
    const ABOUT: &'static str =
        "Kirsch-Mitzenmacher and enhanced double hashing vs k independent hashes at equal m and k";

    const MIN_REPLICATES: u32 = 2;
    const THEORY: &'static [(&'static str, &'static str)] =
        &[("fpr_measured", "fpr_theory_scheme")];

    fn validate(&self, p: &P) -> Result<(), (&'static str, String)> {
        check_bits(p.n, p.bits_per_key)
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (m, k) = m_k(p.n, p.bits_per_key, p.k);
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let fq = match p.scheme.as_str() {
            "independent" => fill_and_query(
                &mut IndependentBloom::new(m, k, &hasher)?,
                &mut keys,
                p.n,
                p.queries,
            )?,
            s => {
                let scheme = if s == "enhanced" {
                    Scheme::Enhanced
                } else {
                    Scheme::KirschMitzenmacher
                };
                let mut f = BloomFilter::new(m, k, hasher)?.with_scheme(scheme);
                fill_and_query(&mut f, &mut keys, p.n, p.queries)?
            }
        };
        let (nf, mf, kf) = (p.n as f64, m as f64, k as f64);
        Ok(R {
            m,
            k_used: k,
            hash_evaluations_per_query: if p.scheme == "independent" { k } else { 1 },
            fill_measured: fq.fill,
            fill_theory: theory::expected_fill(nf, mf, kf),
            false_negatives: fq.false_negatives,
            fpr_measured: fq.fpr,
            fpr_theory: theory::fpr(nf, mf, kf),
            fpr_theory_double: theory::fpr_double_hashing(nf, m, k),
            fpr_theory_scheme: if p.scheme == "double" {
                theory::fpr_double_hashing(nf, m, k)
            } else {
                theory::fpr(nf, mf, kf)
            },
        })
    }

    fn draws(&self, p: &P, metric: &str) -> Option<f64> {
        // the FPR is over the trial's absent-key queries
        (metric == "fpr_measured").then_some(p.queries as f64)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let (m, k) = crate::experiment::kinds::bloom::bloom_fpr::m_k(p.n, p.bits_per_key, p.k);
        let hashes = if p.scheme == "independent" {
            k as f64
        } else {
            1.0
        };
        Some(Footprint::one(
            bloom_bytes(m as f64),
            (p.n + p.queries) as f64 * hashes,
        ))
    }

    fn section(&self, t: &Tables) -> Section {
        let t = t.summary();
        let table = t.project(
            &[
                "n",
                "bits_per_key",
                "k_used",
                "scheme",
                "hash",
                "replicates",
                "fpr_theory",
                "fpr_theory_double",
                "fpr_measured",
                "fpr_measured_lo",
                "fpr_measured_hi",
            ],
            |_| true,
        );
        Section {
            table,
            reading: reading(t),
        }
    }
}

/// Pairs each double/enhanced row with its independent twin: the ratio's
/// interval, and whether the excess theory explains the measured loss.
fn reading(t: &Table) -> String {
    let same = |a: &[Value], b: &[Value]| {
        ["n", "bits_per_key", "k", "hash", "keys"]
            .iter()
            .all(|c| t.cell(a, c) == t.cell(b, c))
    };
    let mut out = Vec::new();
    for scheme in ["double", "enhanced"] {
        let (mut pairs, mut within, mut worst) = (0, 0, (1.0f64, String::new()));
        for r in t.where_str("scheme", scheme) {
            let Some(o) = t.where_str("scheme", "independent").find(|o| same(r, o)) else {
                continue;
            };
            let (Some(a), Some(b)) = (t.interval(r, "fpr_measured"), t.interval(o, "fpr_measured"))
            else {
                continue;
            };
            if !(a.value > 0.0 && b.value > 0.0) {
                continue;
            }
            pairs += 1;
            let ratio = stats::ratio_interval(a, b, stats::PLOT_CONFIDENCE);
            if ratio.contains(1.0) {
                within += 1;
            }
            if ratio.lo > worst.0 {
                worst = (
                    ratio.lo,
                    format!(
                        "{}× [{}, {}] at n = {}, {} bits/key (theory of the excess: {}×)",
                        sig(ratio.value, 3),
                        sig(ratio.lo, 3),
                        sig(ratio.hi, 3),
                        t.str(r, "n"),
                        t.str(r, "bits_per_key"),
                        sig(
                            t.f64(r, "fpr_theory_double").unwrap_or(f64::NAN)
                                / t.f64(r, "fpr_theory").unwrap_or(f64::NAN),
                            3
                        )
                    ),
                );
            }
        }
        if pairs > 0 {
            out.push(format!(
                "{scheme} / independent: the ratio's 95% interval contains 1 in {within} of {pairs} settings{}",
                if worst.1.is_empty() {
                    String::new()
                } else {
                    format!("; the clearest loss is {}", worst.1)
                }
            ));
        }
    }
    let misses: Vec<String> = t
        .rows
        .iter()
        .filter(|r| t.str(r, "scheme") == "independent")
        .filter_map(|r| {
            let i = t.interval(r, "fpr_measured")?;
            let th = t.f64(r, "fpr_theory")?;
            (!i.contains(th)).then(|| {
                format!(
                    "n = {}, {} bits/key: {} vs theory {}",
                    t.str(r, "n"),
                    t.str(r, "bits_per_key"),
                    pct(i.value, 3),
                    pct(th, 3)
                )
            })
        })
        .collect();
    out.push(if misses.is_empty() {
        "independent hashes match (1 - e^(-kn/m))^k within every interval".into()
    } else {
        format!(
            "independent hashes miss the theory's interval at {}",
            misses.join("; ")
        )
    });
    format!("{}.", out.join(". "))
}
