//! Capacity cliffs of the power-of-two structures: a cuckoo table's
//! buckets, a quotient filter's slots and a split block Bloom filter's
//! blocks come in powers of two, so a user's n just past a doubling point
//! sits at half load (and pays for it), and one just below it may sit past
//! what the table can hold.
//!
//! For each such candidate the review states the table's capacity (the keys
//! it holds before its implementation must double it: a load measured here
//! for cuckoo, whose 4-slot buckets fill before the 96% its sizing rule
//! allows; `qfilter`'s own maximum read from the crate; the Parquet
//! writers' formula for split block Bloom), the load at the user's n, and
//! two alternatives, each measured:
//!
//! * **fewer fingerprint bits** in the same table: the fewest whose whole
//!   measured interval lies under ε at the user's load (the rule smaller
//!   sketches qualify by: a configuration below its implementation's own
//!   choice must prove it meets ε, not merely fail to disprove it);
//! * **half the memory**: the table halved, filled to its capacity, and
//!   what that holds.

use super::measure::{Budget, Keys, fitting_shift, measure_one, queries_within};
use crate::export::markdown::{pct, sig};
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::structures::bloom::theory as bloom;
use crate::structures::cuckoo::CuckooFilter;
use crate::structures::menu::filters::{CUCKOO_B, CUCKOO_KICKS};
use crate::structures::menu::{Config, Filter, Shape};
use crate::structures::quotient::QuotientFilter;
use crate::workload::{KeyGen, KeyType};
use serde::Serialize;

/// Tables filled to their first failed insert to measure a cuckoo filter's
/// reachable load, and the most buckets each has.
const FILL_TRIALS: u64 = 5;
const FILL_MAX_BUCKETS: u64 = 1 << 16;
/// Fingerprint bits removed at most when looking for fewer.
const FEWER_MAX: u32 = 3;

/// A measured alternative to a candidate's configuration.
#[derive(Clone, Debug, Serialize)]
pub struct Alternative {
    /// What changes ("f = 12, one fingerprint bit fewer").
    pub what: String,
    pub configuration: String,
    /// Keys it holds in the measurement (the user's n, or the halved
    /// table's capacity).
    pub n: u64,
    pub bytes: u64,
    pub absent_queries: u64,
    pub fpr: f64,
    pub fpr_lo: f64,
    pub fpr_hi: f64,
    /// Whether its whole interval lies at or under ε.
    pub meets_target: bool,
    /// Why the instance measured is smaller ("" when it is the size named).
    pub scaled: String,
}

/// One power-of-two candidate's capacity at the user's n.
#[derive(Clone, Debug, Serialize)]
pub struct Cliff {
    pub structure: String,
    /// Slots (or, for split block Bloom, 256-bit blocks) of the table.
    pub slots: u64,
    /// Keys the table holds before its implementation must double it.
    pub capacity: u64,
    /// The user's n over the capacity.
    pub load: f64,
    /// Where the capacity comes from.
    pub capacity_rule: String,
    /// The halved table and the keys it holds.
    pub half_capacity: u64,
    pub fewer_bits: Option<Alternative>,
    pub half_memory: Option<Alternative>,
    /// The finding in one sentence.
    pub summary: String,
}

/// The highest load a cuckoo table of `buckets` × 4 slots with `f`-bit
/// fingerprints reaches before an insert fails (its eviction walk of
/// [`CUCKOO_KICKS`] kicks gives up), measured on [`FILL_TRIALS`] tables of
/// up to 2^16 buckets: (the lowest, the median) over the trials.
pub fn cuckoo_fill_limit(buckets: u64, f: u32, seed: u64) -> (f64, f64) {
    let buckets = buckets.clamp(2, FILL_MAX_BUCKETS);
    let slots = buckets * CUCKOO_B as u64;
    let mut loads: Vec<f64> = (0..FILL_TRIALS)
        .map(|t| {
            let s = seed ^ (t + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let hasher = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(s));
            let mut c = CuckooFilter::new(buckets as usize, CUCKOO_B, f, CUCKOO_KICKS, s, hasher)
                .expect("a power of two of buckets and f in 4..=32");
            let ids = KeyGen::new(KeyType::U64, s);
            let placed = (0..slots)
                .take_while(|&id| c.insert(&ids.u64_key(id)).is_ok())
                .count() as f64;
            placed / slots as f64
        })
        .collect();
    loads.sort_by(f64::total_cmp);
    (loads[0], crate::stats::quantile(&loads, 0.5))
}

/// The keys `c`'s table holds before its implementation doubles it, and
/// how that is known; `None` for a structure whose size is not a power of
/// two.
pub fn capacity(c: &Config, seed: u64) -> Option<(u64, String)> {
    match c.shape {
        Shape::Cuckoo { buckets, b, f } => {
            let (lo, median) = cuckoo_fill_limit(buckets, f, seed);
            let slots = buckets * b as u64;
            Some((
                (lo * slots as f64).floor() as u64,
                format!(
                    "{b}-slot buckets filled to their first failed insert ({CUCKOO_KICKS} kicks) at load {} (lowest of {FILL_TRIALS} tables of {} buckets; median {}), below the 96% at which the reference code doubles",
                    sig(lo, 4),
                    buckets.clamp(2, FILL_MAX_BUCKETS),
                    sig(median, 4)
                ),
            ))
        }
        Shape::Quotient { r, .. } => {
            let hasher = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(seed));
            let q = QuotientFilter::with_rate(c.n.max(1), 2f64.powi(-(r as i32)), hasher).ok()?;
            Some((
                q.capacity(),
                format!(
                    "qfilter's own maximum (Filter::capacity: {} of {} slots)",
                    q.capacity(),
                    q.slots()
                ),
            ))
        }
        Shape::Bits { m, .. } if c.filter == Filter::SplitBlockBloom => {
            // the most keys the writers' formula gives this many bytes
            let (mut lo, mut hi) = (1u64, m);
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                if bloom::split_block_bytes(mid, c.target) * 8 <= m {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            Some((
                lo,
                "the Parquet writers' formula: the most keys it sizes into this power of two of bytes at your ε".into(),
            ))
        }
        _ => None,
    }
}

/// `c` with its table halved, for `keys` keys.
fn halved(c: &Config, keys: u64) -> Option<Config> {
    let shape = match c.shape {
        Shape::Cuckoo { buckets, b, f } if buckets > 2 => Shape::Cuckoo {
            buckets: buckets / 2,
            b,
            f,
        },
        Shape::Quotient { q, r } if q > 6 => Shape::Quotient { q: q - 1, r },
        Shape::Bits { m, k } if c.filter == Filter::SplitBlockBloom && m > 512 => {
            Shape::Bits { m: m / 2, k }
        }
        _ => return None,
    };
    Some(
        Config {
            n: keys,
            shape,
            ..c.clone()
        }
        .refit(),
    )
}

/// `c` with one fingerprint bit fewer (cuckoo f, quotient r).
fn one_bit_fewer(c: &Config) -> Option<Config> {
    let shape = match c.shape {
        Shape::Cuckoo { buckets, b, f } if f > 4 => Shape::Cuckoo {
            buckets,
            b,
            f: f - 1,
        },
        Shape::Quotient { q, r } if r > 1 => Shape::Quotient { q, r: r - 1 },
        _ => return None,
    };
    Some(Config { shape, ..c.clone() }.refit())
}

/// Measures `c` at `eps` as an alternative described by `what`.
fn alternative(
    c: &Config,
    what: String,
    eps: f64,
    budget: Budget,
    keys: &Keys,
    seed: u64,
) -> Option<Alternative> {
    let queries = queries_within(c, eps, budget);
    let shift = fitting_shift(c, queries, budget);
    let m = measure_one(c, shift, queries, keys, seed).ok()?;
    Some(Alternative {
        what,
        configuration: c.words(),
        n: c.n,
        bytes: c.bytes,
        absent_queries: m.absent_queries,
        fpr: m.fpr,
        fpr_lo: m.fpr_lo,
        fpr_hi: m.fpr_hi,
        meets_target: m.fpr_hi <= eps,
        scaled: m.scaled,
    })
}

/// The capacity of `c` (configured for the user's n at `eps`) and its two
/// alternatives, measured; `None` for a structure that is not a power of
/// two.
pub fn cliff(c: &Config, eps: f64, budget: Budget, keys: &Keys, seed: u64) -> Option<Cliff> {
    let (cap, rule) = capacity(c, seed)?;
    let load = c.n as f64 / cap.max(1) as f64;
    // the fewest bits whose whole interval lies under ε, found by removing
    // one at a time; the last one measured is shown either way
    let mut fewer: Option<Alternative> = None;
    let mut at = c.clone();
    for removed in 1..=FEWER_MAX {
        let Some(next) = one_bit_fewer(&at) else {
            break;
        };
        let what = format!(
            "{removed} fingerprint bit{} fewer, same table",
            if removed == 1 { "" } else { "s" }
        );
        let Some(a) = alternative(&next, what, eps, budget, keys, seed) else {
            break;
        };
        let meets = a.meets_target;
        if meets || fewer.as_ref().is_none_or(|f| !f.meets_target) {
            fewer = Some(a);
        }
        if !meets {
            break;
        }
        at = next;
    }
    let half_slots_cap = {
        let h = halved(c, 1)?;
        capacity(&Config { n: cap / 2, ..h }, seed).map_or(cap / 2, |(k, _)| k)
    };
    let half = halved(c, half_slots_cap.max(1)).and_then(|h| {
        alternative(
            &h,
            format!(
                "half the table, filled to its capacity of {}",
                super::render::count(half_slots_cap as f64)
            ),
            eps,
            budget,
            keys,
            seed,
        )
    });
    let slots = match c.shape {
        Shape::Cuckoo { buckets, b, .. } => buckets * b as u64,
        Shape::Quotient { q, .. } => 1 << q,
        Shape::Bits { m, .. } => m / 256,
        _ => 0,
    };
    let summary = summarize(c, cap, load, half_slots_cap, &fewer, &half);
    Some(Cliff {
        structure: c.filter.name().into(),
        slots,
        capacity: cap,
        load,
        capacity_rule: rule,
        half_capacity: half_slots_cap,
        fewer_bits: fewer,
        half_memory: half,
        summary,
    })
}

/// The cliff in one sentence a reviewer reads.
fn summarize(
    c: &Config,
    cap: u64,
    load: f64,
    half_cap: u64,
    fewer: &Option<Alternative>,
    half: &Option<Alternative>,
) -> String {
    use super::render::{bytes, count};
    let mut s = format!(
        "{} ({}, {}) holds up to {} keys before it must double; your {} fill {} of that",
        c.filter.name(),
        c.words(),
        bytes(c.bytes as f64),
        count(cap as f64),
        count(c.n as f64),
        pct(load, 3)
    );
    if load < 0.75 {
        s += &format!(
            ": you are past a doubling point and pay for a table {} empty",
            pct(1.0 - load, 2)
        );
    } else if load > 0.9 {
        s += &format!(
            ": one key short of the doubling point; {} more keys and the next insert fails or the table doubles to {}",
            count(cap.saturating_sub(c.n) as f64),
            bytes(2.0 * c.bytes as f64)
        );
    }
    if let Some(h) = half {
        s += &format!(
            ". Half the memory ({}, {}) holds {} keys: measured FPR there {} [{}, {}], {} ε",
            h.configuration,
            bytes(h.bytes as f64),
            count(half_cap as f64),
            pct(h.fpr, 3),
            pct(h.fpr_lo, 3),
            pct(h.fpr_hi, 3),
            if h.meets_target {
                "meets"
            } else {
                "does not meet"
            }
        );
    }
    if let Some(f) = fewer {
        s += &format!(
            ". {} ({}, {}): measured FPR {} [{}, {}], {} ε",
            f.what,
            f.configuration,
            bytes(f.bytes as f64),
            pct(f.fpr, 3),
            pct(f.fpr_lo, 3),
            pct(f.fpr_hi, 3),
            if f.meets_target {
                "meets"
            } else {
                "does not meet"
            }
        );
    }
    s + "."
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 4-slot buckets fill before the 96% at which the reference code
    /// doubles: a configured load above what builds is never offered.
    #[test]
    fn cuckoo_tables_fill_below_the_doubling_rule() {
        let (lo, median) = cuckoo_fill_limit(1 << 12, 12, 1);
        assert!(lo <= median && median < 0.99, "{lo} {median}");
        assert!(lo > 0.9, "{lo}");
    }

    /// One key below a doubling point, the case: 4,026,531 keys are
    /// load 0.960 of 2^20 buckets × 4, past what 4-slot buckets fill at that
    /// size. What is measured is a table that built: the configuration the
    /// menu gives, or, when that failed, the doubled one with the resize
    /// reported; never a load that failed.
    #[test]
    fn no_configured_load_above_what_builds() {
        let n = 4_026_531;
        let budget = Budget {
            memory_bytes: 1 << 30,
            seconds: 60.0,
        };
        let first = Filter::Cuckoo.configure(n, 0.01).unwrap();
        let m = super::super::measure::candidate(
            Filter::Cuckoo,
            n,
            0.01,
            budget,
            &Keys::new(None, 5),
            5,
        )
        .unwrap();
        assert_eq!((m.false_negatives, m.n_measured), (0, n), "{m:?}");
        if m.configured.shape != first.shape {
            assert!(!m.resized.is_empty(), "a doubling is reported: {m:?}");
        }
        assert!(m.configured.load.unwrap() <= 0.96, "{m:?}");
    }

    /// Alternatives qualify by measurement: a fewer-bits alternative that
    /// meets ε has its whole measured interval under ε, one that does not
    /// is shown as not meeting it.
    #[test]
    fn alternatives_qualify_by_measurement() {
        let budget = Budget {
            memory_bytes: 1 << 30,
            seconds: 20.0,
        };
        let keys = Keys::new(None, 3);
        // just past a doubling point: 2^13 buckets × 4 at load 0.52
        let n = 17_000;
        for f in [Filter::Cuckoo, Filter::Quotient] {
            let c = f.configure(n, 0.01).unwrap();
            let cl = cliff(&c, 0.01, budget, &keys, 3).unwrap();
            assert!(cl.load < 0.6 && cl.capacity > n, "{cl:?}");
            let few = cl.fewer_bits.as_ref().unwrap();
            assert_eq!(few.meets_target, few.fpr_hi <= 0.01, "{few:?}");
            let half = cl.half_memory.as_ref().unwrap();
            assert!(half.bytes * 2 <= c.bytes + 64 && half.n < n, "{half:?}");
            assert!(half.n >= cl.half_capacity.min(half.n));
        }
    }
}
