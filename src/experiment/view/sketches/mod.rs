//! The sketches kinds' views (data-only ones are `Declared` lines in `VIEWS`).

pub(crate) mod count_min;
pub(crate) mod minhash;
