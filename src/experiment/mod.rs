//! Experiments as data: a TOML spec names a kind and a parameter grid; the
//! grid expands to trials (each with a stable identity and seed); the runner
//! turns trials into typed rows; the summary stage aggregates replicates.

pub mod compare;
pub mod disk;
pub mod expand;
pub mod grid;
pub mod journal;
pub mod kinds;
pub mod lock;
pub mod merge;
pub mod own;
pub mod params;
pub mod plan;
pub mod present;
pub mod records;
pub mod row;
pub mod runner;
pub mod sequential;
pub mod shard;
pub mod spec;
pub mod study;
pub mod summary;
pub mod verify;

pub use params::{Def, PType, ParamDef, Params, Seeds, Value};
pub use spec::{Claim, Spec};
