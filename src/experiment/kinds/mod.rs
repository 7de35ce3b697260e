//! Experiment kinds: each turns one trial's parameters into one row, and
//! describes its charts and report section from rows alone. Registered in
//! [`KINDS`]; a new kind is a new file plus one line there.

mod birthday;
mod bloom_fpr;
mod bloom_overfill;
mod bloom_sizing;
mod common;
mod doc_examples;
mod double_hashing;
mod hash_in_structures;
mod hash_quality;
mod hash_speed;
mod hit_rate;
mod key_size;

use super::params::{ParamDef, Params};
use super::table::{Metrics, Table};
use crate::plot::Chart;

/// What a kind contributes to REPORT.md: a regenerated table and a one-line
/// reading of it, both computed from the rows.
#[derive(Clone, Debug, Default)]
pub struct Section {
    pub table: Table,
    pub reading: String,
}

/// What every kind declares: its name, a one-line description, its
/// parameters (with types and ranges) and its output columns.
pub struct KindInfo {
    pub name: &'static str,
    /// One line: what the kind measures.
    pub about: &'static str,
    pub params: &'static [ParamDef],
    /// Measured and theory columns, in CSV order.
    pub metrics: &'static [&'static str],
}

pub trait Kind: Sync {
    fn info(&self) -> &'static KindInfo;
    fn name(&self) -> &'static str {
        self.info().name
    }
    fn about(&self) -> &'static str {
        self.info().about
    }
    fn params(&self) -> &'static [ParamDef] {
        self.info().params
    }
    fn metrics(&self) -> &'static [&'static str] {
        self.info().metrics
    }
    /// Checks across parameters of one trial: `Err((param, allowed))`.
    fn check(&self, _p: &Params) -> Result<(), (&'static str, String)> {
        Ok(())
    }
    /// Whether trials must run one at a time (timing experiments: a second
    /// trial on the other core would share caches and memory bandwidth).
    fn serial(&self) -> bool {
        false
    }
    /// Whether rows are a pure function of the seed (false for timings);
    /// the determinism guarantee covers only deterministic kinds.
    fn deterministic(&self) -> bool {
        true
    }
    /// Runs one trial. All randomness must derive from `seed`.
    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics>;
    fn charts(&self, t: &Table) -> Vec<Chart>;
    fn section(&self, t: &Table) -> Section;
    /// Matrix figures (PNG only), also drawn from rows alone.
    fn heatmaps(&self, _t: &Table) -> Vec<crate::plot::Heatmap> {
        Vec::new()
    }

    /// The CSV header: parameters, `trial`, `seed`, then metrics.
    fn columns(&self) -> Vec<&'static str> {
        let mut c: Vec<&'static str> = self.params().iter().map(|d| d.name).collect();
        c.push("trial");
        c.push("seed");
        c.extend_from_slice(self.metrics());
        c
    }
}

/// Every kind, by name.
pub static KINDS: &[&dyn Kind] = &[
    &bloom_fpr::BloomFpr,
    &bloom_sizing::BloomSizing,
    &bloom_overfill::BloomOverfill,
    &hit_rate::HitRate,
    &key_size::KeySize,
    &double_hashing::DoubleHashing,
    &doc_examples::DocExamples,
    &hash_speed::HashSpeed,
    &hash_quality::HashQuality,
    &hash_in_structures::HashInStructures,
    &birthday::Birthday,
    &birthday::BirthdayBound,
];

pub fn find(name: &str) -> Option<&'static dyn Kind> {
    KINDS.iter().copied().find(|k| k.name() == name)
}

pub fn names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name()).collect()
}
