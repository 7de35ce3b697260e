//! Drawing a declaration from result rows.

use super::expr::Expr;
use super::points::{XAxis, curve_points, points, sweep, wide};
use super::reading::{known_format, number};
use super::select::{keep, keep_within, same};
use super::{ChartDecl, Curve, Curves, Log, RefLine, SeriesDecl, Source, all_series};
use crate::plot::{Chart, Series, Style};
use crate::table::{Table, Tables, Value};

/// A word a label may name besides the columns (`{value}`, `{by}`, `{categories}`).
pub(super) enum Extra {
    Text(String),
    Num(f64),
}

/// `{column}` → the column's distinct values in `rows` (numbers to three
/// significant figures; `{column:FORMAT}` in any format a reading knows:
/// `sigN`, `pctN`, `int`, `bytes`, `raw`); `extra` names other words; any
/// other braces stay.
fn fill(template: &str, t: &Table, rows: &[&Vec<Value>], extra: &[(&str, Extra)]) -> String {
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
        let (name, format) = key.split_once(':').unwrap_or((key, "sig3"));
        let number = |x: f64| match format {
            "raw" => x.to_string(),
            f => number(x, f),
        };
        let known = known_format(format);
        if let (Some((_, v)), true) = (extra.iter().find(|(k, _)| *k == name), known) {
            out += &match v {
                Extra::Text(s) => s.clone(),
                Extra::Num(x) => number(*x),
            };
        } else if t.has(name) && known {
            let mut seen: Vec<String> = Vec::new();
            for r in rows {
                let c = t.cell(r, name);
                let s = match c.as_f64() {
                    Some(_) if format == "raw" => c.to_string(),
                    Some(x) => number(x),
                    None if name == KEYS => key_source_name(&c.to_string()),
                    None => c.to_string(),
                };
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

/// A chart's file stem from its filled name: letters, digits, `_`, `.` and
/// `-` pass; anything else (a `/` of a key file's path, a `:`, a space) is
/// `_`, and a stem so changed gets 8 hex digits of its filled name's hash,
/// so two facet values that differ only there stay two files (#40).
pub(crate) fn file_stem(name: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if !name.is_empty() && name.chars().all(safe) && !name.starts_with('.') && name.len() <= 120 {
        return name.to_string();
    }
    let mut s: String = name
        .chars()
        .map(|c| if safe(c) { c } else { '_' })
        .collect();
    s = s.trim_start_matches('.').chars().take(100).collect();
    format!(
        "{s}_{:08x}",
        xxhash_rust::xxh3::xxh3_64(name.as_bytes()) as u32
    )
}

/// A template filled from one row (a heatmap's name and title).
pub(super) fn fill_row(template: &str, t: &Table, row: &Vec<Value>) -> String {
    fill(template, t, &[row], &[])
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
/// `facet` (each facet's rows selected by `where` on their own). A chart is
/// left out when its source table is absent (a run with one replicate has
/// no summary) and drawn empty (so not written) when its columns give no
/// point.
pub fn draw(d: &ChartDecl, tables: &Tables, curves: Curves) -> Vec<Chart> {
    let t = match d.source {
        Source::Results => &tables.results,
        Source::Summary => match tables.summary.as_ref() {
            Some(s) => s,
            None => return Vec::new(),
        },
    };
    let Some(facet) = d.facet.as_deref().filter(|f| t.has(f)) else {
        let rows = keep(t, t.rows.iter().collect(), &d.filter);
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
            // each facet its own rows first, so a pick in `where` picks
            // among them (a facet the grid ran at fewer sizes still draws)
            let mine: Vec<_> = t
                .rows
                .iter()
                .filter(|r| same(t.cell(r, facet), v))
                .collect();
            draw_one(
                d,
                t,
                keep_within(t, Some(&mine), mine.clone(), &d.filter),
                curves,
            )
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
    let x = match &d.x_categories {
        Some(c) => XAxis::categories(t, &d.x, c, d.x_from.unwrap_or(1.0), &rows),
        None => XAxis::Expr(Expr::parse(&d.x).ok()?),
    };
    let words = [("categories", Extra::Text(x.legend(t)))];
    let mut c = Chart::new(
        &file_stem(&fill(&d.name, t, &rows, &[])),
        &fill(&d.title, t, &rows, &words),
        &fill(d.x_label.as_deref().unwrap_or(&d.x), t, &rows, &words),
        &fill(&y_label, t, &rows, &words),
    );
    // a line whose column is empty in these rows is left out
    for (lines, horizontal) in [(&d.hline, true), (&d.vline, false)] {
        for l in lines {
            for (at, label) in ref_lines(l, t, &rows, curves) {
                c = if horizontal {
                    c.hline(at, label)
                } else {
                    c.vline(at, label)
                };
            }
        }
    }
    for (col, n) in &d.min_distinct {
        if !t.has(col) || groups(t, &rows, std::slice::from_ref(col)).len() < *n {
            return None;
        }
    }
    for (col, n) in &d.max_distinct {
        if !t.has(col) || groups(t, &rows, std::slice::from_ref(col)).len() > *n {
            return None;
        }
    }
    // chart-level `by`: every series once per group, group by group
    let by = d.by.list();
    if !by.iter().all(|b| t.has(b)) {
        return None;
    }
    // a chart whose columns give no point is not drawn, whatever curves it has
    let mut data = (false, false);
    // which series are the table's, and which curves span only its x range
    let mut kinds: Vec<(bool, bool)> = Vec::new();
    let mut add = |c: &mut Chart, s: &SeriesDecl, g: &[(String, String)], rows, first| {
        let drawn = series_of(d, &series, s, g, t, rows, &x, curves, first)?;
        for (ser, from_data) in drawn {
            data.0 |= from_data;
            data.1 |= from_data && !ser.points.is_empty();
            kinds.push((from_data, s.span_data && !from_data));
            c.add(ser);
        }
        Some(())
    };
    for (gi, g) in groups(t, &rows, &by).iter().enumerate() {
        let grows = in_group(t, &rows, g);
        for s in series.iter().filter(|s| !s.once) {
            add(&mut c, s, g, grows.clone(), gi == 0)?;
        }
    }
    for s in series.iter().filter(|s| s.once) {
        add(&mut c, s, &[], rows.clone(), true)?;
    }
    if data.0 && !data.1 {
        c.series.clear();
    }
    let pts = || c.series.iter().flat_map(|s| s.points.iter());
    c.x_log = log_axis(d.x_log, pts().map(|p| p.x));
    c.y_log = log_axis(d.y_log, pts().map(|p| p.y));
    // a log axis cannot place a line at zero or below
    let (xl, yl) = (c.x_log, c.y_log);
    c.vlines.retain(|(v, _)| !xl || *v > 0.0);
    c.hlines.retain(|(v, _)| !yl || *v > 0.0);
    span_data(&mut c, &kinds);
    Some(c)
}

/// The column that names a study's key source.
const KEYS: &str = "keys";

/// A key source as a legend names it: a key type as it is (`u64`), a key
/// file by its file name (`file:lines:data/words.txt` → `words.txt`).
fn key_source_name(v: &str) -> String {
    // (the plot layer sits below workload, whose parse_name it may not use:
    // the name's form is `file:<format>:<path>`, the format a single word)
    match v.strip_prefix("file:").and_then(|r| r.split_once(':')) {
        Some((_, path)) => std::path::Path::new(path)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.to_string()),
        None => v.to_string(),
    }
}

/// Whether rows at one x but of different key sources have different y
/// (a theory column, the same for every key source, draws one line).
fn varies_with_keys(t: &Table, rows: &[&Vec<Value>], x: &XAxis, y: &Expr) -> bool {
    // per x, the distinct (key source, y) pairs seen
    let mut seen: std::collections::HashMap<u64, Vec<(String, u64)>> = Default::default();
    for r in rows {
        let (Some(xv), Some(yv)) = (x.eval(t, r), y.eval(t, r)) else {
            continue;
        };
        let (k, yb) = (t.str(r, KEYS), yv.to_bits());
        let at = seen.entry(xv.to_bits()).or_default();
        if at.iter().any(|(sk, sy)| *sk != k && *sy != yb) {
            return true;
        }
        if !at.iter().any(|(sk, sy)| *sk == k && *sy == yb) {
            at.push((k, yb));
        }
    }
    false
}

/// Curves marked `span_data` keep only their points within the x range of
/// the table's series, padded by 15% (a factor on a log axis).
fn span_data(c: &mut Chart, kinds: &[(bool, bool)]) {
    let log = c.x_log;
    let xs: Vec<f64> = c
        .series
        .iter()
        .zip(kinds)
        .filter(|(_, k)| k.0)
        .flat_map(|(s, _)| s.points.iter().map(|p| p.x))
        .filter(|x| x.is_finite() && (!log || *x > 0.0))
        .collect();
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if lo > hi {
        return;
    }
    let (lo, hi) = if log {
        (lo / 1.15, hi * 1.15)
    } else {
        let pad = (0.15 * (hi - lo)).max(f64::MIN_POSITIVE);
        (lo - pad, hi + pad)
    };
    for (s, _) in c.series.iter_mut().zip(kinds).filter(|(_, k)| k.1) {
        s.points.retain(|p| p.x >= lo && p.x <= hi);
    }
}

/// The series one declaration draws for one group `g` of the chart's rows
/// (`rows`), each with whether it comes from the table (not a curve);
/// `None` when the table lacks a column it reads.
#[allow(clippy::too_many_arguments)]
fn series_of(
    d: &ChartDecl,
    all: &[SeriesDecl],
    s: &SeriesDecl,
    g: &[(String, String)],
    t: &Table,
    rows: Vec<&Vec<Value>>,
    x: &XAxis,
    curves: Curves,
    first_group: bool,
) -> Option<Vec<(Series, bool)>> {
    let style = s
        .style
        .or(if s.y.is_some() { d.style } else { None })
        .map(Style::from)
        .unwrap_or(if s.curve.is_some() || s.from.is_some() {
            Style::Line
        } else {
            Style::Points
        });
    if let Some(name) = &s.curve {
        // a curve does not depend on the rows: drawn with the first group only
        if !first_group {
            return Some(Vec::new());
        }
        let pts = curve_points(s, curves(name)?)?;
        let label = s.label.clone().unwrap_or_else(|| name.clone());
        return Some(vec![(Series::new(label, style, pts), false)]);
    }
    let ey = match (&s.y, s.at.is_empty()) {
        (Some(y), _) => Some(Expr::parse(y).ok()?),
        (None, false) => None,
        (None, true) => return None,
    };
    let ex = match &s.x {
        Some(sx) => XAxis::Expr(Expr::parse(sx).ok()?),
        None => x.clone(),
    };
    let sby = s.by.list();
    let reads: Vec<&str> = ey
        .iter()
        .flat_map(|e| e.columns())
        .chain(ex.columns())
        .chain(s.at.keys().map(String::as_str))
        .chain(sby.iter().map(String::as_str))
        .collect();
    if !reads.iter().all(|c| t.has(c)) {
        return None;
    }
    let y = s.y.as_deref().unwrap_or("values");
    let mine = keep(t, rows, &s.filter);
    // key sources are always a series dimension: several in rows the
    // declaration does not tell apart get a series each, labelled by name
    let split_keys = t.has(KEYS)
        && !sby.iter().any(|b| b == KEYS)
        && !d.by.list().iter().any(|b| b == KEYS)
        && d.facet.as_deref() != Some(KEYS)
        && d.x != KEYS
        && ey
            .as_ref()
            .is_some_and(|e| varies_with_keys(t, &mine, &ex, e));
    let mut sby = sby;
    if split_keys {
        sby.push(KEYS.to_string());
    }
    let mut out = Vec::new();
    for h in groups(t, &mine, &sby) {
        let rs = in_group(t, &mine, &h);
        let (h, keys) = match split_keys {
            true => (
                h[..h.len() - 1].to_vec(),
                Some(key_source_name(&h[h.len() - 1].1)),
            ),
            false => (h, None),
        };
        let sby = &sby[..sby.len() - usize::from(split_keys)];
        // the innermost grouping names the series
        let named = if sby.is_empty() { g } else { &h[..] };
        let default = match named.len() {
            0 => y.to_string(),
            _ if all.len() == 1 || !sby.is_empty() => "{by} = {value}".to_string(),
            _ => format!("{{by}} = {{value}}: {y}"),
        };
        let join =
            |f: fn(&(String, String)) -> String| named.iter().map(f).collect::<Vec<_>>().join(", ");
        let extra = [
            (
                "value",
                Extra::Text(join(|p| match p.0 == KEYS {
                    true => key_source_name(&p.1),
                    false => p.1.clone(),
                })),
            ),
            ("by", Extra::Text(join(|p| p.0.clone()))),
        ];
        let extra = if named.is_empty() {
            &[][..]
        } else {
            &extra[..]
        };
        let mut label = fill(s.label.as_deref().unwrap_or(&default), t, &rs, extra);
        if let Some(k) = keys {
            label = format!("{label}, {k} keys");
        }
        let pts = match &ey {
            _ if !s.at.is_empty() => wide(t, &rs, &s.at),
            Some(e) if s.from.is_some() => sweep(s, t, rs.first(), &d.x, e),
            Some(e) => points(t, &rs, &ex, e, s),
            None => Vec::new(),
        };
        out.push((Series::new(label, style, pts), true));
    }
    Some(out)
}

/// The reference lines one declaration draws: one, or one per value of its `by`.
fn ref_lines(l: &RefLine, t: &Table, rows: &[&Vec<Value>], curves: Curves) -> Vec<(f64, String)> {
    let sets: Vec<Vec<&Vec<Value>>> = match &l.by {
        Some(b) if t.has(b) => groups(t, rows, std::slice::from_ref(b))
            .iter()
            .map(|g| in_group(t, rows, g))
            .collect(),
        Some(_) => Vec::new(),
        None => vec![rows.to_vec()],
    };
    sets.iter()
        .filter_map(|rs| {
            let at = line_at(l, t, rs, curves)?;
            Some((at, fill(&l.label, t, rs, &[("value", Extra::Num(at))])))
        })
        .collect()
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
