//! The frequency, similarity and quantile sketches' kinds.

pub mod count_min;
pub mod count_min_examples;
pub mod count_min_peers;
pub mod heavy_hitters;
pub mod minhash;
pub mod minhash_lsh;
pub mod quantile_frontier;
pub mod tdigest;
