//! Every distinct-count sketch sketchlab measures, at 2^lg_k registers (or
//! bins, or nominal entries), behind [`Cardinality`]: sketchlab's
//! HyperLogLog (6-bit packed registers, and the same registers one byte
//! each), UltraLogLog (the `ultraloglog` crate, fed the study's 64-bit hash),
//! and Apache DataSketches' CPC, theta and HLL_4/6/8 (`datasketches` 0.6,
//! each through its own hash of the raw key bytes).
//!
//! | name | estimators (one sketch) | after a merge | bytes counted | asymptotic RSE |
//! |---|---|---|---|---|
//! | `hll6`, `hll8` | `ertl`, `hip` | `ertl` (HIP's history is lost) | 6·m/8, m | 1.04/√m; HIP 0.833/√m |
//! | `ultraloglog` | `fgra`, `ml`, `martingale` | `fgra` | m (one byte per register) | √(0.6119/m); ML 0.7609/√m; martingale 0.658/√m (Ertl 2024; hash4j) |
//! | `cpc` | `hip` | `icon` | its serialized (compressed) image | HIP √(ln 2/2)/√k = 0.5887/√k; ICON ln 2/√k (Lang 2017) |
//! | `theta` | `theta` | `theta` | its compact serialized image | ≤ 1/√(k − 1) (k nominal entries, KMV) |
//! | `datasketches_hll4/6/8` | `hip`, `composite` | `composite` | its serialized image | HIP 0.833/√k; 1.04/√k |
//!
//! The bytes are the state one stores or ships (what the memory-variance
//! product, bits · RSE², is defined on); [`Counter::bytes_in_memory`] is
//! what the process holds while updating.

use crate::hashing::KeyHasher;
use crate::structures::hyperloglog::{HyperLogLog, theory as hll};
use crate::structures::{Cardinality, MergeError};
use datasketches::cpc::{CpcSketch, CpcUnion};
use datasketches::hash::value::raw_bytes;
use datasketches::hll::{HllSketch, HllType, HllUnion};
use datasketches::theta::{ThetaSketch, ThetaSketchBuilder, ThetaUnionBuilder};
use ultraloglog::{
    Estimator, MaximumLikelihoodEstimator, OptimalFGRAEstimator, StateChangeObserver, UltraLogLog,
};

/// One sketch of the menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sketch {
    Hll6,
    Hll8,
    UltraLogLog,
    Cpc,
    Theta,
    DataSketchesHll4,
    DataSketchesHll6,
    DataSketchesHll8,
}

/// DataSketches' default update seed (its `DEFAULT_UPDATE_SEED`, not public).
const DATASKETCHES_SEED: u64 = 9001;
/// ULL's FGRA estimator's asymptotic relative variance times m (hash4j's `V`).
const ULL_FGRA_V: f64 = 0.611_893_149_697_843_7;
/// ULL's ML estimator: 1/√(Fisher information) per register.
const ULL_ML: f64 = 0.760_862_100_272_518_2;
/// ULL's martingale estimator: RSE·√m, as hash4j documents it (MVP 3.46).
const ULL_MARTINGALE: f64 = 0.658;
/// CPC's HIP and ICON error constants (DataSketches' `cpc/estimator.rs`).
const CPC_HIP: f64 = 0.588_705_011_257_737_3;
const CPC_ICON: f64 = std::f64::consts::LN_2;

impl Sketch {
    pub const ALL: [Sketch; 8] = [
        Sketch::Hll6,
        Sketch::Hll8,
        Sketch::UltraLogLog,
        Sketch::Cpc,
        Sketch::Theta,
        Sketch::DataSketchesHll4,
        Sketch::DataSketchesHll6,
        Sketch::DataSketchesHll8,
    ];

    pub const NAMES: [&'static str; 8] = [
        "hll6",
        "hll8",
        "ultraloglog",
        "cpc",
        "theta",
        "datasketches_hll4",
        "datasketches_hll6",
        "datasketches_hll8",
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[Self::ALL.iter().position(|&s| s == self).unwrap_or(0)]
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .position(|&n| n == s)
            .map(|i| Self::ALL[i])
    }

    /// The estimators of a sketch that was never merged.
    pub fn estimators(self) -> &'static [&'static str] {
        match self {
            Sketch::Hll6 | Sketch::Hll8 => &["ertl", "hip"],
            Sketch::UltraLogLog => &["fgra", "ml", "martingale"],
            Sketch::Cpc => &["hip"],
            Sketch::Theta => &["theta"],
            _ => &["hip", "composite"],
        }
    }

    /// The estimator a merged sketch answers with.
    pub fn merged_estimator(self) -> &'static str {
        match self {
            Sketch::Hll6 | Sketch::Hll8 => "ertl",
            Sketch::UltraLogLog => "fgra",
            Sketch::Cpc => "icon",
            Sketch::Theta => "theta",
            _ => "composite",
        }
    }

    /// The estimator's asymptotic relative standard error at 2^lg_k
    /// (theta: the KMV bound 1/√(k − 1), which its retained entries beat).
    pub fn rse_theory(self, estimator: &str, lg_k: u32) -> Option<f64> {
        let m = 1usize << lg_k;
        let root = (m as f64).sqrt();
        Some(match (self, estimator) {
            (Sketch::UltraLogLog, "fgra") => (ULL_FGRA_V / m as f64).sqrt(),
            (Sketch::UltraLogLog, "ml") => ULL_ML / root,
            (Sketch::UltraLogLog, "martingale") => ULL_MARTINGALE / root,
            (Sketch::Cpc, "hip") => CPC_HIP / root,
            (Sketch::Cpc, "icon") => CPC_ICON / root,
            (Sketch::Theta, "theta") => 1.0 / ((m - 1) as f64).sqrt(),
            (_, "hip") => hll::hip_standard_error(m),
            (_, "ertl" | "composite") => hll::standard_error(m),
            _ => return None,
        })
    }

    /// Whether the estimator is one of a sketch never merged (HIP, the
    /// martingale: its history), which the non-mergeable bound applies to.
    pub fn history_estimator(estimator: &str) -> bool {
        matches!(estimator, "hip" | "martingale")
    }

    /// The largest lg_k this sketch's implementation accepts, read from the
    /// implementation itself: the largest its constructor builds
    /// (DataSketches CPC and theta 26, its HLL 21, `ultraloglog` 26 in
    /// their current releases; sketchlab's HyperLogLog
    /// [`crate::structures::hyperloglog::P_MAX`]). Probed once per sketch.
    pub fn max_lg_k(self) -> u32 {
        use std::sync::OnceLock;
        static CAPS: [OnceLock<u32>; 8] = [const { OnceLock::new() }; 8];
        let i = Self::ALL.iter().position(|&s| s == self).unwrap_or(0);
        *CAPS[i].get_or_init(|| {
            let h = crate::hashing::HashStrategy::new(
                crate::hashing::StrategyId::Xxh3,
                crate::hashing::SeedPolicy::Fixed(0),
            );
            // from the top down, so at most one accepted sketch is built
            (4..=40u32)
                .rev()
                .find(|&k| self.build(k, h.clone()).is_ok())
                .unwrap_or(4)
        })
    }

    /// An empty sketch at 2^lg_k (4 up to [`Sketch::max_lg_k`]: each
    /// implementation checks its own range). `hasher` feeds sketchlab's HLL and UltraLogLog; DataSketches'
    /// sketches hash with their default seed (9001), as a user of the crate
    /// gets them: `CpcSketch::with_seed(10, 8)` counts 100,000 distinct u64
    /// keys as 6,711 (seed 8 alone of 0..400; the test below keeps it).
    pub fn build<H: KeyHasher>(self, lg_k: u32, hasher: H) -> anyhow::Result<Counter<H>> {
        let seed = DATASKETCHES_SEED;
        anyhow::ensure!(lg_k >= 4, "lg_k = {lg_k} below 4");
        let k = u8::try_from(lg_k)?;
        let ds = |t| HllSketch::new(k, t).map(|s| Counter::DsHll(s, t));
        Ok(match self {
            Sketch::Hll6 | Sketch::Hll8 => Counter::Hll {
                sketch: HyperLogLog::new(lg_k, hasher)?,
                byte_registers: self == Sketch::Hll8,
            },
            Sketch::UltraLogLog => Counter::Ull {
                sketch: UltraLogLog::new(lg_k).map_err(anyhow::Error::msg)?,
                hasher,
                martingale: Martingale::default(),
            },
            Sketch::Cpc => Counter::Cpc(CpcSketch::with_seed(k, seed)?, seed),
            Sketch::Theta => Counter::Theta {
                sketch: ThetaSketchBuilder::default().lg_k(k).seed(seed).build()?,
                lg_k: k,
                seed,
            },
            Sketch::DataSketchesHll4 => ds(HllType::Hll4)?,
            Sketch::DataSketchesHll6 => ds(HllType::Hll6)?,
            Sketch::DataSketchesHll8 => ds(HllType::Hll8)?,
        })
    }
}

/// The martingale (HIP) estimator of an UltraLogLog, fed by the crate's
/// state-change observer: each change of state adds 1/P(change) to the
/// count, then lowers P by the change's probability decrement (Ertl 2024,
/// Section 4; hash4j's `MartingaleEstimator`). Valid for a sketch only
/// ever updated through it, never merged.
#[derive(Clone, Copy, Debug)]
pub struct Martingale {
    count: f64,
    change_probability: f64,
}

impl Default for Martingale {
    fn default() -> Self {
        Martingale {
            count: 0.0,
            change_probability: 1.0,
        }
    }
}

impl StateChangeObserver for Martingale {
    fn state_changed(&mut self, probability_decrement: f64) {
        self.count += 1.0 / self.change_probability;
        self.change_probability -= probability_decrement;
    }
}

/// A sketch of the menu, filled by [`Cardinality::insert`].
pub enum Counter<H: KeyHasher> {
    Hll {
        sketch: HyperLogLog<H>,
        byte_registers: bool,
    },
    Ull {
        sketch: UltraLogLog,
        hasher: H,
        martingale: Martingale,
    },
    /// The sketch and its seed (a union must hash with the same one).
    Cpc(CpcSketch, u64),
    Theta {
        sketch: ThetaSketch,
        lg_k: u8,
        seed: u64,
    },
    DsHll(HllSketch, HllType),
}

impl<H: KeyHasher> Counter<H> {
    /// Bytes of the state one stores or ships.
    pub fn bytes(&self) -> usize {
        match self {
            Counter::Hll {
                sketch,
                byte_registers,
            } => {
                if *byte_registers {
                    sketch.m()
                } else {
                    sketch.bytes_used()
                }
            }
            Counter::Ull { sketch, .. } => sketch.get_state().len(),
            Counter::Cpc(s, _) => s.serialize().len(),
            Counter::Theta { sketch, .. } => sketch.compact(true).serialize().len(),
            Counter::DsHll(s, _) => s.serialize().len(),
        }
    }

    /// Bytes the process holds while updating.
    pub fn bytes_in_memory(&self) -> usize {
        match self {
            Counter::Cpc(s, _) => s.estimated_size(),
            Counter::Theta { sketch, .. } => sketch.estimated_size(),
            Counter::DsHll(s, _) => s.estimated_size(),
            _ => self.bytes(),
        }
    }

    /// The union of `self` and `other` (same kind and size), estimated by
    /// the merged estimator: (estimate, bytes of the merged state).
    pub fn merged(&self, other: &Self) -> Result<(f64, usize), MergeError> {
        let shape = || MergeError::Shape("two sketches of different kinds".into());
        Ok(match (self, other) {
            (
                Counter::Hll {
                    sketch,
                    byte_registers,
                },
                Counter::Hll { sketch: b, .. },
            ) => {
                let mut u = HyperLogLog::new(sketch.p(), sketch.clone_hasher())
                    .map_err(|e| MergeError::Shape(e.to_string()))?;
                u.merge(sketch)?;
                u.merge(b)?;
                let bytes = if *byte_registers {
                    u.m()
                } else {
                    u.bytes_used()
                };
                (u.ertl(), bytes)
            }
            (Counter::Ull { sketch, .. }, Counter::Ull { sketch: b, .. }) => {
                let u = UltraLogLog::merge(sketch, b).map_err(|e| MergeError::Shape(e.into()))?;
                (OptimalFGRAEstimator.estimate(&u), u.get_state().len())
            }
            (Counter::Cpc(a, seed), Counter::Cpc(b, _)) => {
                let mut u = CpcUnion::with_seed(a.lg_k(), *seed)
                    .map_err(|e| MergeError::Shape(e.to_string()))?;
                for s in [a, b] {
                    u.update(s).map_err(|e| MergeError::Shape(e.to_string()))?;
                }
                let s = u.to_sketch();
                (s.estimate(), s.serialize().len())
            }
            (Counter::Theta { sketch, lg_k, seed }, Counter::Theta { sketch: b, .. }) => {
                let mut u = ThetaUnionBuilder::default()
                    .lg_k(*lg_k)
                    .seed(*seed)
                    .build()
                    .map_err(|e| MergeError::Shape(e.to_string()))?;
                for s in [sketch, b] {
                    u.update(s).map_err(|e| MergeError::Shape(e.to_string()))?;
                }
                let s = u.to_sketch(true);
                (s.estimate(), s.serialize().len())
            }
            (Counter::DsHll(a, t), Counter::DsHll(b, _)) => {
                let mut u =
                    HllUnion::new(a.lg_config_k()).map_err(|e| MergeError::Shape(e.to_string()))?;
                u.update(a);
                u.update(b);
                let s = u.to_sketch(*t);
                (s.estimate(), s.serialize().len())
            }
            _ => return Err(shape()),
        })
    }
}

impl<H: KeyHasher> Cardinality for Counter<H> {
    fn estimators(&self) -> &'static [&'static str] {
        match self {
            Counter::Hll { .. } => Sketch::Hll6.estimators(),
            Counter::Ull { .. } => Sketch::UltraLogLog.estimators(),
            Counter::Cpc(..) => Sketch::Cpc.estimators(),
            Counter::Theta { .. } => Sketch::Theta.estimators(),
            Counter::DsHll(..) => Sketch::DataSketchesHll8.estimators(),
        }
    }

    fn insert(&mut self, key: &[u8]) {
        match self {
            Counter::Hll { sketch, .. } => {
                sketch.insert(key);
            }
            Counter::Ull {
                sketch,
                hasher,
                martingale,
            } => {
                sketch.add_with_observer(hasher.hash128(key).0, Some(martingale));
            }
            Counter::Cpc(s, _) => s.update(raw_bytes::from_slice(key)),
            Counter::Theta { sketch, .. } => sketch.update(raw_bytes::from_slice(key)),
            Counter::DsHll(s, _) => s.update(raw_bytes::from_slice(key)),
        }
    }

    fn estimate(&self, estimator: &str) -> Option<f64> {
        match (self, estimator) {
            (Counter::Hll { sketch, .. }, "ertl") => Some(sketch.ertl()),
            (Counter::Hll { sketch, .. }, "hip") => sketch.hip(),
            (Counter::Ull { sketch, .. }, "fgra") => Some(OptimalFGRAEstimator.estimate(sketch)),
            (Counter::Ull { sketch, .. }, "ml") => {
                Some(MaximumLikelihoodEstimator.estimate(sketch))
            }
            (Counter::Ull { martingale, .. }, "martingale") => Some(martingale.count),
            (Counter::Cpc(s, _), "hip") => Some(s.estimate()),
            (Counter::Theta { sketch, .. }, "theta") => Some(sketch.estimate()),
            (Counter::DsHll(s, _), "hip") => Some(s.estimate()),
            (Counter::DsHll(s, _), "composite") => Some(s.composite_estimate()),
            _ => None,
        }
    }
}

/// An UltraLogLog of 2^p registers after `n` distinct uniform 64-bit hashes,
/// drawn without hashing them (for n no stream reaches in a study's
/// budget): with the n hashes Poissonized, a register holds a hash with
/// `nlz` = j leading zeros after its index bits independently for every j,
/// with probability 1 − exp(−(n/m)·2^−(j+1)) (2^−(64−p) for the last j,
/// whose bits are all zero); one hash per level present, built to land
/// on register i with that j, gives the state the stream would have.
pub fn ultraloglog_after<R: rand::Rng>(p: u32, n: f64, rng: &mut R) -> anyhow::Result<UltraLogLog> {
    use rand::RngExt;
    let mut u = UltraLogLog::new(p).map_err(anyhow::Error::msg)?;
    let q = 64 - p;
    let per_register = n / (1u64 << p) as f64;
    for i in 0..1u64 << p {
        for j in 0..=q {
            let share = if j < q {
                2f64.powi(-(j as i32) - 1)
            } else {
                2f64.powi(-(q as i32))
            };
            let present = -(-per_register * share).exp_m1();
            if rng.random::<f64>() < present {
                let low = if j < q { 1u64 << (q - 1 - j) } else { 0 };
                u.add((i << q) | low);
            }
        }
    }
    Ok(u)
}

impl std::fmt::Display for Sketch {
    /// The spec's word for it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
    use crate::stats;

    /// Every sketch and estimator of the menu at one quick point (2^10
    /// registers, n = 20,000 distinct keys, 200 sketches): the relative
    /// error's standard deviation has the published constant inside its
    /// 99.9% chi-square interval (theta: at most its KMV bound), and the
    /// merge of two halves estimates the whole within the merged
    /// estimator's constant.
    #[test]
    fn every_menu_sketch_meets_its_published_error_constant() {
        let (lg_k, n, sketches) = (10u32, 20_000u64, 200u64);
        for s in Sketch::ALL {
            let mut errs: Vec<Vec<f64>> = vec![Vec::new(); s.estimators().len()];
            let mut merged = Vec::new();
            for r in 0..sketches {
                let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(r));
                let mut c = s.build(lg_k, h.clone()).unwrap();
                let (mut a, mut b) = (s.build(lg_k, h.clone()).unwrap(), s.build(lg_k, h).unwrap());
                for i in 0..n {
                    let key = (i ^ (r << 40)).to_le_bytes();
                    c.insert(&key);
                    if i % 2 == 0 {
                        a.insert(&key)
                    } else {
                        b.insert(&key)
                    }
                }
                for (j, e) in s.estimators().iter().enumerate() {
                    errs[j].push(c.estimate(e).unwrap() / n as f64 - 1.0);
                }
                merged.push(a.merged(&b).unwrap().0 / n as f64 - 1.0);
                assert!(c.bytes() > 0 && c.bytes_in_memory() > 0, "{s:?}");
            }
            let named = s.estimators().iter().map(|e| (*e, false));
            let all: Vec<(&str, bool)> = named.chain([(s.merged_estimator(), true)]).collect();
            for (j, (e, is_merged)) in all.into_iter().enumerate() {
                let v = if is_merged { &merged } else { &errs[j] };
                let (_, sd) = stats::mean_sd(v);
                let i = stats::sd_interval(sd, v.len(), 0.999);
                let theory = s.rse_theory(e, lg_k).unwrap();
                let ok = if s == Sketch::Theta {
                    i.lo <= theory
                } else {
                    i.lo <= theory && theory <= i.hi
                };
                assert!(
                    ok,
                    "{s:?} {e} (merged: {is_merged}): sd {sd} [{}, {}] vs {theory}",
                    i.lo, i.hi
                );
            }
        }
    }

    #[test]
    fn names_round_trip_and_unknown_estimators_are_none() {
        for s in Sketch::ALL {
            assert_eq!(Sketch::from_name(s.name()), Some(s));
            for e in s.estimators() {
                assert!(s.rse_theory(e, 12).is_some(), "{s:?} {e}");
            }
        }
        let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1));
        let c = Sketch::Cpc.build(12, h).unwrap();
        assert_eq!(c.estimate("ertl"), None);
        assert!(
            Sketch::Hll6
                .build(
                    30,
                    HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(1))
                )
                .is_err()
        );
    }

    /// A peer's defect, kept so a fixed release shows up here: DataSketches
    /// 0.6's CPC sketch seeded with 8 (of seeds 0..400, the only one) counts
    /// 100,000 distinct little-endian u64 keys as about 6,700; seed 7 and
    /// the default seed count them within 5%. The menu uses the default.
    #[test]
    fn datasketches_cpc_with_seed_8_undercounts_integer_keys() {
        let n = 100_000u64;
        let count = |seed| {
            let mut d = CpcSketch::with_seed(10, seed).unwrap();
            for i in 0..n {
                d.update(raw_bytes::from_slice(&(i ^ (999 << 40)).to_le_bytes()));
            }
            d.estimate() / n as f64
        };
        assert!(
            count(8) < 0.1,
            "seed 8 now counts {}: the defect is fixed upstream",
            count(8)
        );
        for seed in [7, DATASKETCHES_SEED] {
            assert!(
                (count(seed) - 1.0).abs() < 0.05,
                "seed {seed}: {}",
                count(seed)
            );
        }
    }

    /// The simulated UltraLogLog has the streamed one's error: at n = 10^6
    /// and 2^10 registers, over 300 simulated sketches, the mean error
    /// within 4 standard errors of 0 and both estimators' RSE constants
    /// inside the 99.9% chi-square interval; one hash that lands where the
    /// simulation says gives the state the crate's own add gives.
    #[test]
    fn a_simulated_ultraloglog_errs_as_a_streamed_one() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(5);
        let (p, n) = (10u32, 1e6);
        let (mut fgra, mut ml) = (Vec::new(), Vec::new());
        for _ in 0..300 {
            let u = ultraloglog_after(p, n, &mut rng).unwrap();
            fgra.push(OptimalFGRAEstimator.estimate(&u) / n - 1.0);
            ml.push(MaximumLikelihoodEstimator.estimate(&u) / n - 1.0);
        }
        for (e, v) in [("fgra", &fgra), ("ml", &ml)] {
            let (mean, sd) = stats::mean_sd(v);
            let theory = Sketch::UltraLogLog.rse_theory(e, p).unwrap();
            assert!(
                mean.abs() < 4.0 * theory / (v.len() as f64).sqrt(),
                "{e}: bias {mean}"
            );
            let i = stats::sd_interval(sd, v.len(), 0.999);
            assert!(
                i.lo <= theory && theory <= i.hi,
                "{e}: sd {sd} [{}, {}] vs {theory}",
                i.lo,
                i.hi
            );
        }
        // register 5, 3 leading zeros: the same byte as the crate's add of such a hash
        let mut a = UltraLogLog::new(4).unwrap();
        a.add((5u64 << 60) | (1u64 << (60 - 1 - 3)) | 0x1234);
        let mut b = UltraLogLog::new(4).unwrap();
        b.add((5u64 << 60) | (1u64 << (60 - 1 - 3)));
        assert_eq!(a.get_state(), b.get_state());
    }
}
