//! Every approximate-membership structure sketchlab measures, sized for n
//! keys at a target false-positive rate ε the way its user would size it:
//! what the frontier study (`filter_frontier`, `filter_speed`) builds on the
//! same keys, and what `design filter` recommends from.
//!
//! | name | sizing for (n, ε) | inserts after build | deletes | merges |
//! |---|---|---|---|---|
//! | `bloom` | m = ⌈n·ln(1/ε)/(ln 2)²⌉, k = round((m/n)·ln 2) | yes | no | yes (bitwise OR) |
//! | `blocked_bloom` | the same m, rounded up to 512-bit blocks | yes | no | yes (bitwise OR) |
//! | `counting_bloom` | the same m, 4-bit counters (sticky at 15) | yes | yes | yes (add counters) |
//! | `cuckoo` | b = 4, f = ⌈log2(2b/ε)⌉, 2^⌈log2(n/(4·0.95))⌉ buckets | yes, until full | yes | no |
//! | `quotient` | `qfilter`: 2^q slots for n at 95% load, r bits from ε | yes, until full | yes | yes (`qfilter` merge) |
//! | `xor` | `xorf` Xor8 if ε ≥ 2^−8, else Xor16 (no 32-bit xor) | no (static) | no | no |
//! | `binary_fuse` | `xorf` BinaryFuse8/16/32: the smallest f with 2^−f ≤ ε | no (static) | no | no |
//! | `datasketches_bloom` | DataSketches' `with_accuracy(n, ε)` and its own XXHash64 | yes | no | yes (union) |
//!
//! A structure that cannot reach ε (a xor filter below 2^−16, a cuckoo
//! fingerprint over 32 bits) says so in [`Filter::reach`] rather than
//! building something else.

use crate::hashing::KeyHasher;
use crate::structures::Membership;
use crate::structures::bloom::datasketches::DataSketchesBloom;
use crate::structures::bloom::{BlockedBloom, BloomFilter, blocked::BLOCK_BITS, theory as bloom};
use crate::structures::counting_bloom::{CountingBloom, Overflow};
use crate::structures::cuckoo::{CuckooFilter, theory as cuckoo};
use crate::structures::quotient::{QuotientFilter, theory as quotient};
use crate::structures::static_filter::{StaticFilter, StaticKind, theory as fuse};

/// One structure of the menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Bloom,
    BlockedBloom,
    CountingBloom,
    Cuckoo,
    Quotient,
    Xor,
    BinaryFuse,
    DataSketchesBloom,
}

/// Slots per cuckoo bucket, and the load a cuckoo table is sized to.
const CUCKOO_B: usize = 4;
const CUCKOO_LOAD: f64 = 0.95;
const CUCKOO_KICKS: u32 = 500;

/// A structure built and filled with its n keys.
pub struct Built {
    pub filter: Box<dyn Membership>,
    /// Its parameters, in words ("m = 958506, k = 7").
    pub config: String,
    /// Its theory's false-positive rate at the n keys it holds.
    pub fpr_theory: f64,
}

impl Filter {
    pub const ALL: [Filter; 8] = [
        Filter::Bloom,
        Filter::BlockedBloom,
        Filter::CountingBloom,
        Filter::Cuckoo,
        Filter::Quotient,
        Filter::Xor,
        Filter::BinaryFuse,
        Filter::DataSketchesBloom,
    ];

    /// Every name, in [`Filter::ALL`] order.
    pub const NAMES: [&'static str; 8] = [
        "bloom",
        "blocked_bloom",
        "counting_bloom",
        "cuckoo",
        "quotient",
        "xor",
        "binary_fuse",
        "datasketches_bloom",
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[Self::ALL.iter().position(|&f| f == self).unwrap_or(0)]
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .position(|&n| n == s)
            .map(|i| Self::ALL[i])
    }

    /// Whether a key can be added once the filter is built.
    pub fn inserts_after_build(self) -> bool {
        !matches!(self, Filter::Xor | Filter::BinaryFuse)
    }

    /// Whether a key that was inserted can be removed.
    pub fn deletes(self) -> bool {
        matches!(
            self,
            Filter::CountingBloom | Filter::Cuckoo | Filter::Quotient
        )
    }

    /// Whether two filters of the same shape and seed combine into the
    /// filter of the union of their keys from their states alone.
    pub fn merges(self) -> bool {
        !matches!(self, Filter::Cuckoo | Filter::Xor | Filter::BinaryFuse)
    }

    /// The static filter this structure uses for ε, if it is one.
    fn static_kind(self, eps: f64) -> Option<StaticKind> {
        let fits = |k: StaticKind| fuse::fpr(k.fingerprint_bits()) <= eps;
        match self {
            Filter::Xor => [StaticKind::Xor8, StaticKind::Xor16]
                .into_iter()
                .find(|&k| fits(k)),
            Filter::BinaryFuse => [
                StaticKind::BinaryFuse8,
                StaticKind::BinaryFuse16,
                StaticKind::BinaryFuse32,
            ]
            .into_iter()
            .find(|&k| fits(k)),
            _ => None,
        }
    }

    /// Why this structure cannot be sized for ε (`None`: it can).
    pub fn reach(self, eps: f64) -> Option<String> {
        match self {
            Filter::Xor if self.static_kind(eps).is_none() => Some(format!(
                "xorf has no xor filter below 2^-16 = {:.3e} (ε = {eps}): use binary_fuse (32-bit)",
                fuse::fpr(16)
            )),
            Filter::BinaryFuse if self.static_kind(eps).is_none() => {
                Some(format!("no binary fuse filter below 2^-32 (ε = {eps})"))
            }
            Filter::Cuckoo if cuckoo::fingerprint_bits(eps, CUCKOO_B) > 32 => Some(format!(
                "a cuckoo fingerprint for ε = {eps} needs {} bits, over sketchlab's 32",
                cuckoo::fingerprint_bits(eps, CUCKOO_B)
            )),
            _ => None,
        }
    }

    /// Builds the structure for `n` keys at rate `eps` and inserts the keys
    /// `each` hands over (a static filter is built from them). `seed` seeds
    /// what is not the key hash (the cuckoo eviction walk, DataSketches'
    /// own hash).
    pub fn build<H: KeyHasher + 'static>(
        self,
        n: u64,
        eps: f64,
        hasher: H,
        seed: u64,
        each: impl FnOnce(&mut dyn FnMut(&[u8])),
    ) -> anyhow::Result<Built> {
        if let Some(why) = self.reach(eps) {
            anyhow::bail!("{}: {why}", self.name());
        }
        let (nf, m) = (n as f64, bloom::optimal_m(n.max(1), eps));
        let k = bloom::optimal_k_int(m, n.max(1));
        let (mut filter, config, fpr_theory): (Box<dyn Membership>, String, f64) = match self {
            Filter::Bloom => (
                Box::new(BloomFilter::new(m, k, hasher)?),
                format!("m = {m}, k = {k}"),
                bloom::fpr(nf, m as f64, k as f64),
            ),
            Filter::BlockedBloom => {
                let m = m.div_ceil(BLOCK_BITS) * BLOCK_BITS;
                (
                    Box::new(BlockedBloom::new(m, k, hasher)?),
                    format!("m = {m} (512-bit blocks), k = {k}"),
                    bloom::fpr_blocked(nf, m as f64, k as f64, BLOCK_BITS as f64),
                )
            }
            Filter::CountingBloom => (
                Box::new(CountingBloom::new(m, k, 4, Overflow::Sticky, hasher)?),
                format!("m = {m} 4-bit counters, k = {k}"),
                bloom::fpr(nf, m as f64, k as f64),
            ),
            Filter::Cuckoo => {
                let f = cuckoo::fingerprint_bits(eps, CUCKOO_B).max(4);
                let buckets = cuckoo::buckets_for(n, CUCKOO_B, CUCKOO_LOAD);
                let alpha = nf / (buckets * CUCKOO_B) as f64;
                (
                    Box::new(CuckooFilter::new(
                        buckets,
                        CUCKOO_B,
                        f,
                        CUCKOO_KICKS,
                        seed,
                        hasher,
                    )?),
                    format!("{buckets} buckets × {CUCKOO_B}, f = {f}, load {alpha:.3}"),
                    cuckoo::fpr(f, CUCKOO_B, alpha),
                )
            }
            Filter::Quotient => {
                let q = QuotientFilter::with_rate(n, eps, hasher)?;
                let (slots, r) = (q.slots(), q.remainder_bits());
                let alpha = nf / slots as f64;
                (
                    Box::new(q),
                    format!(
                        "2^{} slots, r = {r}, load {alpha:.3}",
                        slots.trailing_zeros()
                    ),
                    quotient::fpr(alpha, r),
                )
            }
            Filter::Xor | Filter::BinaryFuse => {
                let kind = self
                    .static_kind(eps)
                    .expect("reach() checked the static kind");
                let f = StaticFilter::build_each(kind, hasher, each)?;
                let slots = f.slots();
                return Ok(Built {
                    filter: Box::new(f),
                    config: format!("{}, {slots} slots", kind.name()),
                    fpr_theory: fuse::fpr(kind.fingerprint_bits()),
                });
            }
            Filter::DataSketchesBloom => {
                let f = DataSketchesBloom::with_rate(n.max(1), eps, seed)?;
                let (m, k) = (f.m(), f.k());
                (
                    Box::new(f),
                    format!("m = {m}, k = {k} (DataSketches' sizing)"),
                    bloom::fpr(nf, m as f64, k as f64),
                )
            }
        };
        let mut failed = None;
        let mut inserted = 0u64;
        each(&mut |key| {
            if failed.is_none() {
                match filter.insert(key) {
                    Ok(()) => inserted += 1,
                    Err(e) => failed = Some(e),
                }
            }
        });
        if let Some(e) = failed {
            anyhow::bail!(
                "{} ({config}): insert {} of {n} failed: {e}",
                self.name(),
                inserted + 1
            );
        }
        Ok(Built {
            filter,
            config,
            fpr_theory,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
    use crate::stats::Proportion;

    /// Every structure of the menu, at one quick point (n = 20k, ε = 1%):
    /// no false negatives, and the measured FPR inside its theory's 99.9%
    /// Wilson interval; the static filters refuse a later insert.
    #[test]
    fn every_menu_filter_meets_its_theory_at_one_point() {
        let (n, queries, eps) = (20_000u64, 200_000u64, 0.01);
        for s in Filter::ALL {
            let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(11));
            let mut b = s
                .build(n, eps, h, 11, |add| {
                    for i in 0..n {
                        add(&i.to_le_bytes())
                    }
                })
                .unwrap();
            assert!((0..n).all(|i| b.filter.contains(&i.to_le_bytes())), "{s:?}");
            let fp = (n..n + queries)
                .filter(|i| b.filter.contains(&i.to_le_bytes()))
                .count() as u64;
            let p = Proportion::at(fp, queries, 0.999);
            assert!(
                p.lo <= b.fpr_theory && b.fpr_theory <= p.hi,
                "{s:?} ({}): {fp}/{queries} vs theory {}",
                b.config,
                b.fpr_theory
            );
            assert_eq!(
                b.filter.insert(b"late").is_ok(),
                s.inserts_after_build(),
                "{s:?}"
            );
        }
    }

    #[test]
    fn names_round_trip_and_unreachable_rates_say_why() {
        for s in Filter::ALL {
            assert_eq!(Filter::from_name(s.name()), Some(s));
        }
        assert!(Filter::Xor.reach(1e-5).unwrap().contains("2^-16"));
        assert_eq!(Filter::BinaryFuse.reach(1e-5), None);
        assert_eq!(
            Filter::BinaryFuse.static_kind(0.01),
            Some(StaticKind::BinaryFuse8)
        );
        assert_eq!(
            Filter::BinaryFuse.static_kind(1e-3),
            Some(StaticKind::BinaryFuse16)
        );
        let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
        let e = Filter::Xor.build(10, 1e-6, h, 1, |_| {}).err().unwrap();
        assert!(e.to_string().contains("binary_fuse"), "{e}");
    }
}
