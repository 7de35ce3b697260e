//! The Bloom filter family's kinds.

pub mod bloom_fpr;
pub mod bloom_overfill;
pub mod bloom_sizing;
pub mod doc_examples;
pub mod double_hashing;
pub mod hit_rate;
pub mod key_size;
pub mod lsm_read_path;
