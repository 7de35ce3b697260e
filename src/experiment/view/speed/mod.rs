//! The speed kinds' presentation.

pub(crate) mod filter_speed;
pub(crate) mod scaling;
