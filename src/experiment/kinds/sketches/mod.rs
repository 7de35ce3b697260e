//! The frequency, similarity and quantile sketches' kinds.

pub mod count_min;
pub mod count_min_examples;
pub mod count_min_peers;
pub mod minhash;
pub mod minhash_lsh;
pub mod tdigest;
