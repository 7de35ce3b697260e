//! `hll_registers`: the relative error of each HyperLogLog estimator over many
//! sketches (replicates) per precision p at a fixed n, next to 1.04/√m (and
//! 0.833/√m for HIP); memory per p.

use super::peers::{self, Peers};
use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::kinds::footprint::hll_bytes;
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::StrategyId;
use crate::structures::hyperloglog::{HyperLogLog, theory};
use crate::workload::{KeyGen, KeyType};

pub struct HllRegisters;

crate::params! {
    pub struct P {
        p: u32 [bits] = common::int(4, 18, Def::Required, "precision: 2^p registers"),
        n: u64 [count] = common::count(Def::Int(1_000_000), "distinct keys per sketch"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
        peer_share: f64 [fraction] = crate::experiment::params::ParamDef::new("", crate::experiment::kinds::bloom::bloom_overfill::FRACTION, Def::Float(1.0), "share of the sketches (picked by their seed) the peer crates also count"),
    }
}

crate::row! {
    pub struct R, summary Rs {
        m: usize [Same, count],
        bytes_used: usize [Same, bytes],
        /// α_m as used (the paper's table, or 0.7213/(1 + 1.079/m)).
        alpha_m: f64 [Same, number],
        /// The exact α_m (the paper's integral).
        alpha_exact: f64 [Same, number],
        alpha_approx_over_exact: f64 [Same, ratio],
        /// 100 million 16-byte IDs (1.6 GB) ÷ the registers' bytes.
        space_factor_1_6gb: f64 [Same, ratio],
        /// The largest register value (a rank): what the 6 bits must hold.
        max_register: u64 [Max, count],
        /// 1.04/√m.
        se_theory: f64 [Same, relative_error],
        /// 0.833/√m (HIP, Ting 2014).
        hip_se_theory: f64 [Same, relative_error],
        /// (estimate − n)/n per estimator; the summary's mean is the bias, its sd the RSE.
        err_raw: f64 [relative_error],
        err_linear_counting: f64 [relative_error],
        err_hllpp: f64 [relative_error],
        err_ertl: f64 [relative_error],
        /// err_ertl ÷ 1.04/√m: its sd is the RSE in units of the formula.
        err_ertl_in_se: f64 [ratio],
        err_hip: f64 [relative_error],
        /// The peer crates on the same keys (empty on sketches outside `peer_share`).
        err_datasketches: Option<f64> [relative_error],
        err_datasketches_composite: Option<f64> [relative_error],
        err_hyperloglogplus: Option<f64> [relative_error],
        err_cardinality_estimator: Option<f64> [relative_error],
    }
}

/// The exact α_m for p = 4..=18, computed once (an integral per p).
fn alpha_exact(p: u32) -> f64 {
    static A: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    A.get_or_init(|| (4..=18).map(|p| theory::alpha_exact(1 << p)).collect())[(p - 4) as usize]
}

impl Measure for HllRegisters {
    type P = P;
    type R = R;
    const NAME: &'static str = "hll_registers";
    const ABOUT: &'static str = "HyperLogLog relative error per precision and estimator over many sketches, vs 1.04/sqrt(m)";
    const MIN_REPLICATES: u32 = 2;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let mut h = HyperLogLog::new(p.p, p.hash_seed.hasher(p.hash, seeds))?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        // a seeded share of the sketches: its draw is part of the trial's identity
        let draw = (seeds.derive("peer share") >> 11) as f64 / (1u64 << 53) as f64;
        let with_peers = draw < p.peer_share;
        let mut others = with_peers
            .then(|| Peers::new(p.p, seeds.derive("peer hash")))
            .transpose()?;
        for id in 0..p.n {
            let key = keys.key(id);
            h.insert(key);
            if let Some(o) = others.as_mut() {
                o.insert(key);
            }
        }
        let n = p.n as f64;
        let err = |e: f64| e / n - 1.0;
        let peer: Vec<Option<f64>> = match others.as_mut() {
            Some(o) => o.estimates().into_iter().map(|e| Some(err(e))).collect(),
            None => vec![None; peers::NAMES.len()],
        };
        let m = h.m();
        Ok(R {
            m,
            bytes_used: h.bytes_used(),
            alpha_m: theory::alpha(m),
            alpha_exact: alpha_exact(p.p),
            alpha_approx_over_exact: theory::alpha(m) / alpha_exact(p.p),
            space_factor_1_6gb: 1.6e9 / h.bytes_used() as f64,
            max_register: (0..m)
                .map(|i| h.registers().get(i) as u64)
                .max()
                .unwrap_or(0),
            se_theory: theory::standard_error(m),
            hip_se_theory: theory::hip_standard_error(m),
            err_raw: err(h.raw()),
            err_linear_counting: err(h.linear_counting()),
            err_hllpp: err(h.hllpp()),
            err_ertl: err(h.ertl()),
            err_ertl_in_se: err(h.ertl()) / theory::standard_error(m),
            err_hip: err(h.hip().expect("unmerged")),
            err_datasketches: peer[0],
            err_datasketches_composite: peer[1],
            err_hyperloglogplus: peer[2],
            err_cardinality_estimator: peer[3],
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // sketchlab's registers and, for a share of the sketches, three peers of about 2^p bytes each
        let peers = 3.0 * (1u64 << p.p) as f64 * p.peer_share;
        Some(Footprint::one(hll_bytes(p.p), p.n as f64 * (1.0 + 3.0 * p.peer_share)).plus(peers))
    }
}
