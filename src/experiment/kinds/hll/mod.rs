//! The HyperLogLog family's kinds.

pub mod hll_merge;
pub mod hll_registers;
