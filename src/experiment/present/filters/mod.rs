//! The filters kinds' presentation.

mod blocked_bloom;
mod counting_bloom;
mod cuckoo;
mod scalable_bloom;
