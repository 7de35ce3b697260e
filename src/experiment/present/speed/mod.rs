//! The speed kinds' presentation.

mod scaling;
