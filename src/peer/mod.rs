//! Real peers that live outside this process: servers sketchlab starts or
//! connects to, and the protocols it speaks to them. Studies compare against
//! them; tests use them too (never mocks).

pub mod python;
pub mod redis;
