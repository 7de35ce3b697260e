//! Pieces several kinds share: parameter declarations, the fill-then-query
//! measurement, and chart helpers.

use crate::experiment::params::{Def, PType, ParamDef};
use crate::plot::Point;
use crate::stats::Proportion;
use crate::structures::Membership;
use crate::table::{Table, Value};
use crate::workload::{KeyGen, KeyType};

/// The hard cap on one filter's bits (128 GiB), for absurd sizes only: what
/// a machine can hold is `sketchlab plan`'s check, made before every run.
pub const MAX_BITS: f64 = (1u64 << 40) as f64;

/// A positive count (named by [`params!`](crate::params)).
pub const fn count(default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        "",
        PType::Int {
            min: 1,
            max: 1_000_000_000_000,
        },
        default,
        help,
    )
}

/// A probability in (0, 1).
pub const fn rate(default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        "",
        PType::Float {
            min: 0.0,
            max: 1.0,
            min_open: true,
            max_open: true,
        },
        default,
        help,
    )
}

/// A positive real with an upper bound.
pub const fn positive(max: f64, default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        "",
        PType::Float {
            min: 0.0,
            max,
            min_open: true,
            max_open: false,
        },
        default,
        help,
    )
}

/// An integer in `min..=max`.
pub const fn int(min: i64, max: i64, default: Def, help: &'static str) -> ParamDef {
    ParamDef::new("", PType::Int { min, max }, default, help)
}

/// One of the words.
pub const fn choice(words: &'static [&'static str], default: Def, help: &'static str) -> ParamDef {
    ParamDef::new("", PType::Choice(words), default, help)
}

/// `k`: probes per key or "optimal".
pub const fn k_param(default: Def, help: &'static str) -> ParamDef {
    ParamDef::new(
        "",
        PType::IntOr {
            min: 1,
            max: 64,
            words: &["optimal"],
        },
        default,
        help,
    )
}

pub const KEYS: ParamDef = ParamDef::new("", PType::Keys, Def::Str("u64"), "key type");
pub const QUERIES: ParamDef = count(
    Def::Int(1_000_000),
    "keys never inserted, queried to measure the FPR",
);
pub use crate::experiment::params::{HASH, HASH_SEED};

/// Result of filling a filter with ids `0..n` and querying ids `n..n+queries`.
#[derive(Clone, Copy, Debug)]
pub struct FillQuery {
    pub fpr: Proportion,
    pub false_negatives: u64,
    /// How many inserted keys were re-queried (all of them up to 10^6, then
    /// an evenly spaced sample of 10^6).
    pub members_checked: u64,
    /// Bits (or slots) set of all: a proportion, with its Wilson interval.
    pub fill: Proportion,
}

/// Fills `f` with ids `0..n`, re-queries members and queries `queries`
/// never-inserted ids. A failed insert is an error (plain Bloom filters never fail).
pub fn fill_and_query(
    f: &mut impl Membership,
    keys: &mut KeyGen,
    n: u64,
    queries: u64,
) -> anyhow::Result<FillQuery> {
    for id in 0..n {
        f.insert(keys.key(id))
            .map_err(|e| anyhow::anyhow!("insert of key {id} failed: {e}"))?;
    }
    let stride = n.div_ceil(1_000_000).max(1);
    let mut false_negatives = 0;
    let mut members_checked = 0;
    for id in (0..n).step_by(stride as usize) {
        members_checked += 1;
        if !f.contains(keys.key(id)) {
            false_negatives += 1;
        }
    }
    let positives = count_positives(f, keys, n..n + queries);
    Ok(FillQuery {
        fpr: Proportion::new(positives, queries),
        false_negatives,
        members_checked,
        fill: f.fill(),
    })
}

/// How many of the keys with `ids` test positive: the query loop of every
/// FPR study (keys written into one reused buffer, no allocation per key).
/// `scaling` times it against the bare query loop.
#[inline(never)]
pub fn count_positives(f: &impl Membership, keys: &mut KeyGen, ids: std::ops::Range<u64>) -> u64 {
    if keys.key_type() != KeyType::U64 {
        return ids.filter(|&id| f.contains(keys.key(id))).count() as u64;
    }
    // u64 keys: derive a block of keys, then query the block (the
    // derivation and the queries pipeline better apart than interleaved)
    const BLOCK: u64 = 64;
    let mut block = [[0u8; 8]; BLOCK as usize];
    let mut hits = 0;
    let mut start = ids.start;
    while start < ids.end {
        let len = (ids.end - start).min(BLOCK) as usize;
        for (j, k) in block[..len].iter_mut().enumerate() {
            *k = keys.u64_key(start + j as u64);
        }
        hits += block[..len].iter().filter(|k| f.contains(&k[..])).count() as u64;
        start += len as u64;
    }
    hits
}

/// Points `(x, y ± [lo, hi])` from rows, sorted by x; the interval is drawn
/// when the table has `y_lo`/`y_hi`.
pub fn points(t: &Table, rows: &[&Vec<Value>], x: &str, y: &str) -> Vec<Point> {
    let mut v: Vec<Point> = rows
        .iter()
        .filter_map(|r| {
            let (xv, yv) = (t.f64(r, x)?, t.f64(r, y)?);
            Some(match t.interval(r, y) {
                Some(i) if i.lo.is_finite() && i.hi.is_finite() => {
                    Point::with_interval(xv, yv, i.lo, i.hi)
                }
                _ => Point::new(xv, yv),
            })
        })
        .collect();
    v.sort_by(|a, b| a.x.total_cmp(&b.x));
    v
}

/// How many rows have `theory` inside `[metric_lo, metric_hi]`.
pub fn coverage(t: &Table, metric: &str, theory: &str) -> (usize, usize) {
    let mut inside = 0;
    let mut total = 0;
    for r in &t.rows {
        if let (Some(th), Some(i)) = (t.f64(r, theory), t.interval(r, metric)) {
            total += 1;
            if i.contains(th) {
                inside += 1;
            }
        }
    }
    (inside, total)
}

/// The numeric values of a column, distinct and ascending.
pub fn levels(t: &Table, column: &str) -> Vec<f64> {
    let mut v: Vec<f64> = t
        .distinct(column)
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

/// The distinct string values of a column, in first-seen order.
pub fn names(t: &Table, column: &str) -> Vec<String> {
    t.distinct(column).iter().map(|c| c.to_string()).collect()
}

/// One sentence on the rows whose `theory` lies outside `metric`'s interval:
/// how many, how many a 95% interval misses by chance, and the largest misses
/// (in half-widths), named by the parameters that vary.
pub fn theory_misses(
    t: &Table,
    params: &[crate::table::Column],
    metric: &str,
    theory: &str,
) -> String {
    let varying: Vec<&str> = params
        .iter()
        .map(|c| c.name.as_str())
        .filter(|c| t.distinct(c).len() > 1)
        .collect();
    let mut misses: Vec<(f64, String)> = Vec::new();
    let mut total = 0;
    for r in &t.rows {
        let (Some(i), Some(th)) = (t.interval(r, metric), t.f64(r, theory)) else {
            continue;
        };
        if !(i.lo.is_finite() && i.hi.is_finite()) {
            continue;
        }
        total += 1;
        if !i.contains(th) {
            let half = if th > i.value {
                i.hi - i.value
            } else {
                i.value - i.lo
            };
            let by = if half > 0.0 {
                (th - i.value).abs() / half
            } else {
                f64::INFINITY
            };
            let at: Vec<String> = varying
                .iter()
                .map(|c| format!("{c} = {}", t.str(r, c)))
                .collect();
            misses.push((
                by,
                format!(
                    "{} (measured {} [{}, {}], theory {})",
                    if at.is_empty() {
                        "the only setting".to_string()
                    } else {
                        at.join(", ")
                    },
                    crate::export::markdown::sig(i.value, 4),
                    crate::export::markdown::sig(i.lo, 4),
                    crate::export::markdown::sig(i.hi, 4),
                    crate::export::markdown::sig(th, 4)
                ),
            ));
        }
    }
    if total == 0 {
        return String::new();
    }
    if misses.is_empty() {
        return format!(
            " Theory check: {theory} lies inside the 95% interval of {metric} in all {total} rows."
        );
    }
    misses.sort_by(|a, b| b.0.total_cmp(&a.0));
    let shown: Vec<String> = misses.iter().take(5).map(|m| m.1.clone()).collect();
    format!(
        " Theory check: {theory} lies outside the 95% interval of {metric} in {} of {total} rows (about {} expected by chance){}: {}{}.",
        misses.len(),
        crate::export::markdown::sig(0.05 * total as f64, 2),
        if misses.len() > 5 {
            "; the largest misses"
        } else {
            ""
        },
        shown.join("; "),
        if misses.len() > 5 { "; …" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
    use crate::structures::bloom::BloomFilter;

    #[test]
    fn the_blocked_query_loop_answers_as_one_key_at_a_time() {
        for kt in [KeyType::U64, KeyType::U32, KeyType::Url100] {
            let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(3));
            let mut f = BloomFilter::with_rate(500, 0.2, h).unwrap();
            let mut keys = KeyGen::new(kt, 9);
            for id in 0..500 {
                Membership::insert(&mut f, keys.key(id)).unwrap();
            }
            // ranges that start and end inside a block, and an empty one
            for ids in [0..500, 3..131, 500..1_777, 64..64, 0..1] {
                let one: u64 = ids
                    .clone()
                    .map(|id| Membership::contains(&f, keys.key(id)) as u64)
                    .sum();
                assert_eq!(
                    count_positives(&f, &mut keys, ids.clone()),
                    one,
                    "{kt:?} {ids:?}"
                );
            }
            assert_eq!(
                count_positives(&f, &mut keys, 0..500),
                500,
                "{kt:?}: members"
            );
        }
    }
}
