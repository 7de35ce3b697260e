//! `double_hashing`: Kirsch–Mitzenmacher double hashing (two hash halves, k
//! probes), enhanced double hashing, and k independently seeded hashes, at
//! equal m and k. Each replicate is one filter with fresh keys; the summary's
//! t-interval over replicates covers the filter-to-filter variation.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::bloom::bloom_fpr::{check_bits, m_k};
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES, fill_and_query};
use crate::experiment::kinds::footprint::bloom_bytes;
use crate::experiment::params::{Def, HashSeed, KSetting, Seeds};
use crate::hashing::StrategyId;
use crate::hashing::double::Scheme;
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, IndependentBloom, theory};
use crate::workload::{KeyGen, KeyType};

pub struct DoubleHashing;

crate::closed_set! {
    /// How the k probes derive from the key.
    pub enum Probing {
        Double = "double",
        Enhanced = "enhanced",
        Independent = "independent",
    }
}

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Int(100_000), "keys inserted"),
        bits_per_key: f64 [bits_per_key] = common::positive(1e4, Def::Required, "m/n"),
        k: KSetting [count] = common::k_param(Def::Str("optimal"), "probes per key"),
        scheme: Probing = common::choice(
            Probing::NAMES,
            Def::Required,
            "double = (h1 + i*h2) mod m; enhanced = + (i^3 - i)/6 (Dillinger & Manolios); independent = k seeded hashes",
        ),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
        queries: u64 [count] = QUERIES,
    }
}

crate::row! {
    pub struct R, summary Rs {
        m: u64 [Same, bits],
        k_used: u32 [Same, count],
        hash_evaluations_per_query: u32 [Same, count],
        fill_measured: Proportion [fraction],
        fill_theory: f64 [Same, fraction],
        false_negatives: u64 [Max, count],
        fpr_measured: Proportion [fraction],
        /// (1 − e^(−kn/m))^k: independent probes.
        fpr_theory: f64 [Same, fraction],
        /// The same plus the repeated-probe excess of plain double hashing.
        fpr_theory_double: f64 [Same, fraction],
        /// The theory for this row's scheme: with the excess for plain double
        /// hashing, without it for enhanced and independent probes.
        fpr_theory_scheme: f64 [Same, fraction],
    }
}

impl Measure for DoubleHashing {
    type P = P;
    type R = R;
    const NAME: &'static str = "double_hashing";
    const ABOUT: &'static str =
        "Kirsch-Mitzenmacher and enhanced double hashing vs k independent hashes at equal m and k";

    const MIN_REPLICATES: u32 = 2;

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        check_bits(p.n, p.bits_per_key)
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (m, k) = m_k(p.n, p.bits_per_key, p.k);
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let fq = match p.scheme {
            Probing::Independent => fill_and_query(
                &mut IndependentBloom::new(m, k, &hasher)?,
                &mut keys,
                p.n,
                p.queries,
            )?,
            s @ (Probing::Double | Probing::Enhanced) => {
                let scheme = if s == Probing::Enhanced {
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
            hash_evaluations_per_query: if p.scheme == Probing::Independent {
                k
            } else {
                1
            },
            fill_measured: fq.fill,
            fill_theory: theory::expected_fill(nf, mf, kf),
            false_negatives: fq.false_negatives,
            fpr_measured: fq.fpr,
            fpr_theory: theory::fpr(nf, mf, kf),
            fpr_theory_double: theory::fpr_double_hashing(nf, m, k),
            fpr_theory_scheme: if p.scheme == Probing::Double {
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

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n + p.queries)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let (m, k) = crate::experiment::kinds::bloom::bloom_fpr::m_k(p.n, p.bits_per_key, p.k);
        let hashes = if p.scheme == Probing::Independent {
            k as f64
        } else {
            1.0
        };
        Some(Footprint::one(
            bloom_bytes(m as f64),
            (p.n + p.queries) as f64 * hashes,
        ))
    }
}
