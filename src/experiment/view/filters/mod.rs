//! The filters kinds' presentation.

pub(crate) mod counting_bloom;
pub(crate) mod cuckoo;
pub(crate) mod decision;
pub(crate) mod filter_frontier;
