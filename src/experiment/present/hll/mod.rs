//! The hll kinds' presentation.

mod cardinality_frontier;
mod exact_state;
mod hll_arithmetic;
mod hll_intersection;
mod hll_intuition;
mod hll_merge;
mod hll_range;
mod hll_registers;
mod hll_scale;
mod redis_hll;
