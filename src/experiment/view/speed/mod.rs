//! The speed kinds' views (data-only ones are `Declared` lines in `VIEWS`).

pub(crate) mod filter_speed;
pub(crate) mod scaling;
