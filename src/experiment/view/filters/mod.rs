//! The filters kinds' views (data-only ones are `Declared` lines in `VIEWS`).

pub(crate) mod counting_bloom;
pub(crate) mod cuckoo;
pub(crate) mod decision;
pub(crate) mod filter_frontier;
