//! The bloom kinds' presentation.

mod bloom_fpr;
mod bloom_overfill;
mod bloom_sizing;
mod doc_examples;
mod double_hashing;
mod hit_rate;
mod key_size;
mod lsm_read_path;
