//! The structures a user would pick today, one menu per family, each sized
//! the way its own user sizes it, so the frontier studies measure them on
//! the same keys and `design` recommends from what they measured:
//! [`Filter`] for approximate membership, [`Sketch`] for distinct counting.

mod cardinality;
pub mod filters;
pub mod replay;

pub use cardinality::{Counter, Sketch, ultraloglog_after};
pub use filters::{Built, Config, Filter, Shape};
