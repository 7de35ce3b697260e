//! The bloom kinds' presentation.

pub(crate) mod bloom_fpr;
pub(crate) mod bloom_overfill;
pub(crate) mod bloom_sizing;
pub(crate) mod doc_examples;
pub(crate) mod double_hashing;
pub(crate) mod key_size;
