//! Which rows a declaration's `where` keeps: the one selection drawing
//! and readings share.

use super::{Pick, Selector};
use crate::table::{Table, Value};
use std::collections::BTreeMap;

/// Rows of `t` that pass `f` (picks read the whole table).
pub(super) fn keep<'a>(
    t: &'a Table,
    rows: Vec<&'a Vec<Value>>,
    f: &BTreeMap<String, Selector>,
) -> Vec<&'a Vec<Value>> {
    keep_within(t, None, rows, f)
}

/// Rows of `t` that pass `f`, a pick (`max`, `min`, `first`) or `nearest`
/// choosing among the rows of `scope` (a facet's rows: a facet whose grid
/// skipped the table's largest n still draws at its own largest), or among
/// the whole table's when `scope` is `None`.
pub(super) fn keep_within<'a>(
    t: &'a Table,
    scope: Option<&[&'a Vec<Value>]>,
    rows: Vec<&'a Vec<Value>>,
    f: &BTreeMap<String, Selector>,
) -> Vec<&'a Vec<Value>> {
    let mut rows = rows;
    for (col, sel) in f {
        if !t.has(col) {
            return Vec::new();
        }
        let target: Option<Value> = match sel {
            Selector::Op(op) if op.pick.is_some() || op.nearest.is_some() => {
                let levels: Vec<Value> = match scope {
                    None => t.distinct(col),
                    Some(scope) => {
                        let i = t.col(col);
                        let mut levels: Vec<Value> = Vec::new();
                        for r in scope {
                            if !levels.contains(&r[i]) {
                                levels.push(r[i].clone());
                            }
                        }
                        levels
                    }
                };
                match (op.pick, op.nearest) {
                    (Some(Pick::First), _) => levels.first().cloned(),
                    (Some(p), _) => {
                        let nums = levels.iter().filter_map(Value::as_f64);
                        let x = if p == Pick::Max {
                            nums.fold(f64::NEG_INFINITY, f64::max)
                        } else {
                            nums.fold(f64::INFINITY, f64::min)
                        };
                        x.is_finite().then_some(Value::Float(x))
                    }
                    (None, Some(want)) => levels
                        .iter()
                        .filter_map(Value::as_f64)
                        .min_by(|a, b| (a - want).abs().total_cmp(&(b - want).abs()))
                        .map(Value::Float),
                    (None, None) => None,
                }
            }
            _ => None,
        };
        rows.retain(|r| {
            let cell = t.cell(r, col);
            match sel {
                Selector::Is(v) => matches_toml(cell, v),
                Selector::Op(op) => {
                    if let Some(e) = op.exists {
                        e != matches!(cell, Value::Empty)
                    } else if let Some(n) = &op.not {
                        !matches_toml(cell, n)
                    } else if op.above.is_some() || op.below.is_some() {
                        cell.as_f64().is_some_and(|x| {
                            op.above.is_none_or(|a| x > a) && op.below.is_none_or(|b| x < b)
                        })
                    } else {
                        target.as_ref().is_some_and(|tv| same(cell, tv))
                    }
                }
            }
        });
    }
    rows
}

pub(super) fn same(cell: &Value, v: &Value) -> bool {
    match (cell.as_f64(), v.as_f64()) {
        (Some(a), Some(b)) => a == b,
        _ => cell.to_string() == v.to_string(),
    }
}

/// A cell against a TOML value or list of values: numbers numerically,
/// text (and a number against a text column, e.g. `k = 7` where k may be
/// "optimal") by its text.
fn matches_toml(cell: &Value, v: &toml::Value) -> bool {
    if let toml::Value::Array(a) = v {
        return a.iter().any(|x| matches_toml(cell, x));
    }
    let Some(sel) = Value::from_toml(v) else {
        return false;
    };
    cell.matches(&sel) || (matches!(cell, Value::Str(_)) && cell.to_string() == sel.to_string())
}
