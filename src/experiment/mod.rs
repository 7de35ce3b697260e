//! Experiments as data: a TOML spec names a kind and a parameter grid; the
//! grid expands to trials; the runner turns trials into rows.

pub mod grid;
pub mod kinds;
pub mod params;
pub mod runner;
pub mod spec;
pub mod table;

pub use params::{Def, PType, ParamDef, Params, Value};
pub use spec::{Claim, Spec};
pub use table::{Cell, Metrics, Table};
