//! The filter family beyond the plain Bloom filter: counting Bloom (cuckoo,
//! scalable and blocked Bloom follow).

pub mod blocked_bloom;
pub mod counting_bloom;
pub mod cuckoo;
pub mod filter_frontier;
pub mod scalable_bloom;
