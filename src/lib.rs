//! sketchlab: measures probabilistic data structures against their theory.
//!
//! The pipeline runs one way: `experiments/*.toml` → [`experiment::spec`] →
//! [`experiment::grid`] (trials) → [`experiment::runner`] (rows) →
//! [`experiment::summary`] (replicates) → [`export`] (CSV, manifest) →
//! [`plot`] → [`report`] (REPORT.md and the claims ledger), all reading the
//! row model in [`table`]. See README.md for a tour.
#![doc = include_str!("../README.md")]

/// docs/own.md's Rust example (a structure of your own), compiled as a
/// doctest so it keeps building.
#[cfg(doctest)]
#[doc = include_str!("../docs/own.md")]
struct OwnStructureGuide;

pub mod app;
pub mod attack;
pub mod cli;
pub mod design;
pub mod error;
pub mod experiment;
pub mod export;
pub mod hashing;
pub mod input;
pub mod metrics;
pub mod peer;
pub mod plot;
pub mod report;
pub mod stats;
pub mod structures;
pub mod table;
pub mod vocab;
pub mod workload;

#[cfg(test)]
#[global_allocator]
static TEST_ALLOC: metrics::alloc::CountingAlloc = metrics::alloc::CountingAlloc;
