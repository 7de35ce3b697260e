//! Helpers the kinds' views share: points from rows, coverage of a
//! theory by intervals, and the theory check every reading ends with.

pub use crate::experiment::kinds::common::*;
use crate::plot::Point;
use crate::table::{Table, Value};

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

/// The distinct values in the order first seen (a parameter's levels as
/// the spec listed them, read from typed rows).
pub fn first_seen<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// The distinct values in ascending order (a numeric parameter's levels,
/// read from typed rows).
pub fn sorted_levels<T: PartialOrd>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = first_seen(items);
    out.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    out
}

/// A reading made of `parts`: `lead`, the parts joined by "; ", then
/// `tail`; empty when there are no parts (a run that measured none of them).
pub fn listed(lead: &str, parts: &[String], tail: &str) -> String {
    if parts.is_empty() {
        String::new()
    } else {
        format!("{lead}{}{tail}", parts.join("; "))
    }
}
