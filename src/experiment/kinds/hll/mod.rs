//! The HyperLogLog family's kinds.

pub mod cardinality_frontier;
pub mod exact_state;
pub mod hll_arithmetic;
pub mod hll_intersection;
pub mod hll_intuition;
pub mod hll_merge;
pub mod hll_range;
pub mod hll_registers;
pub mod hll_scale;
pub mod peers;
pub mod redis_hll;
