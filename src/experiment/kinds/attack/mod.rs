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

/// The last row whose string cells match `want` (in grid order, the
/// largest setting of the last grid dimension).
pub fn row<'a>(
    t: &'a crate::table::Table,
    want: &[(&str, &str)],
) -> Option<&'a Vec<crate::table::Value>> {
    t.rows
        .iter()
        .rev()
        .find(|r| want.iter().all(|(c, v)| t.str(r, c) == *v))
}

/// `metric` of that row.
pub fn value(t: &crate::table::Table, want: &[(&str, &str)], metric: &str) -> Option<f64> {
    row(t, want).and_then(|r| t.f64(r, metric))
}

/// A formatted cell of "What the seed buys you", or "—" when not measured.
pub fn cell(x: Option<f64>, fmt: impl Fn(f64) -> String) -> String {
    x.filter(|v| v.is_finite())
        .map(fmt)
        .unwrap_or_else(|| "—".into())
}
