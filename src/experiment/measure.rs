//! A kind's measurement, the trait every kind file implements ([`Measure`]),
//! and what one trial costs ([`Footprint`]). Below both the kinds' registry
//! (`kinds/`) and their views (`view/`, registered apart), which each build on it.

use super::params::{ParamSet, Seeds};
use super::row::Row;

/// What one trial needs, estimated from its parameters before anything is
/// allocated (`sketchlab plan`, the memory check before a run, and the cost
/// balance of `--shard`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Footprint {
    /// Bytes of the largest structure the trial builds.
    pub structure_bytes: f64,
    /// Peak heap bytes of the whole trial (structures, key buffers, peers).
    pub peak_bytes: f64,
    /// Relative cost in operations (keys hashed, probes): `plan` turns it
    /// into seconds with a short calibration run.
    pub work: f64,
}

/// A typed experiment kind: what each kind file implements.
pub trait Measure: Sync + 'static {
    type P: ParamSet;
    type R: Row;
    const NAME: &'static str;
    /// One line: what the kind measures.
    const ABOUT: &'static str;
    /// Checks across parameters of one trial: `Err((param, allowed))`.
    fn validate(&self, _p: &Self::P) -> crate::error::Result<()> {
        Ok(())
    }
    /// Whether trials must run one at a time and their rows depend on the
    /// clock (timing experiments): such rows are not byte-reproducible.
    const TIMING: bool = false;
    /// False for a kind whose rows depend on randomness it cannot seed (a
    /// peer crate that draws its key from the OS): its rows are not
    /// byte-reproducible, the manifest says so, and the determinism tests skip it.
    const REPRODUCIBLE: bool = true;
    /// The fewest replicates a study of this kind may ask for (a kind whose
    /// charts read the summary needs at least 2).
    const MIN_REPLICATES: u32 = 1;
    /// Runs one trial. All randomness must derive from `seeds`.
    fn run(&self, _p: &Self::P, _seeds: Seeds) -> anyhow::Result<Self::R> {
        anyhow::bail!(
            "bug: kind {} implements neither run nor run_rows",
            Self::NAME
        )
    }
    /// Runs one trial that yields several rows, told apart by the fields
    /// declared [`Agg::Key`](super::row::Agg::Key) (checkpoints along one
    /// stream: the whole curve costs one pass). Defaults to one row from [`Measure::run`].
    fn run_rows(&self, p: &Self::P, seeds: Seeds) -> anyhow::Result<Vec<Self::R>> {
        Ok(vec![self.run(p, seeds)?])
    }
    /// The complete key set of a trial (attack kinds: every key it adds or
    /// queries that was crafted), written to `OUT/<study>/keys.txt`: as hex
    /// when there are few, else as a generator line `sketchlab keys expand`
    /// turns back into them (see [`crate::experiment::disk`]). Regenerated
    /// from the trial's seed when the study is drawn, so resumed, sharded and
    /// rebuilt runs write the same file.
    fn keys(&self, _p: &Self::P, _seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        Ok(None)
    }
    /// The trial's memory and cost, from its parameters alone (`None`: the
    /// kind cannot estimate them, and `plan` says so).
    fn footprint(&self, _p: &Self::P) -> Option<Footprint> {
        None
    }
    /// How many distinct keys one trial draws from its key source (it uses
    /// key ids `0..N`): a key file (`keys = { file = … }`) must hold at least
    /// that many, checked before the study runs. `None`: the kind cannot
    /// draw its keys from a file.
    fn key_ids(&self, _p: &Self::P) -> Option<u64> {
        None
    }
    /// The independent draws behind a proportion `metric` in one trial (a
    /// filter's false-positive rate: its queries), so a spec can be checked
    /// for feasibility before it runs (`None`: the data alone tell).
    fn draws(&self, _p: &Self::P, _metric: &str) -> Option<f64> {
        None
    }
}
