//! The sketches kinds' presentation.

pub(crate) mod count_min;
pub(crate) mod minhash;
