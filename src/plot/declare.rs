//! Charts as data: a `[[chart]]` table in a study's TOML (or in a kind's
//! default declarations) says what to draw — source table, x, the series
//! (columns, grouped by a column, or a named theory curve), filters, log
//! axes, reference lines — and [`draw`] draws it from the rows alone, the
//! way vega-lite describes a chart as mark, encoding and scale.
//!
//! ```toml
//! [[chart]]
//! name = "fpr_by_hash"                 # the file stem: fpr_by_hash.svg/.png
//! title = "FPR vs bits per key (n = {n})"   # {column}: its value in the chart's rows
//! source = "results"                   # or "summary" (mean and interval over replicates)
//! x = "bits_per_key"
//! y_log = true
//! where = { k = "optimal", n = { pick = "max" } }
//! [[chart.series]]
//! y = "fpr_theory"                     # a column: one series…
//! label = "theory"
//! style = "line"
//! where = { hash = { pick = "first" } }
//! [[chart.series]]
//! y = "fpr_measured"
//! by = "hash"                          # …or one per value of a column ("hash = xxh3")
//! ```
//!
//! Validation ([`validate`]) runs when the spec is read, before any trial:
//! unknown columns, text on a numeric axis, a log axis over a non-positive
//! grid value or constant, and unknown curve names are refused with the
//! chart and the field.

use super::{Chart, Point, Series, Style};
use crate::export::markdown::sig;
use crate::table::{ColType, Column, Table, Tables, Value};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One declared chart.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChartDecl {
    /// The file stem (lowercase letters, digits, `_`).
    pub name: String,
    /// `{column}` is replaced by the column's value in the chart's rows
    /// (distinct values joined by ", "), numbers to three significant figures.
    pub title: String,
    #[serde(default)]
    pub source: Source,
    pub x: String,
    #[serde(default)]
    pub x_label: Option<String>,
    #[serde(default)]
    pub y_label: Option<String>,
    #[serde(default)]
    pub x_log: bool,
    #[serde(default)]
    pub y_log: bool,
    /// Rows the whole chart draws from.
    #[serde(default, rename = "where")]
    pub filter: BTreeMap<String, Selector>,
    /// Shorthand for one series per column (each styled `style`, grouped `by`).
    #[serde(default)]
    pub y: OneOrMany,
    #[serde(default)]
    pub by: Option<String>,
    #[serde(default)]
    pub style: Option<StyleName>,
    /// The series, in legend order (after the shorthand's).
    #[serde(default)]
    pub series: Vec<SeriesDecl>,
    #[serde(default)]
    pub hline: Vec<RefLine>,
    #[serde(default)]
    pub vline: Vec<RefLine>,
}

/// Which table a chart reads.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// One row per trial (per checkpoint).
    #[default]
    Results,
    /// One row per setting: means with their intervals over replicates. A
    /// run with one replicate has none, and the chart is not drawn.
    Summary,
}

/// A column name or a list of them.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum OneOrMany {
    #[default]
    None,
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn list(&self) -> Vec<String> {
        match self {
            OneOrMany::None => Vec::new(),
            OneOrMany::One(s) => vec![s.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum StyleName {
    Line,
    Points,
    LinePoints,
}

impl From<StyleName> for Style {
    fn from(s: StyleName) -> Style {
        match s {
            StyleName::Line => Style::Line,
            StyleName::Points => Style::Points,
            StyleName::LinePoints => Style::LinePoints,
        }
    }
}

/// Which rows a filter keeps, for one column.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Selector {
    /// `{ pick = "max" | "min" | "first" }`: the largest, smallest or
    /// first-seen value of the column in the whole table; `{ nearest = x }`:
    /// the value closest to x; `{ not = v }`; `{ above = x }`, `{ below = x }`.
    Op(SelectorOp),
    /// Equal to the value, or to one of a list of values.
    Is(toml::Value),
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SelectorOp {
    #[serde(default)]
    pub pick: Option<Pick>,
    #[serde(default)]
    pub nearest: Option<f64>,
    #[serde(default)]
    pub not: Option<toml::Value>,
    #[serde(default)]
    pub above: Option<f64>,
    #[serde(default)]
    pub below: Option<f64>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Pick {
    Max,
    Min,
    First,
}

/// One series (or one per value of `by`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SeriesDecl {
    /// The y column (or use `curve`).
    #[serde(default)]
    pub y: Option<String>,
    /// A named theory curve instead of a column (see the kind registry).
    #[serde(default)]
    pub curve: Option<String>,
    /// The x column, when not the chart's.
    #[serde(default)]
    pub x: Option<String>,
    /// `{value}`: the group's value; `{by}`: the group column. Default: the
    /// y column, or "{by} = {value}" when grouped.
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub by: Option<String>,
    /// Default: points for a column, line for a curve.
    #[serde(default)]
    pub style: Option<StyleName>,
    #[serde(default, rename = "where")]
    pub filter: BTreeMap<String, Selector>,
    /// Error bars: from `y_lo`/`y_hi` when the table has them (default),
    /// `false` for none.
    #[serde(default = "yes")]
    pub interval: bool,
    /// y (and its interval) times this factor.
    #[serde(default)]
    pub scale: Option<f64>,
    /// |y| instead of y.
    #[serde(default)]
    pub abs: bool,
    /// Leave out points with |y| above this.
    #[serde(default)]
    pub clip: Option<f64>,
    /// Draw y as at least this (a log axis cannot show 0).
    #[serde(default)]
    pub floor: Option<f64>,
    /// A curve's x range and points (log-spaced unless `linear`).
    #[serde(default)]
    pub from: Option<f64>,
    #[serde(default)]
    pub to: Option<f64>,
    #[serde(default)]
    pub points: Option<u32>,
    #[serde(default)]
    pub linear: bool,
}

fn yes() -> bool {
    true
}

/// A horizontal or vertical line: at a constant, or at a named function of
/// the (one) value of a column in the chart's rows. `{value}` in the label
/// is the position.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RefLine {
    #[serde(default)]
    pub at: Option<f64>,
    #[serde(default, rename = "fn")]
    pub func: Option<String>,
    #[serde(default)]
    pub of: Option<String>,
    pub label: String,
}

/// The named curves and functions a declaration may use: `curve(name)`
/// gives a function of x, or a fixed list of points; the experiment layer
/// supplies them from the structures' theory modules.
pub enum Curve {
    Function(fn(f64) -> f64),
    Points(fn() -> Vec<Point>),
}

pub type Curves<'a> = &'a dyn Fn(&str) -> Option<Curve>;

/// What is wrong with a declaration: the field (as `chart NAME.FIELD`), the
/// value, and what is allowed.
#[derive(Debug, PartialEq)]
pub struct DeclError {
    pub field: String,
    pub value: String,
    pub allowed: String,
}

/// Reads one `[[chart]]` table: `repeat = [words]` makes one chart per
/// word, with `{repeat}` replaced by it in every text of the table.
pub fn from_toml(v: &toml::Value) -> Result<Vec<ChartDecl>, String> {
    let mut v = v.clone();
    let words: Vec<Option<String>> = match v.as_table_mut().and_then(|t| t.remove("repeat")) {
        None => vec![None],
        Some(toml::Value::Array(a)) if !a.is_empty() => a
            .iter()
            .map(|w| {
                w.as_str()
                    .map(|s| Some(s.to_string()))
                    .ok_or_else(|| format!("repeat = {w}: must be a list of words"))
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(format!(
                "repeat = {other}: must be a non-empty list of words"
            ));
        }
    };
    words
        .into_iter()
        .map(|w| {
            let mut c = v.clone();
            if let Some(w) = &w {
                substitute(&mut c, w);
            }
            c.try_into::<ChartDecl>()
                .map_err(|e| e.message().split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .collect()
}

fn substitute(v: &mut toml::Value, word: &str) {
    match v {
        toml::Value::String(s) => *s = s.replace("{repeat}", word),
        toml::Value::Array(a) => a.iter_mut().for_each(|x| substitute(x, word)),
        toml::Value::Table(t) => {
            let keys: Vec<String> = t.keys().cloned().collect();
            for k in keys {
                let mut x = t.remove(&k).unwrap_or(toml::Value::Boolean(false));
                substitute(&mut x, word);
                t.insert(k.replace("{repeat}", word), x);
            }
        }
        _ => {}
    }
}

/// The name a raw `[[chart]]` table gives itself (for messages about it).
pub fn raw_name(v: &toml::Value, index: usize) -> String {
    v.get("name")
        .and_then(|n| n.as_str())
        .map(str::to_string)
        .unwrap_or_else(|| format!("#{}", index + 1))
}

/// Parses the `[[chart]]` tables of a TOML text (a kind's defaults).
pub fn parse(text: &str) -> Result<Vec<ChartDecl>, String> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        chart: Vec<toml::Value>,
    }
    let f: File = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (i, c) in f.chart.iter().enumerate() {
        out.extend(from_toml(c).map_err(|e| format!("chart {}: {e}", raw_name(c, i)))?);
    }
    Ok(out)
}

/// The series a declaration draws, shorthand first.
fn all_series(d: &ChartDecl) -> Vec<SeriesDecl> {
    let mut out: Vec<SeriesDecl> =
        d.y.list()
            .into_iter()
            .map(|y| SeriesDecl {
                y: Some(y),
                curve: None,
                x: None,
                label: None,
                by: d.by.clone(),
                style: d.style,
                filter: BTreeMap::new(),
                interval: true,
                scale: None,
                abs: false,
                clip: None,
                floor: None,
                from: None,
                to: None,
                points: None,
                linear: false,
            })
            .collect();
    out.extend(d.series.iter().cloned());
    out
}

/// The tables' columns a declaration is checked against, and the values a
/// parameter column can take (every grid value), for the log-axis check.
pub struct Columns<'a> {
    pub results: &'a [Column],
    pub summary: &'a [Column],
    /// Parameter values known before the run (`None`: not a parameter).
    pub values: &'a dyn Fn(&str) -> Option<Vec<Value>>,
}

/// Checks a declaration against the kind's columns and the curve registry.
pub fn validate(d: &ChartDecl, cols: &Columns, curves: Curves) -> Result<(), DeclError> {
    let at = |field: &str| format!("chart {}.{field}", d.name);
    let bad = |field: &str, value: String, allowed: String| DeclError {
        field: at(field),
        value,
        allowed,
    };
    if d.name.is_empty()
        || d.name.len() > 64
        || !d
            .name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err(bad(
            "name",
            format!("{:?}", d.name),
            "must be 1 to 64 lowercase letters, digits and _".into(),
        ));
    }
    let table = match d.source {
        Source::Results => cols.results,
        Source::Summary => cols.summary,
    };
    let source = match d.source {
        Source::Results => "results",
        Source::Summary => "summary",
    };
    let find = |field: &str, name: &str| -> Result<&Column, DeclError> {
        table.iter().find(|c| c.name == name).ok_or_else(|| {
            bad(
                field,
                format!("{name:?}"),
                format!(
                    "no such column in the {source} table; it has {}",
                    table
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
    };
    let numeric = |field: &str, name: &str| -> Result<(), DeclError> {
        let c = find(field, name)?;
        match c.ty {
            ColType::Int | ColType::Float => Ok(()),
            _ => Err(bad(
                field,
                format!("{name:?}"),
                "is not a numeric column, so it cannot be an axis".into(),
            )),
        }
    };
    let positive = |field: &str, name: &str| -> Result<(), DeclError> {
        if let Some(vals) = (cols.values)(name)
            && let Some(v) = vals.iter().find(|v| v.as_f64().is_some_and(|x| x <= 0.0))
        {
            return Err(bad(
                field,
                format!("{name:?}"),
                format!(
                    "is drawn on a log axis, but the grid gives it {v}: a log axis shows only positive values"
                ),
            ));
        }
        Ok(())
    };
    let check_filter = |prefix: &str, f: &BTreeMap<String, Selector>| -> Result<(), DeclError> {
        for (col, sel) in f {
            let field = format!("{prefix}where.{col}");
            let c = find(&field, col)?;
            if let Selector::Is(v) = sel {
                let scalar = |v: &toml::Value| Value::from_toml(v).is_some();
                let ok = match v {
                    toml::Value::Array(a) => a.iter().all(scalar),
                    v => scalar(v),
                };
                if !ok {
                    return Err(bad(
                        &field,
                        v.to_string(),
                        "must be a value, a list of values, or one of { pick = \"max\" | \"min\" | \"first\" }, { nearest = X }, { not = V }, { above = X }, { below = X }".into(),
                    ));
                }
            }
            if let Selector::Op(op) = sel {
                let n = [
                    op.pick.is_some(),
                    op.nearest.is_some(),
                    op.not.is_some(),
                    op.above.is_some(),
                    op.below.is_some(),
                ]
                .iter()
                .filter(|b| **b)
                .count();
                if n != 1 {
                    return Err(bad(
                        &field,
                        "{…}".into(),
                        "must hold exactly one of pick, nearest, not, above, below".into(),
                    ));
                }
                let ordered = op.nearest.is_some() || op.above.is_some() || op.below.is_some();
                if ordered && !matches!(c.ty, ColType::Int | ColType::Float) {
                    return Err(bad(
                        &field,
                        format!("{col:?}"),
                        "nearest, above and below need a numeric column".into(),
                    ));
                }
            }
        }
        Ok(())
    };
    numeric("x", &d.x)?;
    if d.x_log {
        positive("x", &d.x)?;
    }
    check_filter("", &d.filter)?;
    if let Some(b) = &d.by {
        find("by", b)?;
    }
    let series = all_series(d);
    if series.is_empty() {
        return Err(bad(
            "y",
            "(none)".into(),
            "a chart needs y or at least one [[chart.series]]".into(),
        ));
    }
    for (i, s) in series.iter().enumerate() {
        let p = format!("series[{i}].");
        let f = |name: &str| format!("{p}{name}");
        match (&s.y, &s.curve) {
            (Some(y), None) => {
                numeric(&f("y"), y)?;
                if d.y_log && s.floor.is_none_or(|x| x <= 0.0) {
                    positive(&f("y"), y)?;
                }
            }
            (None, Some(c)) => {
                let Some(curve) = curves(c) else {
                    return Err(bad(
                        &f("curve"),
                        format!("{c:?}"),
                        "is not a known curve".into(),
                    ));
                };
                if let Curve::Function(_) = curve {
                    let (Some(a), Some(b)) = (s.from, s.to) else {
                        return Err(bad(
                            &f("from"),
                            "(none)".into(),
                            "a function curve needs from and to".into(),
                        ));
                    };
                    if !(a.is_finite() && b.is_finite() && a < b) {
                        return Err(bad(
                            &f("from"),
                            format!("{a}..{b}"),
                            "must be finite with from < to".into(),
                        ));
                    }
                    if (d.x_log || !s.linear) && a <= 0.0 {
                        return Err(bad(
                            &f("from"),
                            a.to_string(),
                            "a log-spaced curve or a log x axis needs from > 0".into(),
                        ));
                    }
                    if s.points.is_some_and(|n| !(2..=10_000).contains(&n)) {
                        return Err(bad(
                            &f("points"),
                            s.points.unwrap_or(0).to_string(),
                            "must be 2 to 10000".into(),
                        ));
                    }
                }
            }
            _ => {
                return Err(bad(
                    &f("y"),
                    "(both or neither)".into(),
                    "a series has exactly one of y (a column) or curve (a named curve)".into(),
                ));
            }
        }
        if let Some(x) = &s.x {
            numeric(&f("x"), x)?;
            if d.x_log {
                positive(&f("x"), x)?;
            }
        }
        if let Some(b) = &s.by {
            find(&f("by"), b)?;
        }
        check_filter(&p, &s.filter)?;
        if d.y_log && s.scale.is_some_and(|k| k <= 0.0) {
            return Err(bad(
                &f("scale"),
                s.scale.unwrap_or(0.0).to_string(),
                "a log y axis needs a positive scale".into(),
            ));
        }
    }
    for (kind, lines, log) in [("hline", &d.hline, d.y_log), ("vline", &d.vline, d.x_log)] {
        for (i, l) in lines.iter().enumerate() {
            let field = format!("{kind}[{i}]");
            match (l.at, &l.func, &l.of) {
                (Some(a), None, None) => {
                    if log && a <= 0.0 {
                        return Err(bad(
                            &format!("{field}.at"),
                            a.to_string(),
                            "a log axis shows only positive values".into(),
                        ));
                    }
                }
                (None, Some(func), Some(of)) => {
                    if !matches!(curves(func), Some(Curve::Function(_))) {
                        return Err(bad(
                            &format!("{field}.fn"),
                            format!("{func:?}"),
                            "is not a known function".into(),
                        ));
                    }
                    numeric(&format!("{field}.of"), of)?;
                }
                _ => {
                    return Err(bad(
                        &field,
                        "{…}".into(),
                        "a line has at = NUMBER, or fn = NAME with of = COLUMN".into(),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Rows of `t` that pass `f` (picks read the whole table).
fn keep<'a>(
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
                    } else if let Some(a) = op.above {
                        cell.as_f64().is_some_and(|x| x > a)
                    } else if let Some(b) = op.below {
                        cell.as_f64().is_some_and(|x| x < b)
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

/// `{column}` → the column's distinct values in `rows`; other braces stay.
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
        if let Some((_, v)) = extra.iter().find(|(k, _)| *k == key) {
            out += v;
        } else if t.has(key) {
            let mut seen: Vec<String> = Vec::new();
            for r in rows {
                let s = match t.cell(r, key) {
                    Value::Float(x) => sig(*x, 3),
                    Value::Int(i) => sig(*i as f64, 3),
                    other => other.to_string(),
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

/// Draws a declaration from the tables (`None`: the source table is absent
/// or lacks a column; a chart with no points is returned empty and not written).
pub fn draw(d: &ChartDecl, tables: &Tables, curves: Curves) -> Option<Chart> {
    let t = match d.source {
        Source::Results => &tables.results,
        Source::Summary => tables.summary.as_ref()?,
    };
    let rows = keep(t, t.rows.iter().collect(), &d.filter);
    let series = all_series(d);
    let y_label = d
        .y_label
        .clone()
        .unwrap_or_else(|| series.first().and_then(|s| s.y.clone()).unwrap_or_default());
    let mut c = Chart::new(
        &d.name,
        &fill(&d.title, t, &rows, &[]),
        d.x_label.as_deref().unwrap_or(&d.x),
        &y_label,
    );
    c.x_log = d.x_log;
    c.y_log = d.y_log;
    for l in &d.hline {
        let y = line_at(l, t, &rows, curves)?;
        c = c.hline(y, fill(&l.label, t, &rows, &[("value", sig(y, 3))]));
    }
    for l in &d.vline {
        let x = line_at(l, t, &rows, curves)?;
        c = c.vline(x, fill(&l.label, t, &rows, &[("value", sig(x, 3))]));
    }
    // a chart whose columns give no point is not drawn, whatever curves it has
    let mut data = (false, false);
    for s in &series {
        let style = s.style.map(Style::from).unwrap_or(if s.curve.is_some() {
            Style::Line
        } else {
            Style::Points
        });
        if let Some(name) = &s.curve {
            let pts = match curves(name)? {
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
            };
            c = c.series(Series::new(
                s.label.clone().unwrap_or_else(|| name.clone()),
                style,
                pts,
            ));
            continue;
        }
        let y = s.y.as_deref()?;
        let x = s.x.as_deref().unwrap_or(&d.x);
        data.0 = true;
        if !t.has(x) || !t.has(y) {
            return None;
        }
        let mine = keep(t, rows.clone(), &s.filter);
        let groups: Vec<Option<String>> = match &s.by {
            None => vec![None],
            Some(b) => {
                if !t.has(b) {
                    return None;
                }
                let mut g: Vec<String> = Vec::new();
                for r in &mine {
                    let v = t.str(r, b);
                    if !g.contains(&v) {
                        g.push(v);
                    }
                }
                g.into_iter().map(Some).collect()
            }
        };
        for g in groups {
            let rs: Vec<&Vec<Value>> = match (&g, &s.by) {
                (Some(v), Some(b)) => mine.iter().copied().filter(|r| t.str(r, b) == *v).collect(),
                _ => mine.clone(),
            };
            let label = match (&g, &s.by) {
                (Some(v), Some(b)) => fill(
                    s.label.as_deref().unwrap_or("{by} = {value}"),
                    t,
                    &rs,
                    &[("value", v.clone()), ("by", b.clone())],
                ),
                _ => fill(s.label.as_deref().unwrap_or(y), t, &rs, &[]),
            };
            let pts = points(t, &rs, x, y, s);
            data.1 |= !pts.is_empty();
            c = c.series(Series::new(label, style, pts));
        }
    }
    if data.0 && !data.1 {
        c.series.clear();
    }
    Some(c)
}

fn line_at(l: &RefLine, t: &Table, rows: &[&Vec<Value>], curves: Curves) -> Option<f64> {
    if let Some(a) = l.at {
        return Some(a);
    }
    let (Some(Curve::Function(f)), Some(of)) = (l.func.as_deref().and_then(curves), &l.of) else {
        return None;
    };
    if !t.has(of) {
        return None;
    }
    let v = rows.first().and_then(|r| t.f64(r, of))?;
    Some(f(v))
}

/// Points `(x, y ± interval)` of `rows`, transformed as the series says,
/// sorted by x.
fn points(t: &Table, rows: &[&Vec<Value>], x: &str, y: &str, s: &SeriesDecl) -> Vec<Point> {
    let k = s.scale.unwrap_or(1.0);
    let mut v: Vec<Point> = rows
        .iter()
        .filter_map(|r| {
            let (xv, yv) = (t.f64(r, x)?, t.f64(r, y)?);
            let mut yv = yv * k;
            if s.abs {
                yv = yv.abs();
            }
            if s.clip.is_some_and(|c| yv.abs() > c) {
                return None;
            }
            if let Some(f) = s.floor {
                yv = yv.max(f);
            }
            let interval = t
                .interval(r, y)
                .filter(|i| s.interval && !s.abs && i.lo.is_finite() && i.hi.is_finite());
            Some(match interval {
                Some(i) => {
                    let (a, b) = (i.lo * k, i.hi * k);
                    Point::with_interval(xv, yv, a.min(b), a.max(b))
                }
                None => Point::new(xv, yv),
            })
        })
        .collect();
    v.sort_by(|a, b| a.x.total_cmp(&b.x));
    v
}
