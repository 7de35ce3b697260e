//! `lsm_read_path`: the read path of an LSM tree with a Bloom filter per
//! sorted run. `runs` runs of equal size hold `n` keys between them, each key
//! in exactly one run; a lookup checks the runs newest first and stops at the
//! run that holds its key. Without filters every run checked costs a disk
//! read; with filters a run is read only when its filter (in memory) says
//! "maybe". Counted per lookup, next to the exact expectations:
//! absent keys R·p vs R reads, present keys 1 + p·(R − 1)/2 vs (R + 1)/2, and
//! the per-file hit rate (filter checks that land on the run holding the key)
//! h / (h·(R + 1)/2 + (1 − h)·R).

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::bloom::bloom_overfill::FRACTION;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes};
use crate::experiment::params::{Def, HashSeed, PType, ParamDef, Seeds};
use crate::hashing::StrategyId;
use crate::stats::{self, Estimate, Proportion};
use crate::structures::bloom::{BloomFilter, theory};
use crate::table::Interval;
use crate::workload::{KeyGen, KeyType};
use rand::RngExt;

pub struct LsmReadPath;

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Int(1_000_000), "keys in the tree, over all runs"),
        runs: u32 [count] = ParamDef::new("", PType::Int { min: 1, max: 1000 }, Def::Required, "sorted runs (SSTables) a lookup may check, equal in size"),
        p: f64 [fraction] = common::rate(Def::Float(0.01), "each run's filter's design false-positive rate"),
        hit_rate: f64 [fraction] = ParamDef::new("", FRACTION, Def::Required, "fraction of lookups for keys in the tree"),
        lookups: u64 [count] = common::count(Def::Int(1_000_000), "lookups simulated"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R {
        keys_per_run: u64 [Same, count],
        run_fpr_theory: f64 [Same, fraction],
        present_lookups: u64 [Sum, count],
        absent_lookups: u64 [Sum, count],
        false_negatives: u64 [Max, count],
        /// Disk reads per lookup of a key in the tree, with a filter per run.
        present_reads_with: Option<Estimate> [count],
        present_reads_with_theory: f64 [Same, count],
        /// The same lookups without filters: every run checked is read.
        present_reads_without: Option<Estimate> [count],
        present_reads_without_theory: f64 [Same, count],
        absent_reads_with: Option<Estimate> [count],
        absent_reads_with_theory: f64 [Same, count],
        absent_reads_without: Option<f64> [count],
        absent_reads_without_theory: f64 [Same, count],
        /// Over all lookups at this hit rate.
        reads_with: Interval [count],
        reads_without: Interval [count],
        reads_saved_factor: f64 [ratio],
        /// Filter checks that land on the run holding the key.
        file_hit_rate: Proportion [fraction],
        file_hit_rate_theory: f64 [Same, fraction],
    }
}

/// Mean of per-lookup counts from their sum and sum of squares, with its
/// normal intervals at 95% and 99.9% (thousands of lookups: the t and normal
/// quantiles agree).
fn mean_estimate(sum: f64, sum_sq: f64, count: u64) -> Option<Estimate> {
    if count == 0 {
        return None;
    }
    let c = count as f64;
    let mean = sum / c;
    let var = if count > 1 {
        ((sum_sq - c * mean * mean) / (c - 1.0)).max(0.0)
    } else {
        0.0
    };
    let se = (var / c).sqrt();
    let half = |level: f64| stats::z(level) * se;
    Some(Estimate {
        value: mean,
        lo: mean - half(stats::PLOT_CONFIDENCE),
        hi: mean + half(stats::PLOT_CONFIDENCE),
        lo999: mean - half(stats::VERDICT_CONFIDENCE),
        hi999: mean + half(stats::VERDICT_CONFIDENCE),
    })
}

/// Per-lookup read counts, summed: (sum, sum of squares, lookups).
#[derive(Default)]
struct Tally(f64, f64, u64);

impl Tally {
    fn add(&mut self, x: u32) {
        let x = x as f64;
        self.0 += x;
        self.1 += x * x;
        self.2 += 1;
    }
    fn estimate(&self) -> Option<Estimate> {
        mean_estimate(self.0, self.1, self.2)
    }
    fn interval(&self) -> Option<Interval> {
        self.estimate().map(|e| e.interval())
    }
    fn plus(&self, o: &Tally) -> Tally {
        Tally(self.0 + o.0, self.1 + o.1, self.2 + o.2)
    }
}

impl Measure for LsmReadPath {
    type P = P;
    type R = R;
    const NAME: &'static str = "lsm_read_path";
    const ABOUT: &'static str = "disk reads per lookup over sorted runs with and without a Bloom filter per run, and the per-file hit rate";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if p.n < p.runs as u64 {
            return Err(crate::error::Error::invalid(
                "n",
                "must be >= runs (every run holds a key)",
            ));
        }
        if p.n > 100_000_000 {
            return Err(crate::error::Error::invalid("n", "must be <= 100000000"));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let runs = p.runs as u64;
        let per_run = p.n / runs;
        let n = per_run * runs; // equal runs: the remainder is dropped
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let mut filters = (0..runs)
            .map(|_| BloomFilter::with_rate(per_run, p.p, p.hash_seed.hasher(p.hash, seeds)))
            .collect::<Result<Vec<_>, _>>()?;
        // key id lives in run id % runs; run 0 is the newest, checked first
        for id in 0..n {
            filters[(id % runs) as usize].insert(keys.key(id));
        }
        let mut rng = seeds.rng("lookups");
        let (mut present_with, mut present_without) = (Tally::default(), Tally::default());
        let (mut absent_with, mut absent_without) = (Tally::default(), Tally::default());
        let (mut probes, mut probe_hits, mut fneg) = (0u64, 0u64, 0u64);
        let mut next_absent = n;
        for _ in 0..p.lookups {
            let id = if rng.random_bool(p.hit_rate) {
                rng.random_range(0..n)
            } else {
                next_absent += 1;
                next_absent - 1
            };
            let home = (id < n).then_some(id % runs);
            let key = keys.key(id);
            let (mut with, mut without) = (0u32, 0u32);
            for (r, f) in filters.iter().enumerate() {
                let here = home == Some(r as u64);
                probes += 1;
                probe_hits += here as u64;
                without += 1;
                if f.contains(key) {
                    with += 1;
                } else if here {
                    fneg += 1;
                }
                if here {
                    break;
                }
            }
            if home.is_some() {
                present_with.add(with);
                present_without.add(without);
            } else {
                absent_with.add(with);
                absent_without.add(without);
            }
        }
        let f0 = &filters[0];
        let q = theory::fpr(per_run as f64, f0.m() as f64, f0.k() as f64);
        let rf = runs as f64;
        let h = p.hit_rate;
        let all_with = present_with.plus(&absent_with);
        let all_without = present_without.plus(&absent_without);
        let (with_i, without_i) = (
            all_with.interval().expect("lookups >= 1"),
            all_without.interval().expect("lookups >= 1"),
        );
        Ok(R {
            keys_per_run: per_run,
            run_fpr_theory: q,
            present_lookups: present_with.2,
            absent_lookups: absent_with.2,
            false_negatives: fneg,
            present_reads_with: present_with.estimate(),
            present_reads_with_theory: 1.0 + q * (rf - 1.0) / 2.0,
            present_reads_without: present_without.estimate(),
            present_reads_without_theory: (rf + 1.0) / 2.0,
            absent_reads_with: absent_with.estimate(),
            absent_reads_with_theory: rf * q,
            absent_reads_without: absent_without.interval().map(|i| i.value),
            absent_reads_without_theory: rf,
            reads_saved_factor: without_i.value / with_i.value,
            reads_with: with_i,
            reads_without: without_i,
            file_hit_rate: Proportion::new(probe_hits, probes),
            file_hit_rate_theory: h / (h * (rf + 1.0) / 2.0 + (1.0 - h) * rf),
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        // members, then at most one fresh absent key per lookup
        Some(p.n + p.lookups)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let bytes = bloom_bytes(bloom_bits(p.n / p.runs as u64, p.p)) * p.runs as f64;
        Some(Footprint::one(
            bytes,
            p.n as f64 + p.lookups as f64 * (p.runs as f64 + 1.0) / 2.0,
        ))
    }
}
