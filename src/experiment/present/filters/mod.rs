//! The filters kinds' presentation.

mod blocked_bloom;
mod counting_bloom;
mod cuckoo;
mod filter_frontier;
mod scalable_bloom;
