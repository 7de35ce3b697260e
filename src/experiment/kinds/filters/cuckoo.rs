//! `cuckoo`: cuckoo filters (doc 000 §14.4), one `test` per spec:
//!
//! * `load`: insert until the first failure; the load factor reached;
//! * `fpr`: fill to a load, measure the FPR against 1 − (1 − 2^−f)^(2bα) and
//!   the bits per item against a Bloom filter at the same measured FPR;
//! * `bogus_deletes`: delete keys never inserted, count members that vanish;
//! * `deletes`: delete a fraction of the members, count the deletes that
//!   found nothing, the members kept that vanish, and the deleted keys still
//!   reported present (against the FPR at the load left).
//!
//! Every row also counts what a query reads: two buckets, and the 64-byte
//! lines they span in a packed table; `fpr` rows beside them the lines a
//! standard Bloom filter at the same measured FPR reads for the same keys
//! (k probes for a member, up to the first zero bit for an absent key).

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::stats::{self, Proportion};
use crate::structures::bloom::BloomFilter;
use crate::structures::bloom::theory as bloom_theory;
use crate::structures::cuckoo::{CuckooFilter, theory};
use crate::workload::{KeyGen, KeyType};

pub struct CuckooStudy;

crate::closed_set! {
    /// The values of `test`.
    pub enum Test {
        Load = "load",
        Fpr = "fpr",
        BogusDeletes = "bogus_deletes",
        Deletes = "deletes",
    }
}

crate::params! {
    pub struct P {
        test: Test = common::choice(Test::NAMES, Def::Required, "what to measure (see the kind's doc)"),
        buckets_log2: u32 [bits] = common::int(1, 30, Def::Int(16), "log2 of the number of buckets"),
        bucket_size: usize [count] = common::int(1, 64, Def::Int(4), "slots per bucket (b)"),
        fingerprint_bits: u32 [bits] = common::int(4, 32, Def::Int(12), "bits per fingerprint (f)"),
        load: f64 [fraction] = common::rate(Def::Float(0.95), "fpr, bogus_deletes: fill to this fraction of the slots (or the first failure)"),
        max_kicks: u32 [count] = common::int(0, 100_000, Def::Int(500), "evictions before an insert gives up"),
        bogus_deletes: u64 [count] = common::int(0, 1_000_000_000, Def::Int(0), "bogus_deletes: never-inserted keys deleted"),
        delete_fraction: f64 [fraction] = common::rate(Def::Float(0.5), "deletes: the fraction of the members deleted"),
        queries: u64 [count] = QUERIES,
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R, summary Rs {
        capacity: u64 [Same, count],
        items: u64 [count],
        load_factor: f64 [fraction],
        /// The load at which the first insert failed (test `load`).
        first_failure_load: Option<f64> [fraction],
        kicks_per_insert: f64 [count],
        fpr_measured: Option<Proportion> [fraction],
        /// 1 − (1 − 1/(2^f − 1))^(2bα) at the load reached.
        fpr_theory: f64 [fraction],
        /// The same at α = 1 (≈ 2b/2^f).
        fpr_bound: f64 [Same, fraction],
        bits_per_item: f64 [bits_per_key],
        /// (log2(1/ε) + log2(2b))/α at the measured ε and load (the paper's formula).
        bits_per_item_formula: Option<f64> [bits_per_key],
        /// A space-optimal Bloom filter at the same measured FPR: log2(1/ε)/ln 2.
        bloom_bits_same_fpr: Option<f64> [bits_per_key],
        /// Cuckoo bits per item / Bloom bits per item at the same FPR.
        space_ratio: Option<f64> [ratio],
        /// The ε below which cuckoo beats Bloom by the formulas at the nominal `load`:
        /// without and with semi-sorted buckets (log2 2b resp. log2 2b − 1 extra bits).
        crossover_fpr: f64 [Same, fraction],
        crossover_fpr_semisorted: f64 [Same, fraction],
        fingerprint_bits_for_1pct: u32 [Same, bits],
        buckets_per_query: u32 [Same, count],
        cache_lines_per_query: crate::stats::Estimate [count],
        /// `fpr`: per key, the lines a Bloom filter at the same measured FPR
        /// (sized by the chapter's formulas, same n) reads ÷ the lines this
        /// filter reads, mean over 20,000 members and over 20,000 absent keys.
        bloom_over_cuckoo_lines_member: Option<crate::stats::Estimate> [ratio],
        bloom_over_cuckoo_lines_absent: Option<crate::stats::Estimate> [ratio],
        /// `fpr`: that Bloom filter's k and its mean lines per member query.
        bloom_k_same_fpr: Option<u32> [count],
        bloom_lines_member: Option<f64> [count],
        /// Members denied after the deletes (`bogus_deletes`: of all;
        /// `deletes`: of those kept).
        lost_members: Option<Proportion> [fraction],
        false_negatives: u64 [Max, count],
        /// `deletes`: members deleted, and deletes that found no fingerprint.
        deleted: Option<u64> [count],
        delete_failures: Option<u64> [count],
        /// `deletes`: deleted keys the filter still calls present.
        deleted_still_present: Option<Proportion> [fraction],
        /// The FPR at the load left after the deletes.
        deleted_still_present_theory: Option<f64> [fraction],
    }
}

impl Measure for CuckooStudy {
    type P = P;
    type R = R;
    const NAME: &'static str = "cuckoo";
    const ABOUT: &'static str = "cuckoo filters: load at the first failed insert, FPR vs 2b/2^f, space vs Bloom, bogus deletes, cache lines per query";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let bloom_hasher = hasher.clone();
        let (b, f) = (p.bucket_size, p.fingerprint_bits);
        let mut c = CuckooFilter::new(
            1 << p.buckets_log2,
            b,
            f,
            p.max_kicks,
            seeds.derive("kicks"),
            hasher,
        )?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let target = if p.test == Test::Load {
            c.capacity()
        } else {
            (c.capacity() as f64 * p.load).round() as u64
        };
        let mut n = 0u64;
        let mut failed_at = None;
        while n < target {
            if c.insert(keys.key(n)).is_err() {
                failed_at = Some(c.load_factor());
                break;
            }
            n += 1;
        }
        // the last successful insert may sit in the victim slot: n items held
        let false_negatives = (0..n).filter(|&id| !c.contains(keys.key(id))).count() as u64;
        let alpha = c.load_factor();
        let lines: Vec<f64> = (n..n + 20_000)
            .map(|id| c.cache_lines(keys.key(id)) as f64)
            .collect();
        let extra = (2.0 * b as f64).log2();
        let mut r = R {
            capacity: c.capacity(),
            items: c.items(),
            load_factor: alpha,
            first_failure_load: if p.test == Test::Load {
                failed_at
            } else {
                None
            },
            kicks_per_insert: c.kicks() as f64 / n.max(1) as f64,
            fpr_theory: theory::fpr(f, b, alpha),
            fpr_bound: theory::fpr(f, b, 1.0),
            bits_per_item: c.table_bits() as f64 / c.items().max(1) as f64,
            // at the nominal load (the design point), not the one a table reached
            crossover_fpr: theory::crossover_epsilon(extra, p.load),
            crossover_fpr_semisorted: theory::crossover_epsilon(extra - 1.0, p.load),
            fingerprint_bits_for_1pct: theory::fingerprint_bits(0.01, b),
            buckets_per_query: 2,
            cache_lines_per_query: stats::Estimate::mean(&lines),
            false_negatives,
            ..R::default()
        };
        match p.test {
            Test::Fpr => {
                let fp = (n..n + p.queries)
                    .filter(|&id| c.contains(keys.key(id)))
                    .count() as u64;
                let prop = Proportion::new(fp, p.queries);
                r.fpr_measured = Some(prop);
                if fp > 0 {
                    let bloom = bloom_theory::bits_per_element(prop.rate);
                    r.bits_per_item_formula =
                        Some(theory::bits_per_item_formula(prop.rate, extra, alpha));
                    r.bloom_bits_same_fpr = Some(bloom);
                    r.space_ratio = Some(r.bits_per_item / bloom);
                    // the same keys through a Bloom filter at that FPR
                    let mut bf = BloomFilter::with_rate(n.max(1), prop.rate, bloom_hasher)?;
                    for id in 0..n {
                        bf.insert(keys.key(id));
                    }
                    // per key: (Bloom lines, cuckoo lines), each read once
                    let mut lines = |ids: std::ops::Range<u64>| -> Vec<(f64, f64)> {
                        ids.map(|id| {
                            let k = keys.key(id);
                            (bf.lines_read(k) as f64, c.cache_lines(k) as f64)
                        })
                        .collect()
                    };
                    let members = lines(0..n.min(20_000));
                    let absent = lines(n..n + 20_000);
                    let ratio =
                        |v: &[(f64, f64)]| -> Vec<f64> { v.iter().map(|(b, c)| b / c).collect() };
                    r.bloom_over_cuckoo_lines_member =
                        Some(stats::Estimate::mean(&ratio(&members)));
                    r.bloom_over_cuckoo_lines_absent = Some(stats::Estimate::mean(&ratio(&absent)));
                    r.bloom_k_same_fpr = Some(bf.k());
                    r.bloom_lines_member = Some(
                        members.iter().map(|m| m.0).sum::<f64>() / members.len().max(1) as f64,
                    );
                }
            }
            Test::BogusDeletes => {
                for j in 0..p.bogus_deletes {
                    // a bogus delete succeeds when its fingerprint matches a resident
                    let _ = c.remove(keys.key(n + p.queries + j));
                }
                let lost = (0..n).filter(|&id| !c.contains(keys.key(id))).count() as u64;
                r.lost_members = Some(Proportion::new(lost, n));
            }
            Test::Deletes => {
                let d = (n as f64 * p.delete_fraction).round() as u64;
                let failures = (0..d).filter(|&id| c.remove(keys.key(id)).is_err()).count();
                let lost = (d..n).filter(|&id| !c.contains(keys.key(id))).count() as u64;
                let still = (0..d).filter(|&id| c.contains(keys.key(id))).count() as u64;
                r.items = c.items();
                r.deleted = Some(d);
                r.delete_failures = Some(failures as u64);
                r.lost_members = Some(Proportion::new(lost, n - d));
                r.deleted_still_present = Some(Proportion::new(still, d));
                r.deleted_still_present_theory = Some(theory::fpr(f, b, c.load_factor()));
            }
            _ => {}
        }
        Ok(r)
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        // fills up to the table's capacity, then 20,000 cache-line probes, the
        // FPR queries and bogus deletes on ids past the members
        let capacity = (1u64 << p.buckets_log2) * p.bucket_size as u64;
        Some(capacity + (p.queries + p.bogus_deletes).max(20_000))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let slots = (1u64 << p.buckets_log2) as f64 * p.bucket_size as f64;
        Some(Footprint::one(
            slots * 4.0,
            slots + p.queries as f64 + p.bogus_deletes as f64,
        ))
    }
}
