//! `bloom_twins`: a Bloom filter on MurmurHash3_x64_128 with a seed the
//! attacker never sees. Every member of at least 32 bytes has a twin (the
//! seed-independent differential of `attack::murmur`) with the same 128-bit
//! hash under every seed, hence the same k probes: querying the twins of
//! members gives false positives at 100%, whatever the seed. The same twins
//! against a keyed hash (SipHash-1-3) are just other keys: the design rate.

use crate::attack::murmur::Target;
use crate::experiment::kinds::common::{self, HASH_SEED};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes};
use crate::experiment::kinds::{Footprint, Study, Tables};
use crate::experiment::params::{Def, HashSeed, PType, ParamDef, Seeds};
use crate::export::markdown::pct;
use crate::hashing::StrategyId;
use crate::plot::{Chart, Point, Series, Style};
use crate::report::Section;
use crate::report::SeedRow;
use crate::stats::Proportion;
use crate::structures::bloom::BloomFilter;
use crate::workload::{KeyGen, KeyType};

pub struct BloomTwins;

/// Twins written to keys.txt per trial.
const KEYS_WRITTEN: u64 = 200;

crate::params! {
    pub struct P {
        n: u64 = common::count(Def::Int(100_000), "members inserted (and twins queried)"),
        p: f64 = common::rate(Def::Float(0.01), "the filter's design false-positive rate"),
        hash: StrategyId = ParamDef::new("", PType::Hash, Def::Str("murmur3_x64_128"), "the filter's hash"),
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = ParamDef::new("", PType::Keys, Def::Str("url100"), "member keys (at least 32 bytes: url100 or blob2k)"),
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same],
        k: u32 [Same],
        twins_queried: u64 [Same],
        /// Twins of members (never inserted) that test positive.
        fpr_twins: Proportion,
        /// Fresh random non-members that test positive.
        fpr_honest: Proportion,
        fpr_design: f64 [Same],
    }
}

fn twin(keys: &mut KeyGen, id: u64) -> Vec<u8> {
    Target::Murmur3x64_128.twin(keys.key(id))
}

impl Study for BloomTwins {
    type P = P;
    type R = R;
    const NAME: &'static str = "bloom_twins";
    const ABOUT: &'static str = "Bloom filter queried with seed-independent MurmurHash3 twins of its members, vs a keyed hash";

    fn validate(&self, p: &P) -> Result<(), (&'static str, String)> {
        if p.keys.key_len().is_none_or(|l| l < 32) {
            return Err((
                "keys",
                "must be at least 32 bytes long: url100 or blob2k".into(),
            ));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let mut f = BloomFilter::with_rate(p.n, p.p, p.hash_seed.hasher(p.hash, seeds))?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        for id in 0..p.n {
            f.insert(keys.key(id));
        }
        let twins = (0..p.n)
            .filter(|&id| f.contains(&twin(&mut keys, id)))
            .count() as u64;
        // honest non-members: ids beyond the members
        let honest = (p.n..2 * p.n)
            .filter(|&id| f.contains(keys.key(id)))
            .count() as u64;
        Ok(R {
            m: f.m(),
            k: f.k(),
            twins_queried: p.n,
            fpr_twins: Proportion::new(twins, p.n),
            fpr_honest: Proportion::new(honest, p.n),
            fpr_design: p.p,
        })
    }

    fn keys(&self, p: &P, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        Ok(Some(
            (0..p.n.min(KEYS_WRITTEN))
                .map(|id| twin(&mut keys, id))
                .collect(),
        ))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        Some(Footprint::one(
            bloom_bytes(bloom_bits(p.n, p.p)),
            3.0 * p.n as f64,
        ))
    }

    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let t = &t.results;
        let mut c = Chart::new(
            "fpr_under_attack",
            "False-positive rate: twins of members vs honest non-members, by hash",
            "hash (0 = first in the spec)",
            "false-positive rate",
        )
        .log_y();
        let hashes = common::names(t, "hash");
        for (metric, label) in [
            ("fpr_twins", "twins of members"),
            ("fpr_honest", "honest non-members"),
        ] {
            let pts: Vec<Point> = hashes
                .iter()
                .enumerate()
                .flat_map(|(i, h)| {
                    let rows: Vec<_> = t.where_str("hash", h).collect();
                    common::points(t, &rows, "n", metric)
                        .into_iter()
                        .map(move |p| Point { x: i as f64, ..p })
                })
                .collect();
            c = c.series(Series::new(label, Style::Points, pts));
        }
        vec![c]
    }

    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let t = &t.results;
        let v = |h: &str, s: &str, m: &str| super::value(t, &[("hash", h), ("hash_seed", s)], m);
        let p = |x: f64| crate::export::markdown::pct(x, 3);
        vec![SeedRow {
            structure: "Bloom filter".into(),
            attack: "twins of members (seed-independent murmur3_x64_128 differential)".into(),
            designed: super::cell(t.rows.first().and_then(|r| t.f64(r, "p")), |x| {
                format!("{} FPR", crate::export::markdown::pct(x, 2))
            }),
            constant_seed: "same as random: the twins work for every seed".into(),
            random_seed: super::cell(v("murmur3_x64_128", "trial", "fpr_twins"), |x| {
                format!("{} of twins positive (murmur3_x64_128, unseen seed)", p(x))
            }),
            keyed: super::cell(v("sip13", "trial", "fpr_twins"), p),
        }]
    }

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "hash",
                "hash_seed",
                "n",
                "p",
                "m",
                "k",
                "fpr_twins",
                "fpr_twins_lo",
                "fpr_twins_hi",
                "fpr_honest",
                "fpr_design",
            ],
            |_| true,
        );
        let reading = t
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} (seed {}): twins {}, honest {}",
                    t.str(r, "hash"),
                    t.str(r, "hash_seed"),
                    pct(t.f64(r, "fpr_twins").unwrap_or(f64::NAN), 3),
                    pct(t.f64(r, "fpr_honest").unwrap_or(f64::NAN), 3)
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        Section {
            table,
            reading: format!(
                "False-positive rates of twins of members vs honest non-members, designed {}: {reading}. A seed the attacker never saw does not help a hash with a seed-independent differential; a keyed PRF does.",
                pct(
                    t.rows
                        .first()
                        .and_then(|r| t.f64(r, "fpr_design"))
                        .unwrap_or(f64::NAN),
                    2
                )
            ),
        }
    }
}
