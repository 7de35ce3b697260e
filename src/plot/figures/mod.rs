//! Charts no declaration can express: each derives its curve from a few
//! measured numbers by an analysis of its own (a root, a ratio of two rows),
//! so it takes those numbers, not table columns. A presentation reads the
//! numbers from its typed rows and calls one of these.

mod load_ratio;

pub use load_ratio::{LoadRatio, load_ratio};
