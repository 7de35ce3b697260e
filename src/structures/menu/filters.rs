//! Every approximate-membership structure sketchlab measures, configured
//! for n keys at a target false-positive rate ε exactly as its
//! implementation sizes it ([`Filter::configure`]): the frontier studies
//! (`filter_frontier`, `filter_speed`) build the same [`Config`]s on the same
//! keys, and `design filter` builds them at the user's n and measures them.
//!
//! | name | sizing for (n, ε), as its implementation does it | inserts after build | deletes | merges |
//! |---|---|---|---|---|
//! | `bloom` | m = ⌈n·ln(1/ε)/(ln 2)²⌉ bits in 64-bit words, k = round((m/n)·ln 2) | yes | no | yes (bitwise OR) |
//! | `blocked_bloom` | the fewest 512-bit blocks whose own FPR formula (Putze et al.) reaches ε, k = round((m/n)·ln 2) | yes | no | yes (bitwise OR) |
//! | `split_block_bloom` | Parquet's writers (arrow-rs, parquet-mr): ⌊−8n/ln(1 − ε^(1/8))⌋ bits in whole bytes, clamped to [32 B, 128 MiB], rounded up to a power of two; blocks of 8 × 32 bits, k = 8 | yes | no | yes (bitwise OR) |
//! | `counting_bloom` | Bloom's m and k, 4-bit counters (sticky at 15) | yes | yes | yes (add counters) |
//! | `cuckoo` | b = 4, f = ⌈log2(2b/ε)⌉ (Fan et al. §5.1), 2^⌈log2(n/4)⌉ buckets doubled only past 96% load (their code) | yes, until full | yes | no |
//! | `quotient` | `qfilter`: the power of two of slots (≥ 64) whose 95% holds n, r = ⌈log2(1/ε)⌉ | yes, until full | yes | yes (`qfilter` merge) |
//! | `xor` | `xorf` Xor8/16/32, the smallest f with 2^−f ≤ ε; ⌊1.23·n⌋ + 32 slots | no (static) | no | no |
//! | `binary_fuse` | `xorf` BinaryFuse8/16/32, the smallest f with 2^−f ≤ ε; segments and size factor at n (1.375 at 10^3, 1.125 from 10^6) | no (static) | no | no |
//! | `ribbon` | `pleat`'s standard ribbon (w = 128, the RocksDB shape), the smallest r with 2^−r ≤ ε; ⌊(1 + (4 + r/4)/128)·n⌋ slots in whole 128-slot blocks (the reference's overhead rule) | no (static) | no | no |
//! | `datasketches_bloom` | DataSketches' `with_accuracy(n, ε)`: Bloom's m in 64-bit words, k = ⌈(m/n)·ln 2⌉, its own XXHash64 | yes | no | yes (union) |
//!
//! A structure that cannot reach ε (a binary fuse or ribbon filter below
//! 2^−32, a cuckoo fingerprint over 32 bits, blocked Bloom's saturated
//! blocks) says
//! so in [`Filter::reach`] rather than building something else.

use crate::error::Error;
use crate::hashing::KeyHasher;
use crate::structures::Membership;
use crate::structures::bloom::datasketches::DataSketchesBloom;
use crate::structures::bloom::{
    BlockedBloom, BloomFilter, SplitBlockBloom, blocked::BLOCK_BITS, theory as bloom,
};
use crate::structures::counting_bloom::{CountingBloom, Overflow};
use crate::structures::cuckoo::{CuckooFilter, theory as cuckoo};
use crate::structures::quotient::{QuotientFilter, theory as quotient};
use crate::structures::ribbon::{RibbonFilter, theory as ribbon};
use crate::structures::static_filter::{StaticFilter, StaticKind, theory as fuse};
use serde::Serialize;

/// One structure of the menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Filter {
    Bloom,
    BlockedBloom,
    SplitBlockBloom,
    CountingBloom,
    Cuckoo,
    Quotient,
    Xor,
    BinaryFuse,
    Ribbon,
    DataSketchesBloom,
}

/// Slots per cuckoo bucket, and the eviction walk's length (Fan et al.'s
/// `kMaxCuckooCount`).
pub const CUCKOO_B: usize = 4;
pub const CUCKOO_KICKS: u32 = 500;
/// Counter width of the counting Bloom filter.
const COUNTER_BITS: u32 = 4;
/// Bits of a split block Bloom filter's block (eight 32-bit words).
const SBBF_BLOCK_BITS: u64 = 256;

/// The shape a sizing rule chose.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Shape {
    /// m bits, k probes (Bloom, blocked Bloom with m a whole number of
    /// blocks, DataSketches' Bloom).
    Bits { m: u64, k: u32 },
    /// m counters of `width` bits, k probes.
    Counters { m: u64, k: u32, width: u32 },
    /// `buckets` × `b` slots of f-bit fingerprints.
    Cuckoo { buckets: u64, b: u32, f: u32 },
    /// 2^q slots of r-bit remainders.
    Quotient { q: u32, r: u32 },
    /// A `xorf` filter and its fingerprint slots.
    Static {
        kind: &'static str,
        f: u32,
        slots: u64,
    },
    /// A standard ribbon filter's `slots` of r result bits.
    Ribbon { r: u32, slots: u64 },
}

/// A structure configured for (n, ε) by its implementation's own rule:
/// what it allocates and what its theory says it errs, before it is built.
/// [`Config::build`] builds exactly this (a test checks `bytes` against the
/// built structure's).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Config {
    pub filter: Filter,
    /// Keys it is configured for (and filled with).
    pub n: u64,
    /// The rate it was sized for.
    pub target: f64,
    pub shape: Shape,
    /// Bytes of its table as the implementation allocates it.
    pub bytes: u64,
    /// Keys over slots, for the slot-based structures.
    pub load: Option<f64>,
    /// Its theory's false-positive rate holding n keys.
    pub fpr_theory: f64,
}

impl Config {
    /// Bits of table per key.
    pub fn bits_per_key(&self) -> f64 {
        self.bytes as f64 * 8.0 / self.n.max(1) as f64
    }

    /// The configuration in words ("m = 958506, k = 7").
    pub fn words(&self) -> String {
        let load = self
            .load
            .map(|a| format!(", load {a:.3}"))
            .unwrap_or_default();
        match self.shape {
            Shape::Bits { m, k } => match self.filter {
                Filter::BlockedBloom => {
                    format!("m = {m} ({} 512-bit blocks), k = {k}", m / BLOCK_BITS)
                }
                Filter::DataSketchesBloom => format!("m = {m}, k = {k} (DataSketches' sizing)"),
                Filter::SplitBlockBloom => format!(
                    "2^{} blocks of 256 bits (Parquet writers' sizing), k = {k}",
                    (m / SBBF_BLOCK_BITS).trailing_zeros()
                ),
                _ => format!("m = {m}, k = {k}"),
            },
            Shape::Counters { m, k, width } => format!("m = {m} {width}-bit counters, k = {k}"),
            Shape::Cuckoo { buckets, b, f } => {
                format!(
                    "2^{} buckets × {b}, f = {f}{load}",
                    buckets.trailing_zeros()
                )
            }
            Shape::Quotient { q, r } => format!("2^{q} slots, r = {r}{load}"),
            Shape::Static { kind, slots, .. } => format!("{kind}, {slots} slots{load}"),
            Shape::Ribbon { r, slots } => {
                format!(
                    "w = 128, r = {r}, {} blocks of 128 slots{load}",
                    slots / 128
                )
            }
        }
    }

    /// The next larger configuration of the same structure, for a
    /// structure whose measured rate exceeded its target: one more
    /// fingerprint bit (cuckoo, quotient; the next width for a static
    /// filter), or a bit array sized for half the target (Bloom family).
    /// `None` when there is none.
    pub fn larger(&self) -> Option<Config> {
        let mut c = match self.shape {
            Shape::Cuckoo { buckets, b, f } if f < 32 => Config {
                shape: Shape::Cuckoo {
                    buckets,
                    b,
                    f: f + 1,
                },
                ..self.clone()
            },
            Shape::Quotient { q, r } if q + r < 64 => Config {
                shape: Shape::Quotient { q, r: r + 1 },
                ..self.clone()
            },
            Shape::Static { f, .. } => {
                let eps = fuse::fpr(f) / 2.0;
                return self.filter.configure(self.n, eps).ok().map(|mut c| {
                    c.target = self.target;
                    c
                });
            }
            Shape::Ribbon { r, .. } if r < ribbon::MAX_R => Config {
                shape: Shape::Ribbon {
                    r: r + 1,
                    slots: ribbon::slots(self.n, r + 1),
                },
                ..self.clone()
            },
            Shape::Bits { .. } | Shape::Counters { .. } => {
                let mut c = self
                    .filter
                    .configure(self.n, self.fpr_theory.min(self.target) / 2.0)
                    .ok()?;
                c.target = self.target;
                return Some(c);
            }
            _ => return None,
        };
        c.finish();
        Some(c)
    }

    /// The same structure at 2^−`shift` of its size, for a measurement
    /// that does not fit the machine: n and the table shrink together, so
    /// its load, fingerprint and bits per key stay (a static filter's slots
    /// follow its rule at the smaller n, which from 10^6 keys on is the
    /// same 1.125·n).
    pub fn scaled(&self, shift: u32) -> Config {
        let n = (self.n >> shift).max(1);
        let (shape, n) = match self.shape {
            Shape::Bits { m, k } => {
                let unit = match self.filter {
                    Filter::BlockedBloom => BLOCK_BITS,
                    Filter::SplitBlockBloom => SBBF_BLOCK_BITS,
                    Filter::DataSketchesBloom => 64,
                    _ => 1,
                };
                let m = ((m >> shift).max(1)).div_ceil(unit) * unit;
                (Shape::Bits { m, k }, n)
            }
            Shape::Counters { m, k, width } => (
                Shape::Counters {
                    m: (m >> shift).max(1),
                    k,
                    width,
                },
                n,
            ),
            Shape::Cuckoo { buckets, b, f } => {
                let buckets = (buckets >> shift).max(2);
                let keys = (self.load.unwrap_or(1.0) * (buckets * b as u64) as f64).round() as u64;
                (Shape::Cuckoo { buckets, b, f }, keys.max(1))
            }
            Shape::Quotient { q, r } => {
                let q = q.saturating_sub(shift).max(6);
                let keys = (self.load.unwrap_or(1.0) * (1u64 << q) as f64).round() as u64;
                (Shape::Quotient { q, r }, keys.max(1))
            }
            Shape::Static { kind, f, .. } => {
                let slots = match self.filter {
                    Filter::Xor => fuse::xor_slots(n),
                    _ => fuse::binary_fuse_slots(n),
                };
                (Shape::Static { kind, f, slots }, n)
            }
            Shape::Ribbon { r, .. } => (
                Shape::Ribbon {
                    r,
                    slots: ribbon::slots(n, r),
                },
                n,
            ),
        };
        let mut c = Config {
            n,
            shape,
            ..self.clone()
        };
        c.finish();
        c
    }

    /// This configuration with its bytes, load and theory recomputed from
    /// its shape (after the shape was changed).
    pub fn refit(mut self) -> Config {
        self.finish();
        self
    }

    /// Fills in bytes, load and theory from the shape.
    fn finish(&mut self) {
        let nf = self.n as f64;
        let (bytes, load, fpr) = match self.shape {
            Shape::Bits { m, k } => {
                let fpr = match self.filter {
                    Filter::BlockedBloom => {
                        bloom::fpr_blocked(nf, m as f64, k as f64, BLOCK_BITS as f64)
                    }
                    Filter::SplitBlockBloom => {
                        bloom::fpr_split_block(nf, (m / SBBF_BLOCK_BITS) as f64)
                    }
                    _ => bloom::fpr(nf, m as f64, k as f64),
                };
                (m.div_ceil(64) * 8, None, fpr)
            }
            Shape::Counters { m, k, width } => (
                (m * width as u64).div_ceil(8),
                None,
                bloom::fpr(nf, m as f64, k as f64),
            ),
            Shape::Cuckoo { buckets, b, f } => {
                let alpha = nf / (buckets * b as u64) as f64;
                (
                    (buckets * b as u64 * f as u64).div_ceil(8),
                    Some(alpha),
                    cuckoo::fpr(f, b as usize, alpha),
                )
            }
            Shape::Quotient { q, r } => {
                let alpha = nf / (1u64 << q) as f64;
                (
                    quotient::qfilter_bytes(q, r),
                    Some(alpha),
                    quotient::fpr(alpha, r),
                )
            }
            Shape::Static { f, slots, .. } => (
                (slots * f as u64).div_ceil(8),
                Some(nf / slots as f64),
                fuse::fpr(f),
            ),
            Shape::Ribbon { r, slots } => (
                ribbon::solution_bytes(slots, r),
                Some(nf / slots as f64),
                ribbon::fpr(r),
            ),
        };
        self.bytes = bytes;
        self.load = load;
        self.fpr_theory = fpr;
    }
}

impl Filter {
    pub const ALL: [Filter; 10] = [
        Filter::Bloom,
        Filter::BlockedBloom,
        Filter::SplitBlockBloom,
        Filter::CountingBloom,
        Filter::Cuckoo,
        Filter::Quotient,
        Filter::Xor,
        Filter::BinaryFuse,
        Filter::Ribbon,
        Filter::DataSketchesBloom,
    ];

    /// Every name, in [`Filter::ALL`] order.
    pub const NAMES: [&'static str; 10] = [
        "bloom",
        "blocked_bloom",
        "split_block_bloom",
        "counting_bloom",
        "cuckoo",
        "quotient",
        "xor",
        "binary_fuse",
        "ribbon",
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
        !self.is_static()
    }

    /// Whether it is built once from all its keys (xor, binary fuse,
    /// ribbon).
    pub fn is_static(self) -> bool {
        matches!(self, Filter::Xor | Filter::BinaryFuse | Filter::Ribbon)
    }

    /// Whether its table comes in powers of two (buckets, slots, blocks),
    /// so that an n just past a doubling point sits at half load.
    pub fn power_of_two(self) -> bool {
        matches!(
            self,
            Filter::Cuckoo | Filter::Quotient | Filter::SplitBlockBloom
        )
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
        !matches!(self, Filter::Cuckoo) && !self.is_static()
    }

    /// The static filter this structure uses for ε, if it is one: the
    /// narrowest width `xorf` offers with 2^−f ≤ ε.
    fn static_kind(self, eps: f64) -> Option<StaticKind> {
        let widths: &[StaticKind] = match self {
            Filter::Xor => &[StaticKind::Xor8, StaticKind::Xor16, StaticKind::Xor32],
            Filter::BinaryFuse => &[
                StaticKind::BinaryFuse8,
                StaticKind::BinaryFuse16,
                StaticKind::BinaryFuse32,
            ],
            _ => return None,
        };
        widths
            .iter()
            .copied()
            .find(|k| fuse::fpr(k.fingerprint_bits()) <= eps)
    }

    /// Why this structure cannot be sized for ε (`None`: it can).
    pub fn reach(self, eps: f64) -> Option<String> {
        match self {
            Filter::Xor | Filter::BinaryFuse if self.static_kind(eps).is_none() => Some(format!(
                "xorf's widest {} filter has 32-bit fingerprints, 2^-32 = {:.3e} > ε = {eps}",
                if self == Filter::Xor {
                    "xor"
                } else {
                    "binary fuse"
                },
                fuse::fpr(32)
            )),
            // 1 − ε^(1/8) rounds to 1: the writers' formula divides by ln 1 = 0
            // and their filter comes out at the 32-byte minimum
            Filter::SplitBlockBloom if 1.0 - eps.powf(1.0 / 8.0) == 1.0 => Some(format!(
                "Parquet writers' sizing formula breaks down at ε = {eps}: 1 − ε^(1/8) rounds to 1, ln 1 = 0, and the filter comes out at its 32-byte minimum"
            )),
            Filter::Ribbon if ribbon::result_bits(eps).is_none() => Some(format!(
                "pleat's widest ribbon result row has {} bits, 2^-{} = {:.3e} > ε = {eps}",
                ribbon::MAX_R,
                ribbon::MAX_R,
                ribbon::fpr(ribbon::MAX_R)
            )),
            Filter::Cuckoo if cuckoo::fingerprint_bits(eps, CUCKOO_B) > 32 => Some(format!(
                "a cuckoo fingerprint for ε = {eps} needs {} bits, over sketchlab's 32",
                cuckoo::fingerprint_bits(eps, CUCKOO_B)
            )),
            _ => None,
        }
    }

    /// The configuration this structure's implementation chooses for `n`
    /// keys at rate `eps` (see the module's table), or why there is none.
    pub fn configure(self, n: u64, eps: f64) -> crate::error::Result<Config> {
        if let Some(why) = self.reach(eps) {
            return Err(Error::input(why));
        }
        let n1 = n.max(1);
        let m = bloom::optimal_m(n1, eps);
        let k = bloom::optimal_k_int(m, n1);
        let shape = match self {
            Filter::Bloom => Shape::Bits { m, k },
            Filter::BlockedBloom => {
                let m = bloom::blocked_m_for(n1, eps, BLOCK_BITS).ok_or_else(|| {
                    Error::input(format!("512-bit blocks do not reach ε = {eps} with up to 7× a standard filter's bits"))
                })?;
                Shape::Bits {
                    m,
                    k: bloom::optimal_k_int(m, n1),
                }
            }
            Filter::SplitBlockBloom => Shape::Bits {
                m: bloom::split_block_bytes(n1, eps) * 8,
                k: 8,
            },
            Filter::CountingBloom => Shape::Counters {
                m,
                k,
                width: COUNTER_BITS,
            },
            Filter::Cuckoo => Shape::Cuckoo {
                buckets: cuckoo::buckets_for(n1, CUCKOO_B) as u64,
                b: CUCKOO_B as u32,
                f: cuckoo::fingerprint_bits(eps, CUCKOO_B).max(4),
            },
            Filter::Quotient => {
                let (q, r) = quotient::qfilter_qr(n1, eps)
                    .ok_or_else(|| Error::input(format!("qfilter cannot hold {n} keys")))?;
                Shape::Quotient { q, r }
            }
            Filter::Xor | Filter::BinaryFuse => {
                let kind = self.static_kind(eps).expect("reach() checked the width");
                let slots = match self {
                    Filter::Xor => fuse::xor_slots(n1),
                    _ => fuse::binary_fuse_slots(n1),
                };
                Shape::Static {
                    kind: kind.name(),
                    f: kind.fingerprint_bits(),
                    slots,
                }
            }
            Filter::Ribbon => {
                let r = ribbon::result_bits(eps).expect("reach() checked the width");
                Shape::Ribbon {
                    r,
                    slots: ribbon::slots(n1, r),
                }
            }
            Filter::DataSketchesBloom => {
                // with_accuracy: ⌈−n·ln ε/(ln 2)²⌉ bits, k = ⌈(m/n)·ln 2⌉, in whole words
                let k = ((m as f64 / n1 as f64) * std::f64::consts::LN_2)
                    .ceil()
                    .max(1.0) as u32;
                Shape::Bits {
                    m: m.div_ceil(64) * 64,
                    k,
                }
            }
        };
        let mut c = Config {
            filter: self,
            n,
            target: eps,
            shape,
            bytes: 0,
            load: None,
            fpr_theory: f64::NAN,
        };
        c.finish();
        Ok(c)
    }
}

#[path = "filters_build.rs"]
mod build;
pub use build::Built;

impl std::fmt::Display for Filter {
    /// The spec's word for it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
#[path = "filters_tests.rs"]
mod tests;
