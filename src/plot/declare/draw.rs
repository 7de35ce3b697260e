//! Drawing a declaration from result rows.

use super::expr::Expr;
use super::{
    Categories, ChartDecl, Curve, Curves, Log, Pick, RefLine, Selector, SeriesDecl, Source,
    all_series,
};
use crate::export::markdown::{pct, sig};
use crate::plot::{Chart, Point, Series, Style};
use crate::stats::Proportion;
use crate::table::{Table, Tables, Value};
use std::collections::BTreeMap;

/// Rows of `t` that pass `f` (picks read the whole table).
pub(super) fn keep<'a>(
    t: &'a Table,
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
                let levels: Vec<Value> = t.distinct(col);
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
                    if let Some(n) = &op.not {
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

fn same(cell: &Value, v: &Value) -> bool {
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

/// `{column}` → the column's distinct values in `rows` (numbers to three
/// significant figures; `{column:sigN}`, `{column:pctN}` for N figures, as
/// a percentage); `extra` names other words; any other braces stay.
fn fill(template: &str, t: &Table, rows: &[&Vec<Value>], extra: &[(&str, String)]) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out += &rest[..open];
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out += &rest[open..];
            return out;
        };
        let key = &after[..close];
        let (col, format) = key.split_once(':').unwrap_or((key, "sig3"));
        let number = |x: f64| -> Option<String> {
            let (f, n) = format.split_at(3.min(format.len()));
            let n: usize = n.parse().ok().filter(|n| (1..=17).contains(n))?;
            match f {
                "sig" => Some(sig(x, n)),
                "pct" => Some(pct(x, n)),
                _ => None,
            }
        };
        if let Some((_, v)) = extra.iter().find(|(k, _)| *k == key) {
            out += v;
        } else if t.has(col) && number(0.0).is_some() {
            let mut seen: Vec<String> = Vec::new();
            for r in rows {
                let c = t.cell(r, col);
                let s = c.as_f64().and_then(number).unwrap_or_else(|| c.to_string());
                if !seen.contains(&s) {
                    seen.push(s);
                }
            }
            out += &seen.join(", ");
        } else {
            out += &rest[open..open + close + 2];
        }
        rest = &after[close + 1..];
    }
    out + rest
}

/// Whether an axis is drawn logarithmic: `"auto"` when its positive
/// values span more than 50×.
fn log_axis(l: Log, values: impl Iterator<Item = f64>) -> bool {
    match l {
        Log::Flag(b) => b,
        Log::Auto(_) => {
            let (lo, hi) = values
                .filter(|v| *v > 0.0 && v.is_finite())
                .fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
            hi / lo > 50.0
        }
    }
}

/// Draws a declaration from the tables: one chart, or one per value of
/// `facet`. A chart is left out when its source table is absent (a run with
/// one replicate has no summary) and drawn empty (so not written) when its
/// columns give no point.
pub fn draw(d: &ChartDecl, tables: &Tables, curves: Curves) -> Vec<Chart> {
    let t = match d.source {
        Source::Results => &tables.results,
        Source::Summary => match tables.summary.as_ref() {
            Some(s) => s,
            None => return Vec::new(),
        },
    };
    let rows = keep(t, t.rows.iter().collect(), &d.filter);
    let Some(facet) = d.facet.as_deref().filter(|f| t.has(f)) else {
        return draw_one(d, t, rows, curves).into_iter().collect();
    };
    let mut values = t.distinct(facet);
    if values.iter().all(|v| v.as_f64().is_some()) {
        values.sort_by(|a, b| {
            a.as_f64()
                .unwrap_or(0.0)
                .total_cmp(&b.as_f64().unwrap_or(0.0))
        });
    }
    values
        .iter()
        .filter_map(|v| {
            let mine = rows
                .iter()
                .copied()
                .filter(|r| same(t.cell(r, facet), v))
                .collect();
            draw_one(d, t, mine, curves)
        })
        .collect()
}

fn draw_one<'a>(
    d: &ChartDecl,
    t: &'a Table,
    rows: Vec<&'a Vec<Value>>,
    curves: Curves,
) -> Option<Chart> {
    let series = all_series(d);
    let y_label = d
        .y_label
        .clone()
        .unwrap_or_else(|| series.first().and_then(|s| s.y.clone()).unwrap_or_default());
    let mut c = Chart::new(
        &fill(&d.name, t, &rows, &[]),
        &fill(&d.title, t, &rows, &[]),
        &fill(d.x_label.as_deref().unwrap_or(&d.x), t, &rows, &[]),
        &fill(&y_label, t, &rows, &[]),
    );
    // a line whose column is empty in these rows is left out
    for l in &d.hline {
        if let Some(y) = line_at(l, t, &rows, curves) {
            c = c.hline(y, fill(&l.label, t, &rows, &[("value", sig(y, 3))]));
        }
    }
    for l in &d.vline {
        if let Some(x) = line_at(l, t, &rows, curves) {
            c = c.vline(x, fill(&l.label, t, &rows, &[("value", sig(x, 3))]));
        }
    }
    for (col, n) in &d.min_distinct {
        if !t.has(col) || groups(t, &rows, std::slice::from_ref(col)).len() < *n {
            return None;
        }
    }
    // chart-level `by`: every series once per group, group by group
    let by = d.by.list();
    if !by.iter().all(|b| t.has(b)) {
        return None;
    }
    let outer = groups(t, &rows, &by);
    // a chart whose columns give no point is not drawn, whatever curves it has
    let mut data = (false, false);
    for (gi, g) in outer.iter().enumerate() {
        let rows = in_group(t, &rows, g);
        for s in &series {
            let style = s
                .style
                .or(if s.y.is_some() { d.style } else { None })
                .map(Style::from)
                .unwrap_or(if s.curve.is_some() {
                    Style::Line
                } else {
                    Style::Points
                });
            if let Some(name) = &s.curve {
                if gi == 0 {
                    c = c.series(Series::new(
                        s.label.clone().unwrap_or_else(|| name.clone()),
                        style,
                        curve_points(s, curves(name)?)?,
                    ));
                }
                continue;
            }
            let y = s.y.as_deref()?;
            data.0 = true;
            let ey = Expr::parse(y).ok()?;
            let ex = match &d.x_categories {
                Some(c) => XAxis::categories(t, &d.x, c, d.x_from.unwrap_or(1.0)),
                None => XAxis::Expr(Expr::parse(s.x.as_deref().unwrap_or(&d.x)).ok()?),
            };
            let sby = s.by.list();
            if !ey.columns().iter().chain(&ex.columns()).all(|c| t.has(c))
                || !sby.iter().all(|b| t.has(b))
            {
                return None;
            }
            let mine = keep(t, rows.clone(), &s.filter);
            for h in groups(t, &mine, &sby) {
                let rs = in_group(t, &mine, &h);
                // the innermost grouping names the series
                let named = if sby.is_empty() { g } else { &h };
                let default = match named.len() {
                    0 => y.to_string(),
                    _ if series.len() == 1 || !sby.is_empty() => "{by} = {value}".to_string(),
                    _ => format!("{{by}} = {{value}}: {y}"),
                };
                let extra = if named.is_empty() {
                    Vec::new()
                } else {
                    vec![
                        (
                            "value",
                            named
                                .iter()
                                .map(|(_, v)| v.clone())
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
                        (
                            "by",
                            named
                                .iter()
                                .map(|(c, _)| c.clone())
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
                    ]
                };
                let label = fill(s.label.as_deref().unwrap_or(&default), t, &rs, &extra);
                let pts = points(t, &rs, &ex, &ey, s);
                data.1 |= !pts.is_empty();
                c = c.series(Series::new(label, style, pts));
            }
        }
    }
    if data.0 && !data.1 {
        c.series.clear();
    }
    let pts = || c.series.iter().flat_map(|s| s.points.iter());
    c.x_log = log_axis(d.x_log, pts().map(|p| p.x));
    c.y_log = log_axis(d.y_log, pts().map(|p| p.y));
    Some(c)
}

/// The groups `cols` make of `rows`: every combination of their values
/// (each column's first seen first, nested in the order given) that some
/// row has; one empty group when `cols` is empty.
fn groups(t: &Table, rows: &[&Vec<Value>], cols: &[String]) -> Vec<Vec<(String, String)>> {
    let mut out: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for c in cols {
        let mut values: Vec<String> = Vec::new();
        for r in rows {
            let v = t.str(r, c);
            if !values.contains(&v) {
                values.push(v);
            }
        }
        out = out
            .into_iter()
            .flat_map(|g| {
                values.iter().map(move |v| {
                    let mut g = g.clone();
                    g.push((c.clone(), v.clone()));
                    g
                })
            })
            .filter(|g| !in_group(t, rows, g).is_empty())
            .collect();
    }
    out
}

fn in_group<'a>(t: &Table, rows: &[&'a Vec<Value>], g: &[(String, String)]) -> Vec<&'a Vec<Value>> {
    rows.iter()
        .copied()
        .filter(|r| g.iter().all(|(c, v)| t.str(r, c) == *v))
        .collect()
}

fn curve_points(s: &SeriesDecl, curve: Curve) -> Option<Vec<Point>> {
    Some(match curve {
        Curve::Points(f) => f(),
        Curve::Function(f) => {
            let (a, b) = (s.from?, s.to?);
            let n = s.points.unwrap_or(61).max(2);
            (0..n)
                .map(|i| {
                    let x = if s.linear {
                        a + (b - a) * i as f64 / (n - 1) as f64
                    } else {
                        let (la, lb) = (a.log10(), b.log10());
                        10f64.powf(la + (lb - la) * i as f64 / (n - 1) as f64)
                    };
                    Point::new(x, f(x))
                })
                .collect()
        }
    })
}

fn line_at(l: &RefLine, t: &Table, rows: &[&Vec<Value>], curves: Curves) -> Option<f64> {
    if let Some(a) = l.at {
        return Some(a);
    }
    let of = Expr::parse(l.of.as_deref()?).ok()?;
    if !of.columns().iter().all(|c| t.has(c)) {
        return None;
    }
    let v = rows.iter().find_map(|r| of.eval(t, r))?;
    match l.func.as_deref() {
        None => Some(v),
        Some(name) => match curves(name)? {
            Curve::Function(f) => Some(f(v)),
            Curve::Points(_) => None,
        },
    }
}

/// What x a row is drawn at: arithmetic over columns, or a category's position.
enum XAxis<'a> {
    Expr(Expr),
    Categories(&'a str, Vec<String>, f64),
}

impl<'a> XAxis<'a> {
    fn categories(t: &Table, col: &'a str, c: &Categories, from: f64) -> XAxis<'a> {
        let order = match c {
            Categories::Order(v) => v.clone(),
            Categories::FirstSeen(_) => t.distinct(col).iter().map(|v| v.to_string()).collect(),
        };
        XAxis::Categories(col, order, from)
    }

    fn columns(&self) -> Vec<&str> {
        match self {
            XAxis::Expr(e) => e.columns(),
            XAxis::Categories(c, _, _) => vec![c],
        }
    }

    fn eval(&self, t: &Table, row: &[Value]) -> Option<f64> {
        match self {
            XAxis::Expr(e) => e.eval(t, row),
            XAxis::Categories(c, order, from) => {
                let v = t.str(row, c);
                order.iter().position(|o| *o == v).map(|i| i as f64 + from)
            }
        }
    }
}

/// Points `(x, y ± interval)` of `rows` (the interval of a plain column),
/// sorted by x.
fn points(t: &Table, rows: &[&Vec<Value>], x: &XAxis, y: &Expr, s: &SeriesDecl) -> Vec<Point> {
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
    let (k, n) = (format!("{col}_k"), format!("{col}_n"));
    let proportion = t.has(&k) && t.has(&n);
    let mut xs: Vec<f64> = rows.iter().filter_map(|r| x.eval(t, r)).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    xs.into_iter()
        .filter_map(|xv| {
            let at: Vec<&&Vec<Value>> = rows.iter().filter(|r| x.eval(t, r) == Some(xv)).collect();
            if proportion {
                let sum = |c: &str| at.iter().filter_map(|r| t.f64(r, c)).sum::<f64>();
                let p = Proportion::new(sum(&k) as u64, sum(&n) as u64);
                Some(Point::with_interval(xv, p.rate, p.lo, p.hi))
            } else {
                Some(Point::new(xv, t.f64(at.first()?, col)?))
            }
        })
        .collect()
}
