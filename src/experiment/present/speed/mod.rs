//! The speed kinds' presentation.

mod scaling;
mod scaling_report;
