//! The sketches kinds' presentation.

mod count_min;
mod count_min_examples;
mod count_min_peers;
mod heavy_hitters;
mod minhash;
mod minhash_lsh;
mod quantile_frontier;
mod tdigest;
