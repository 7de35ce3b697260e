//! The speed kinds' presentation.

mod filter_speed;
mod scaling;
