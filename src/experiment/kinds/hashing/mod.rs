//! The hash strategies' kinds.

pub mod birthday;
pub mod birthday_bound;
pub mod hash_in_structures;
pub mod hash_quality;
pub mod hash_speed;
pub mod key_hashing;
