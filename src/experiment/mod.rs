//! Experiments as data: a TOML spec names a kind and a parameter grid; the
//! grid expands to trials (each with a stable identity and seed); the runner
//! turns trials into typed rows; the summary stage aggregates replicates.

pub mod compare;
pub mod compare_side;
pub mod expand;
pub mod field_opts;
pub mod grid;
pub mod journal;
pub mod kinds;
pub mod lock;
pub mod measure;
pub mod merge;
pub mod own;
pub mod params;
pub mod plan;
pub mod records;
pub mod report_stage;
pub mod row;
pub mod runner;
pub mod sequential;
pub mod shard;
pub mod spec;
pub mod summary;
pub mod verify;
pub mod view;

pub use params::{Def, PType, ParamDef, Params, Seeds, Value};
pub use spec::{Claim, Spec};
