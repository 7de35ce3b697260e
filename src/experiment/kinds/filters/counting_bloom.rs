//! `counting_bloom`: counting Bloom filters (doc 000 §14.3), one `test` per spec:
//!
//! * `space`: bytes and FPR against a plain Bloom filter at the same m, k;
//! * `saturation`: does any counter overflow (true count > 15 or 255) at a
//!   given load, over many filters, next to the Poisson tail;
//! * `forced_overflow`: fill past capacity, delete a fraction of the members
//!   legitimately, count the remaining members that vanished;
//! * `bogus_deletes`: delete keys that were never inserted, count members that vanished;
//! * `chapter_example`: the chapter's [3][0][2][0] → [2][0][1][0] picture,
//!   checked for consistency;
//! * `plain_delete`: a plain Bloom filter "deleting" by clearing bits (what
//!   the chapter says it cannot do), members lost;
//! * `essay_logout`: the essay's 16-bit, 3-hash layout with /login and /logout
//!   sharing bit 9: clearing /logout's bits.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::bloom::bloom_overfill::FRACTION;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes};
use crate::experiment::params::{Def, HashSeed, ParamDef, Seeds};
use crate::hashing::StrategyId;
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, theory as bloom_theory};
use crate::structures::counting_bloom::{CountingBloom, Overflow, theory};
use crate::workload::{KeyGen, KeyType};

pub struct CountingBloomStudy;

crate::closed_set! {
    /// The values of `test`.
    pub enum Test {
        Space = "space",
        Saturation = "saturation",
        ForcedOverflow = "forced_overflow",
        BogusDeletes = "bogus_deletes",
        ChapterExample = "chapter_example",
        PlainDelete = "plain_delete",
        EssayLogout = "essay_logout",
    }
}

crate::params! {
    pub struct P {
        test: Test = common::choice(Test::NAMES, Def::Required, "what to measure (see the kind's doc)"),
        capacity: u64 [count] = common::count(Def::Int(1_000_000), "keys the filter is sized for (m and k by the chapter's formulas)"),
        p: f64 [fraction] = common::rate(Def::Float(0.01), "design false-positive rate"),
        load: f64 [ratio] = common::positive(1000.0, Def::Float(1.0), "keys inserted / capacity"),
        counter_bits: u32 [bits] = common::int(4, 8, Def::Int(4), "bits per counter: 4 or 8"),
        overflow: Overflow = common::choice(Overflow::NAMES, Def::Str("decrement"), "what a delete does to a saturated counter"),
        delete_fraction: f64 [fraction] = ParamDef::new("", FRACTION, Def::Float(0.5), "forced_overflow: fraction of the members deleted (legitimately)"),
        bogus_deletes: u64 [count] = common::int(0, 1_000_000_000, Def::Int(0), "bogus_deletes: never-inserted keys deleted (without the membership check)"),
        queries: u64 [count] = QUERIES,
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R {
        m: u64 [Same, count],
        k: u32 [Same, count],
        counter_max: u32 [Same, count],
        inserted: u64 [Same, count],
        bytes: usize [Same, bytes],
        /// Bytes of a plain Bloom filter with the same m and k.
        plain_bytes: usize [Same, bytes],
        bytes_over_plain: f64 [Same, ratio],
        fpr_measured: Option<Proportion> [fraction],
        plain_fpr_measured: Option<Proportion> [fraction],
        fpr_theory: f64 [Same, fraction],
        /// Whether any counter's true count exceeded its maximum in this filter.
        any_overflow: Proportion [fraction],
        any_overflow_theory: f64 [Same, fraction],
        overflow_events: u64 [count],
        saturated_counters: u64 [count],
        expected_overflowed_counters: f64 [Same, count],
        deleted: u64 [Same, count],
        /// Members still inserted that the filter now denies, of those checked.
        lost_members: Option<Proportion> [fraction],
        /// Deletes of genuine members refused because the filter already denied them.
        deletes_refused: Option<u64> [count],
        documented_before: Option<String> [Same],
        documented_after: Option<String> [Same],
        consistent: Option<bool> [Same],
        /// chapter_example: consistent when the four counters shown are a
        /// window onto a larger array.
        consistent_as_window: Option<bool> [Same],
    }
}

/// The chapter's picture: counters before and after "deleting one apple".
pub(crate) const BEFORE: [u8; 4] = [3, 0, 2, 0];
pub(crate) const AFTER: [u8; 4] = [2, 0, 1, 0];

/// Whether some k ≥ 1 and some number of inserts can produce the chapter's
/// picture: every insert adds exactly k to the counters' sum, so the sum
/// before must be a multiple of k, and one delete removes exactly k; the
/// after picture must be pointwise below the before picture.
fn chapter_example_consistent() -> bool {
    let (before, after): (u32, u32) = (
        BEFORE.iter().map(|&c| c as u32).sum(),
        AFTER.iter().map(|&c| c as u32).sum(),
    );
    let k = before.saturating_sub(after);
    k >= 1 && before.is_multiple_of(k) && BEFORE.iter().zip(AFTER).all(|(b, a)| a <= *b)
}

/// Whether the picture can be four counters of a larger array: one delete
/// lowers each counter the deleted key probes by one and no other, so every
/// shown counter drops by 0 or 1, at least one drops (the key probes inside
/// the window), and a counter that drops held the key (was at least 1); the
/// key's other probes, and the sums, lie outside the window.
fn chapter_example_consistent_as_window() -> bool {
    window_consistent(&BEFORE, &AFTER)
}

fn window_consistent(before: &[u8], after: &[u8]) -> bool {
    let pairs = || before.iter().zip(after);
    pairs().all(|(b, a)| a <= b && b - a <= 1) && pairs().any(|(b, a)| b > a)
}

impl Measure for CountingBloomStudy {
    type P = P;
    type R = R;
    const NAME: &'static str = "counting_bloom";
    const ABOUT: &'static str = "counting Bloom filters: space, counter overflow, false negatives from overflow and from bogus deletes";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if p.counter_bits != 4 && p.counter_bits != 8 {
            return Err(crate::error::Error::invalid(
                "counter_bits",
                "must be 4 or 8",
            ));
        }
        if bloom_theory::optimal_m(p.capacity, p.p) as f64 > common::MAX_BITS / 8.0 {
            return Err(crate::error::Error::invalid(
                "capacity",
                "the filter must be <= 2^37 counters",
            ));
        }
        if (p.capacity as f64 * p.load) > 1e9 {
            return Err(crate::error::Error::invalid(
                "load",
                "capacity * load must be <= 1e9 keys",
            ));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let overflow = if p.overflow == Overflow::Sticky {
            Overflow::Sticky
        } else {
            Overflow::Decrement
        };
        let hasher = p.hash_seed.hasher(p.hash, seeds);
        let mut f =
            CountingBloom::with_rate(p.capacity, p.p, p.counter_bits, overflow, hasher.clone())?;
        let (m, k) = (f.m(), f.k());
        let max = f.counters().max() as u32;
        let n = if p.test == Test::ChapterExample {
            0
        } else {
            (p.capacity as f64 * p.load).round() as u64
        };
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        // the plain-filter and layout tests never read the counting filter
        if !matches!(p.test.as_str(), "plain_delete" | "essay_logout") {
            for id in 0..n {
                f.insert(keys.key(id));
            }
        }
        let (nf, mf, kf) = (n as f64, m as f64, k as f64);
        let plain_bytes = m.div_ceil(64) as usize * 8;
        let overflowed = f.overflow_events() > 0;
        let mut r = R {
            m,
            k,
            counter_max: max,
            inserted: n,
            bytes: f.bytes(),
            plain_bytes,
            bytes_over_plain: f.bytes() as f64 / plain_bytes as f64,
            fpr_theory: bloom_theory::fpr(nf, mf, kf),
            any_overflow: Proportion::new(overflowed as u64, 1),
            any_overflow_theory: theory::p_any_overflow(nf, mf, kf, max),
            overflow_events: f.overflow_events(),
            saturated_counters: f.saturated_counters(),
            expected_overflowed_counters: theory::expected_overflowed_counters(nf, mf, kf, max),
            ..R::default()
        };
        // members never deleted, re-queried (all up to 10^6, then an even sample)
        let survivors = |first: u64| {
            let stride = (n - first).div_ceil(1_000_000).max(1) as usize;
            (first..n).step_by(stride)
        };
        match p.test {
            Test::Space => {
                let mut plain = BloomFilter::new(m, k, hasher)?;
                for id in 0..n {
                    plain.insert(keys.key(id));
                }
                let q = p.queries;
                let fp = (n..n + q).filter(|&id| f.contains(keys.key(id))).count() as u64;
                let pfp = (n..n + q)
                    .filter(|&id| plain.contains(keys.key(id)))
                    .count() as u64;
                r.fpr_measured = Some(Proportion::new(fp, q));
                r.plain_fpr_measured = Some(Proportion::new(pfp, q));
                r.plain_bytes = plain.bytes();
                r.bytes_over_plain = f.bytes() as f64 / plain.bytes() as f64;
            }
            Test::ForcedOverflow => {
                let del = (n as f64 * p.delete_fraction).round() as u64;
                // a member the filter already denies cannot be deleted: that
                // refusal is itself a false negative, counted
                let mut refused = 0;
                for id in 0..del {
                    refused += f.remove(keys.key(id)).is_err() as u64;
                }
                r.deletes_refused = Some(refused);
                let (mut lost, mut checked) = (0, 0);
                for id in survivors(del) {
                    checked += 1;
                    lost += !f.contains(keys.key(id)) as u64;
                }
                r.deleted = del;
                r.lost_members = Some(Proportion::new(lost, checked));
            }
            Test::BogusDeletes => {
                // ids from 2^40 on were never inserted
                for j in 0..p.bogus_deletes {
                    f.remove_unchecked(keys.key((1 << 40) + j));
                }
                let (mut lost, mut checked) = (0, 0);
                for id in survivors(0) {
                    checked += 1;
                    lost += !f.contains(keys.key(id)) as u64;
                }
                r.deleted = p.bogus_deletes;
                r.lost_members = Some(Proportion::new(lost, checked));
            }
            Test::PlainDelete => {
                let mut plain = BloomFilter::with_rate(p.capacity, p.p, hasher)?;
                for id in 0..n {
                    plain.insert(keys.key(id));
                }
                let del = (n as f64 * p.delete_fraction).round() as u64;
                for id in 0..del {
                    plain.clear_bits_of(keys.key(id));
                }
                let (mut lost, mut checked) = (0, 0);
                for id in survivors(del) {
                    checked += 1;
                    lost += !plain.contains(keys.key(id)) as u64;
                }
                r.deleted = del;
                r.lost_members = Some(Proportion::new(lost, checked));
                r.bytes = plain.bytes();
            }
            Test::EssayLogout => {
                // the essay's picture is lost; its text fixes m = 16, k = 3, five
                // bits set by two keys, and bit 9 shared: any such layout, e.g.
                let (login, logout) = ([2u64, 9, 13], [5u64, 9, 11]);
                let mut bits = crate::structures::bloom::BitArray::new(16);
                login.iter().chain(&logout).for_each(|&b| bits.set(b));
                let five = bits.count_ones() == 5;
                logout.iter().for_each(|&b| bits.unset(b));
                let vanished = login.iter().any(|&b| !bits.get(b));
                r.documented_before = Some("/login {2, 9, 13}, /logout {5, 9, 11}".into());
                r.documented_after = Some(format!(
                    "clear /logout: /login {}",
                    if vanished { "vanishes" } else { "stays" }
                ));
                r.consistent = Some(five && vanished);
            }
            Test::ChapterExample => {
                let show = |c: &[u8]| c.iter().map(|v| format!("[{v}]")).collect::<String>();
                r.documented_before = Some(show(&BEFORE));
                r.documented_after = Some(show(&AFTER));
                r.consistent = Some(chapter_example_consistent());
                r.consistent_as_window = Some(chapter_example_consistent_as_window());
            }
            _ => {}
        }
        Ok(r)
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        let n = (p.capacity as f64 * p.load).round() as u64;
        Some(match p.test {
            // never-inserted keys at ids from 2^40 on
            Test::BogusDeletes => (1u64 << 40) + p.bogus_deletes,
            _ => n + p.queries,
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let m = bloom_bits(p.capacity, p.p);
        let n = p.capacity as f64 * p.load;
        let counters = m * p.counter_bits as f64 / 8.0;
        // the plain filter some tests build beside it
        Some(
            Footprint::one(counters, n + p.queries as f64 + p.bogus_deletes as f64)
                .plus(bloom_bytes(m)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chapter's picture cannot be a whole array (a sum of 5 is no
    /// multiple of k = 2) but is a window; a drop of 2, or none, is not.
    #[test]
    fn the_chapter_picture_is_a_window_not_a_whole_array() {
        assert!(!chapter_example_consistent());
        assert!(chapter_example_consistent_as_window());
        assert!(!window_consistent(&[3, 0, 2, 0], &[1, 0, 2, 0]));
        assert!(!window_consistent(&[3, 0, 2, 0], &[3, 0, 2, 0]));
        assert!(!window_consistent(&[3, 0, 2, 0], &[3, 1, 2, 0]));
    }
}
