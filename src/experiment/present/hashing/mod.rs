//! The hashing kinds' presentation.

mod birthday;
mod birthday_bound;
mod hash_in_structures;
mod hash_quality;
mod hash_speed;
mod key_hashing;
