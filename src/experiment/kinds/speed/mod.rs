//! Speed: where the time of an operation goes as structures grow.

pub mod filter_speed;
pub mod scaling;
mod scaling_build;
