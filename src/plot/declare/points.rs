//! From rows to points: the x a row is drawn at, a series' points (with
//! their intervals, pooled, swept or from wide columns) and a curve's.

use super::expr::Expr;
use super::{Categories, CategoryWord, Curve, SeriesDecl};
use crate::plot::Point;
use crate::stats::Proportion;
use crate::table::{Table, Value};
use std::collections::BTreeMap;

/// y swept along the chart's x column from `from` to `to`, the other
/// columns held at `row`'s values.
pub(super) fn sweep(
    s: &SeriesDecl,
    t: &Table,
    row: Option<&&Vec<Value>>,
    x: &str,
    y: &Expr,
) -> Vec<Point> {
    let (Some(row), Some(a), Some(b)) = (row, s.from, s.to) else {
        return Vec::new();
    };
    xs(a, b, s.points.unwrap_or(61), s.linear)
        .into_iter()
        .filter_map(|xv| Some(Point::new(xv, y.eval_at(t, row, x, xv)?)))
        .collect()
}

/// Wide columns as points: each row's `column` at its x, with its interval.
pub(super) fn wide(t: &Table, rows: &[&Vec<Value>], at: &BTreeMap<String, f64>) -> Vec<Point> {
    let mut v: Vec<Point> = rows
        .iter()
        .flat_map(|r| {
            at.iter().filter_map(move |(col, &xv)| {
                let y = t.f64(r, col)?;
                Some(match t.interval(r, col) {
                    Some(i) if i.lo.is_finite() && i.hi.is_finite() => {
                        Point::with_interval(xv, y, i.lo, i.hi)
                    }
                    _ => Point::new(xv, y),
                })
            })
        })
        .collect();
    v.sort_by(|a, b| a.x.total_cmp(&b.x));
    v
}

pub(super) fn curve_points(s: &SeriesDecl, curve: Curve) -> Option<Vec<Point>> {
    Some(match curve {
        Curve::Points(f) => f(),
        Curve::Function(f) => xs(s.from?, s.to?, s.points.unwrap_or(61), s.linear)
            .into_iter()
            .map(|x| Point::new(x, f(x)))
            .collect(),
    })
}

/// `n` x values from `a` to `b`, log-spaced unless `linear`.
fn xs(a: f64, b: f64, n: u32, linear: bool) -> Vec<f64> {
    let n = n.max(2);
    (0..n)
        .map(|i| {
            if linear {
                a + (b - a) * i as f64 / (n - 1) as f64
            } else {
                let (la, lb) = (a.log10(), b.log10());
                10f64.powf(la + (lb - la) * i as f64 / (n - 1) as f64)
            }
        })
        .collect()
}

/// What x a row is drawn at: arithmetic over columns, a category's
/// position, or the row's own position among the chart's rows.
#[derive(Clone)]
pub(super) enum XAxis<'a> {
    Expr(Expr),
    Categories(&'a str, Vec<String>, f64),
    Rows(&'a str, Vec<&'a Vec<Value>>, f64),
}

impl<'a> XAxis<'a> {
    pub(super) fn categories(
        t: &Table,
        col: &'a str,
        c: &Categories,
        from: f64,
        rows: &[&'a Vec<Value>],
    ) -> XAxis<'a> {
        let order = match c {
            Categories::Order(v) => v.clone(),
            Categories::Word(CategoryWord::FirstSeen) => {
                t.distinct(col).iter().map(|v| v.to_string()).collect()
            }
            Categories::Word(CategoryWord::Rows) => return XAxis::Rows(col, rows.to_vec(), from),
        };
        XAxis::Categories(col, order, from)
    }

    pub(super) fn columns(&self) -> Vec<&str> {
        match self {
            XAxis::Expr(e) => e.columns(),
            XAxis::Categories(c, _, _) | XAxis::Rows(c, _, _) => vec![c],
        }
    }

    pub(super) fn eval(&self, t: &Table, row: &[Value]) -> Option<f64> {
        match self {
            XAxis::Expr(e) => e.eval(t, row),
            XAxis::Categories(c, order, from) => {
                let v = t.str(row, c);
                order.iter().position(|o| *o == v).map(|i| i as f64 + from)
            }
            XAxis::Rows(_, rows, from) => rows
                .iter()
                .position(|r| std::ptr::eq(r.as_slice(), row))
                .map(|i| i as f64 + from),
        }
    }

    /// "1 = a, 2 = b, …" for a categorical axis (empty otherwise).
    pub(super) fn legend(&self, t: &Table) -> String {
        let names: Vec<String> = match self {
            XAxis::Expr(_) => return String::new(),
            XAxis::Categories(_, order, _) => order.clone(),
            XAxis::Rows(c, rows, _) => rows.iter().map(|r| t.str(r, c)).collect(),
        };
        let from = match self {
            XAxis::Categories(_, _, f) | XAxis::Rows(_, _, f) => *f,
            XAxis::Expr(_) => 0.0,
        };
        names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{} = {n}", i as f64 + from))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Points `(x, y ± interval)` of `rows` (the interval of a plain column),
/// sorted by x.
pub(super) fn points(
    t: &Table,
    rows: &[&Vec<Value>],
    x: &XAxis,
    y: &Expr,
    s: &SeriesDecl,
) -> Vec<Point> {
    if s.pool {
        return pooled(t, rows, x, y);
    }
    let mut v: Vec<Point> = rows
        .iter()
        .filter_map(|r| {
            let (xv, yv) = (x.eval(t, r)?, y.eval(t, r)?);
            if s.clip.is_some_and(|c| yv.abs() > c) {
                return None;
            }
            let interval = y
                .column()
                .filter(|_| s.interval)
                .and_then(|c| t.interval(r, c))
                .filter(|i| i.lo.is_finite() && i.hi.is_finite());
            Some(match interval {
                Some(i) => Point::with_interval(xv, yv, i.lo, i.hi),
                None => Point::new(xv, yv),
            })
        })
        .collect();
    v.sort_by(|a, b| a.x.total_cmp(&b.x));
    if s.distinct {
        v.dedup_by(|b, a| a.x == b.x);
    }
    v
}

/// One point per x: a proportion's counts pooled over the rows at that x
/// (Wilson 95%), or another column's first value there.
fn pooled(t: &Table, rows: &[&Vec<Value>], x: &XAxis, y: &Expr) -> Vec<Point> {
    let Some(col) = y.column() else {
        return Vec::new();
    };
    // a proportion's successes and trials, by the columns' declared parts
    let counts = t
        .sibling(col, crate::table::Is::K)
        .zip(t.sibling(col, crate::table::Is::N));
    let mut xs: Vec<f64> = rows.iter().filter_map(|r| x.eval(t, r)).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    xs.into_iter()
        .filter_map(|xv| {
            let at: Vec<&&Vec<Value>> = rows.iter().filter(|r| x.eval(t, r) == Some(xv)).collect();
            if let Some((k, n)) = counts {
                let sum = |c: usize| at.iter().filter_map(|r| r.get(c)?.as_f64()).sum::<f64>();
                let p = Proportion::new(sum(k) as u64, sum(n) as u64);
                Some(Point::with_interval(xv, p.rate, p.lo, p.hi))
            } else {
                Some(Point::new(xv, t.f64(at.first()?, col)?))
            }
        })
        .collect()
}
