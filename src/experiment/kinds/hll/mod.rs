//! The HyperLogLog family's kinds.

pub mod hll_registers;
