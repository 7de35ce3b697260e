//! The attack kinds' presentation.

mod bloom_attack;
mod bloom_twins;
mod count_min_cover;
mod crc32_forgery;
mod hashmap_flood;
mod hll_attack;
mod multicollision;
mod runtime_hashes;
mod seed_recovery;
mod universal_family;

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
/// The last typed row whose parameters pass `want` (a series' largest n,
/// as the rows are written in grid order).
pub fn last_where<P, R>(rows: &[(P, R)], want: impl Fn(&P) -> bool) -> Option<&(P, R)> {
    rows.iter().rev().find(|(p, _)| want(p))
}
pub fn cell(x: Option<f64>, fmt: impl Fn(f64) -> String) -> String {
    x.filter(|v| v.is_finite())
        .map(fmt)
        .unwrap_or_else(|| "—".into())
}
