//! The main job end to end at quick sizes, run once and shared: every
//! committed study runs, every claim gets a verdict, the report's images
//! exist and no chart is empty; then one statistical test per study on the
//! rows it wrote, against exact ground truth or theory with tolerances from
//! the Wilson interval at z = 4.5 (a two-sided miss probability of 7e-6 per
//! check), never against a structure's own bounds.
//!
//! One test binary, one module per family, so the quick run is shared.

mod common;

mod attack;
mod bloom;
mod filters;
mod hashing;
mod hll;
mod report;
mod sketches;
mod speed;
