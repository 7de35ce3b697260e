//! The attack kinds' views (data-only ones are `Declared` lines in `VIEWS`).

pub(crate) mod bloom_attack;
pub(crate) mod bloom_twins;
pub(crate) mod count_min_cover;
pub(crate) mod crc32_forgery;
pub(crate) mod hashmap_flood;
pub(crate) mod hll_attack;
pub(crate) mod runtime_hashes;
pub(crate) mod seed_recovery;
pub(crate) mod universal_family;

/// The last typed row whose parameters pass `want` (in grid order, the
/// largest setting of the last grid dimension: a series' largest n).
pub fn last_where<P, R>(rows: &[(P, R)], want: impl Fn(&P) -> bool) -> Option<&(P, R)> {
    rows.iter().rev().find(|(p, _)| want(p))
}

/// A formatted cell of "What the seed buys you", or "—" when not measured.
pub fn cell(x: Option<f64>, fmt: impl Fn(f64) -> String) -> String {
    x.filter(|v| v.is_finite())
        .map(fmt)
        .unwrap_or_else(|| "—".into())
}
