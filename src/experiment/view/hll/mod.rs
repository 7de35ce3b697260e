//! The hll kinds' views (data-only ones are `Declared` lines in `VIEWS`).

pub(crate) mod cardinality_frontier;
pub(crate) mod exact_state;
pub(crate) mod hll_intersection;
pub(crate) mod hll_range;
pub(crate) mod hll_registers;
pub(crate) mod hll_scale;
pub(crate) mod redis_hll;
