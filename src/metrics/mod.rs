//! Measurement helpers beyond statistics (which live in [`crate::stats`]):
//! allocation counting for the memory of exact sets.

pub mod alloc;
pub mod memory;
pub mod process;
