//! Adversarial studies: each mounts an attack from `crate::attack`, measures
//! the attacked and the defended configuration side by side, and emits its
//! crafted keys (`OUT/<study>/keys.txt`, regenerated from the trial seeds).

pub mod bloom_attack;
pub mod bloom_twins;
pub mod count_min_cover;
pub mod crc32_forgery;
pub mod hashmap_flood;
pub mod hll_attack;
pub mod multicollision;
pub mod runtime_hashes;
pub mod seed_recovery;
pub mod universal_family;

use crate::attack::murmur::Target;

/// A murmur target by its strategy name (validated by the param's choice list).
pub fn target(name: &str) -> Target {
    Target::ALL
        .into_iter()
        .find(|t| t.strategy() == name)
        .expect("a validated target")
}
