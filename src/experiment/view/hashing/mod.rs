//! The hashing kinds' views (data-only ones are `Declared` lines in `VIEWS`).

pub(crate) mod birthday;
pub(crate) mod hash_in_structures;
pub(crate) mod hash_quality;
pub(crate) mod hash_speed;
pub(crate) mod key_hashing;
