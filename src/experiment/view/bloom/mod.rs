//! The bloom kinds' views (data-only ones are `Declared` lines in `VIEWS`).

pub(crate) mod bloom_fpr;
pub(crate) mod bloom_overfill;
pub(crate) mod bloom_sizing;
pub(crate) mod doc_examples;
pub(crate) mod double_hashing;
pub(crate) mod key_size;
