//! The hazard of a filter that deletes: deleting a key that was never
//! inserted removes what another key left behind (a counting Bloom
//! filter's counters, a cuckoo or quotient filter's matching fingerprint),
//! and that member then answers "no": a false negative, the one error the
//! structure promised not to make. Measured here on the configuration the
//! review recommends, at the same load.

use super::measure::Keys;
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::structures::menu::Config;
use serde::Serialize;

/// Members in the measured instance at most (scaled at the same load).
const MAX_MEMBERS: u64 = 1 << 18;
/// Never-inserted keys deleted.
const BOGUS: u64 = 100_000;
/// Ids of the bogus keys start here (past any member or absent query).
const BOGUS_BASE: u64 = 1 << 50;

/// Deleting keys never inserted, measured.
#[derive(Clone, Debug, Serialize)]
pub struct DeleteHazard {
    pub structure: String,
    /// The instance measured (the configuration, scaled to at most 2^18 keys).
    pub configuration: String,
    pub members: u64,
    pub bogus_deletes: u64,
    /// Bogus deletes the structure accepted (found something to remove).
    pub accepted: u64,
    /// Members answering "no" afterwards.
    pub false_negatives: u64,
    /// False negatives per bogus delete, with its 95% Clopper–Pearson interval.
    pub rate: f64,
    pub rate_lo: f64,
    pub rate_hi: f64,
}

/// Deletes [`BOGUS`] never-inserted keys from `c` filled with its members
/// and counts the members lost; `None` for a structure that cannot delete.
pub fn measure(c: &Config, keys: &Keys, seed: u64) -> Option<DeleteHazard> {
    let shift = (c.n.max(1) as f64 / MAX_MEMBERS as f64)
        .log2()
        .ceil()
        .max(0.0) as u32;
    let inst = c.scaled(shift);
    let hasher = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(seed));
    let mut f = inst.build_deletable(hasher, seed).ok()??;
    for id in 0..inst.n {
        keys.with(id, |k| f.insert(k)).ok()?;
    }
    let accepted = (0..BOGUS)
        .filter(|&i| keys.with(BOGUS_BASE + i, |k| f.remove(k)).is_ok())
        .count() as u64;
    let lost = (0..inst.n)
        .filter(|&id| !keys.with(id, |k| f.contains(k)))
        .count() as u64;
    let (lo, hi) = crate::stats::clopper_pearson(lost, BOGUS, super::measure::CONFIDENCE);
    Some(DeleteHazard {
        structure: c.filter.name().into(),
        configuration: inst.words(),
        members: inst.n,
        bogus_deletes: BOGUS,
        accepted,
        false_negatives: lost,
        rate: lost as f64 / BOGUS as f64,
        rate_lo: lo,
        rate_hi: hi,
    })
}

impl DeleteHazard {
    /// The warning in one sentence.
    pub fn warning(&self) -> String {
        use crate::export::markdown::pct;
        format!(
            "Deletes: delete only keys you inserted. Deleting {} keys never inserted from {} ({}, {} members) removed {} members' entries ({} of the deletes found something to remove): {} false negatives per bogus delete [{}, {}], about its FPR. After that a \"no\" is no longer always right.",
            crate::design::render::count(self.bogus_deletes as f64),
            self.structure,
            self.configuration,
            crate::design::render::count(self.members as f64),
            crate::design::render::count(self.false_negatives as f64),
            crate::design::render::count(self.accepted as f64),
            pct(self.rate, 3),
            pct(self.rate_lo, 3),
            pct(self.rate_hi, 3)
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::structures::menu::Filter;

    /// Bogus deletes cause false negatives at about the FPR, for every
    /// structure that deletes.
    #[test]
    fn bogus_deletes_lose_members() {
        let keys = super::Keys::new(None, 5);
        for f in [Filter::Cuckoo, Filter::Quotient, Filter::CountingBloom] {
            let c = f.configure(50_000, 0.01).unwrap();
            let h = super::measure(&c, &keys, 5).unwrap();
            assert!(h.false_negatives > 0, "{h:?}");
            assert!(h.rate_lo < 0.05 && h.rate_hi > 0.0005, "{h:?}");
        }
        let c = Filter::Bloom.configure(1000, 0.01).unwrap();
        assert!(super::measure(&c, &keys, 5).is_none());
    }
}
