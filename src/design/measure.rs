//! Advice measured at the user's size: `design filter` configures every
//! menu structure for the user's n and ε as its implementation would
//! ([`Filter::configure`]), builds it, fills it with n distinct keys,
//! measures its false-positive rate with enough absent queries to decide it
//! against ε (Clopper–Pearson), times absent and present queries, and only
//! then ranks. A candidate whose measured rate lies above ε beyond the
//! ledger's materiality margin for a rate is resized ([`Config::larger`])
//! and measured again; nothing is excluded for sitting within its interval
//! of the target. A build that does not fit the machine (a quarter of its
//! memory, a time budget) is measured as a scaled instance with the same
//! load and fingerprint, and says so.

use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::report::margin::Quantity;
use crate::stats;
use crate::structures::Membership;
use crate::structures::menu::{Config, Filter, Shape};
use crate::workload::file::KeyFile;
use crate::workload::{KeyGen, KeyType};
use serde::Serialize;
use std::time::Instant;

/// The level of the FPR interval a candidate is judged by.
pub const CONFIDENCE: f64 = 0.95;
/// False positives expected at ε in the absent queries: 400 puts the
/// interval's half-width near 10% of ε, the materiality margin of a rate.
const EXPECTED_FALSE_POSITIVES: f64 = 400.0;
/// At least this many absent queries (a rate of 10% needs fewer), at most this many.
const MIN_QUERIES: u64 = 100_000;
const MAX_QUERIES: u64 = 40_000_000;
/// Member queries timed (and checked for false negatives): all n up to this.
const MAX_PRESENT: u64 = 10_000_000;
/// A pessimistic cost of one insert or query of a large filter, for the
/// time budget (a DRAM-bound query here: 130–200 ns).
const NS_PER_OP: f64 = 250.0;
/// Bytes a static filter's construction holds per key besides its table:
/// our 64-bit hashes and `xorf`'s peeling arrays (about 31 per key), or
/// `pleat`'s pleated copy and its 128-bit coefficient and 32-bit result
/// rows (about 38 per key at 1.045 slots a key).
const STATIC_BUILD_BYTES_PER_KEY: f64 = 40.0;
/// Resizing steps tried before a candidate is left out.
const MAX_RESIZES: usize = 3;
/// Timed chunks per loop (the median is reported).
const CHUNKS: u64 = 7;

/// What one measurement may use.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Budget {
    /// Bytes one candidate's build may hold: a quarter of the machine's memory.
    pub memory_bytes: u64,
    /// Seconds one candidate's build and queries should take (estimated
    /// before it runs at [`NS_PER_OP`] per operation).
    pub seconds: f64,
}

impl Budget {
    /// A quarter of this machine's memory (`MemTotal` or the cgroup limit,
    /// 16 GiB assumed when unknown) and `seconds` per candidate.
    pub fn machine(seconds: f64) -> Budget {
        let total = crate::metrics::process::total_bytes().unwrap_or(16 << 30);
        Budget {
            memory_bytes: total / 4,
            seconds,
        }
    }
}

/// One candidate, configured and measured.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    pub structure: String,
    /// The configuration at the user's n (after any resizing).
    pub configured: Config,
    /// The configurations tried before it, each with why it was resized.
    pub resized: Vec<String>,
    /// The instance measured: the configuration itself, or a scaled one.
    pub measured_config: String,
    /// Keys in the measured instance (the user's n unless scaled).
    pub n_measured: u64,
    /// Why the instance is scaled ("" when it is the user's size).
    pub scaled: String,
    pub absent_queries: u64,
    pub false_positives: u64,
    /// The measured FPR with its Clopper–Pearson interval at [`CONFIDENCE`].
    pub fpr: f64,
    pub fpr_lo: f64,
    pub fpr_hi: f64,
    /// Members that answered absent (must be 0).
    pub false_negatives: u64,
    /// Members queried (all n up to 10^7).
    pub present_queries: u64,
    /// Median ns per absent and per present query over the timed chunks.
    pub absent_ns: f64,
    pub present_ns: f64,
    /// Seconds to configure, build and fill the measured instance.
    pub build_seconds: f64,
}

/// Why a candidate has no measurement.
#[derive(Clone, Debug, Serialize)]
pub struct Left {
    pub structure: String,
    pub why: String,
}

/// Absent queries for a rate `eps`: 400 false positives expected.
pub fn queries_for(eps: f64) -> u64 {
    ((EXPECTED_FALSE_POSITIVES / eps).ceil() as u64).clamp(MIN_QUERIES, MAX_QUERIES)
}

/// The estimated ns of one insert or query of `c`: [`NS_PER_OP`], times
/// k/8 for a bit or counter array (its probes are not cut short).
fn ns_per_op(c: &Config) -> f64 {
    let probes = match c.shape {
        Shape::Bits { k, .. } | Shape::Counters { k, .. } => k as f64 / 8.0,
        _ => 1.0,
    };
    NS_PER_OP * probes.max(1.0)
}

/// Absent queries for `c` at `eps` within half the time budget (at least
/// [`MIN_QUERIES`] unless fewer decide ε).
pub(super) fn queries_within(c: &Config, eps: f64, budget: Budget) -> u64 {
    let affordable = (budget.seconds / 2.0 / (ns_per_op(c) * 1e-9)) as u64;
    queries_for(eps).min(affordable.max(MIN_QUERIES))
}

/// The shift at which `c` fits `budget` (0: the user's size).
pub(super) fn fitting_shift(c: &Config, queries: u64, budget: Budget) -> u32 {
    let fits = |s: u32| {
        let c = c.scaled(s);
        let n = c.n as f64;
        let held = c.bytes as f64
            + if c.filter.is_static() {
                STATIC_BUILD_BYTES_PER_KEY * n
            } else {
                0.0
            };
        let ops = n + n.min(MAX_PRESENT as f64) + queries as f64;
        held <= budget.memory_bytes as f64 && ops * ns_per_op(&c) * 1e-9 <= budget.seconds
    };
    (0..40)
        .find(|&s| fits(s) || (c.n >> s) <= 1000)
        .unwrap_or(40)
}

/// The median of per-chunk ns per operation of `ops` operations, each chunk
/// running `f(range)` (which returns a count that is summed).
fn timed_chunks(
    ops: std::ops::Range<u64>,
    mut f: impl FnMut(std::ops::Range<u64>) -> u64,
) -> (f64, u64) {
    let len = ops.end - ops.start;
    let chunk = len.div_ceil(CHUNKS).max(1);
    let (mut ns, mut total) = (Vec::new(), 0);
    let mut at = ops.start;
    while at < ops.end {
        let end = (at + chunk).min(ops.end);
        let t = Instant::now();
        total += f(at..end);
        ns.push(t.elapsed().as_nanos() as f64 / (end - at) as f64);
        at = end;
    }
    ns.sort_by(f64::total_cmp);
    (stats::quantile(&ns, 0.5), total)
}

/// The keys of a measurement, by id: the user's file first (its distinct
/// keys in file order), then synthetic distinct 8-byte ids. Ids 0..n are
/// the members and ids n.. the absent queries, so a file longer than n
/// supplies its own absent keys before any synthetic one.
pub struct Keys<'a> {
    file: Option<&'a KeyFile>,
    ids: KeyGen,
}

impl<'a> Keys<'a> {
    pub fn new(file: Option<&'a KeyFile>, seed: u64) -> Keys<'a> {
        Keys {
            file,
            ids: KeyGen::new(KeyType::U64, seed ^ 0x6b65_7973),
        }
    }

    /// `f` of the key with this id.
    #[inline]
    pub(super) fn with<R>(&self, id: u64, f: impl FnOnce(&[u8]) -> R) -> R {
        match self.file {
            Some(k) if id < k.len() => f(k.key(id as usize)),
            _ => f(&self.ids.u64_key(id)),
        }
    }

    /// The keys in words, for the review.
    pub fn describe(&self) -> String {
        match self.file {
            None => "synthetic distinct 8-byte keys, hashed with XXH3 (absent keys: other ids of the same generator)".into(),
            Some(k) => format!(
                "your keys ({}, {} distinct of {} records): the first n are the members (topped up with synthetic 8-byte ids when the file has fewer), the rest of the file the first absent queries, then synthetic 8-byte ids; hashed with XXH3",
                // a file's name is text from a stranger in the review's Markdown
                crate::export::text::markdown(&k.path),
                k.len(),
                k.records
            ),
        }
    }
}

/// Builds `c` on the keys with ids 0..n, queries ids n.. as absent keys,
/// and measures.
pub(super) fn measure_one(
    c: &Config,
    shift: u32,
    queries: u64,
    keys: &Keys,
    seed: u64,
) -> anyhow::Result<Measured> {
    let inst = c.scaled(shift);
    let n = inst.n;
    let hasher = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(seed));
    let t = Instant::now();
    let built = inst.build(hasher, seed, |add| {
        for id in 0..n {
            keys.with(id, &mut *add)
        }
    })?;
    let build_seconds = t.elapsed().as_secs_f64();
    let f: &dyn Membership = &*built.filter;
    let present = n.min(MAX_PRESENT);
    let (present_ns, found) = timed_chunks(0..present, |r| {
        r.filter(|&id| keys.with(id, |k| f.contains(k))).count() as u64
    });
    let (absent_ns, fp) = timed_chunks(n..n + queries, |r| {
        r.filter(|&id| keys.with(id, |k| f.contains(k))).count() as u64
    });
    let (lo, hi) = stats::clopper_pearson(fp, queries, CONFIDENCE);
    Ok(Measured {
        structure: c.filter.name().into(),
        configured: c.clone(),
        resized: Vec::new(),
        measured_config: inst.words(),
        n_measured: n,
        scaled: if shift == 0 {
            String::new()
        } else {
            format!(
                "measured at 1/{} of the size ({n} keys, the same load and fingerprint): the user's n does not fit a quarter of this machine's memory or the time budget",
                1u64 << shift
            )
        },
        absent_queries: queries,
        false_positives: fp,
        fpr: fp as f64 / queries as f64,
        fpr_lo: lo,
        fpr_hi: hi,
        false_negatives: present - found,
        present_queries: present,
        absent_ns,
        present_ns,
        build_seconds,
    })
}

/// Whether a measured rate lies above `eps` beyond the materiality margin
/// of a rate (its whole interval above ε·(1 + 10%)).
pub fn above_target(m: &Measured, eps: f64) -> bool {
    let (margin, _) = Quantity::Rate.margin().expect("a rate has a margin");
    m.fpr_lo > eps * (1.0 + margin)
}

/// Configures, builds and measures `filter` for `n` keys at `eps`,
/// resizing it while its measured rate lies above ε beyond the margin.
pub fn candidate(
    filter: Filter,
    n: u64,
    eps: f64,
    budget: Budget,
    keys: &Keys,
    seed: u64,
) -> Result<Measured, Left> {
    let left = |why: String| Left {
        structure: filter.name().into(),
        why,
    };
    let mut c = filter.configure(n, eps).map_err(|e| left(e.to_string()))?;
    let mut resized = Vec::new();
    for step in 0..=MAX_RESIZES {
        let queries = queries_within(&c, eps, budget);
        let shift = fitting_shift(&c, queries, budget);
        let m = match measure_one(&c, shift, queries, keys, seed) {
            Ok(m) => m,
            // a table too full to place a key: the implementation reports
            // it full; the next larger table is what its user would allocate
            Err(e) if step < MAX_RESIZES && e.to_string().contains("full") => {
                let next = grow(&c).ok_or_else(|| left(format!("{e:#}")))?;
                resized.push(format!("{}: {e:#}", c.words()));
                c = next;
                continue;
            }
            Err(e) => return Err(left(format!("{e:#}"))),
        };
        if m.false_negatives > 0 {
            return Err(left(format!(
                "{} false negatives in {} member queries: a bug",
                m.false_negatives, m.present_queries
            )));
        }
        if !above_target(&m, eps) {
            return Ok(Measured { resized, ..m });
        }
        let why = format!(
            "{}: measured FPR {} [{}, {}] lies above ε = {eps} beyond the 10% margin",
            c.words(),
            crate::export::markdown::sig(m.fpr, 3),
            crate::export::markdown::sig(m.fpr_lo, 3),
            crate::export::markdown::sig(m.fpr_hi, 3)
        );
        match c.larger() {
            Some(next) if step < MAX_RESIZES => {
                resized.push(why);
                c = next;
            }
            _ => return Err(left(format!("{why}; no larger configuration qualified"))),
        }
    }
    Err(left("no configuration qualified".into()))
}

/// The table doubled (a full cuckoo or quotient table).
fn grow(c: &Config) -> Option<Config> {
    let mut next = c.clone();
    next.shape = match c.shape {
        Shape::Cuckoo { buckets, b, f } => Shape::Cuckoo {
            buckets: buckets * 2,
            b,
            f,
        },
        Shape::Quotient { q, r } if q + r < 64 => Shape::Quotient { q: q + 1, r },
        _ => return None,
    };
    Some(next.refit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At a quick size every structure measures at its configuration, with
    /// no false negatives, and an FPR whose interval is consistent with
    /// ε within the margin (or it was resized, and says why).
    #[test]
    fn every_candidate_is_measured_at_the_users_n() {
        let budget = Budget {
            memory_bytes: 1 << 30,
            seconds: 30.0,
        };
        for f in Filter::ALL {
            let m = candidate(f, 20_000, 0.01, budget, &Keys::new(None, 7), 7).unwrap();
            assert_eq!(m.n_measured, 20_000, "{f:?}");
            assert!(m.scaled.is_empty());
            assert_eq!(m.false_negatives, 0);
            assert_eq!(m.present_queries, 20_000);
            assert_eq!(m.absent_queries, queries_for(0.01));
            assert!(!above_target(&m, 0.01), "{f:?}: {m:?}");
            assert!(m.fpr_lo <= m.fpr && m.fpr <= m.fpr_hi);
        }
        assert_eq!(queries_for(0.01), 100_000);
        assert_eq!(queries_for(1e-4), 4_000_000);
    }

    /// A budget too small for the user's n measures a scaled instance with
    /// the same load and fingerprint, and says so.
    #[test]
    fn a_build_past_the_budget_is_scaled_and_says_so() {
        let budget = Budget {
            memory_bytes: 1 << 30,
            seconds: 0.05,
        };
        let m = candidate(
            Filter::Cuckoo,
            1_000_000,
            0.01,
            budget,
            &Keys::new(None, 7),
            7,
        )
        .unwrap();
        assert!(
            m.n_measured < 1_000_000 && m.scaled.contains("same load"),
            "{m:?}"
        );
        let inst_load = m.n_measured as f64 / {
            let c = m.configured.scaled((1_000_000 / m.n_measured).ilog2());
            match c.shape {
                crate::structures::menu::Shape::Cuckoo { buckets, b, .. } => {
                    (buckets * b as u64) as f64
                }
                _ => unreachable!(),
            }
        };
        assert!(
            (inst_load - m.configured.load.unwrap()).abs() < 1e-3,
            "{inst_load}"
        );
    }
}
