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

mod check;
mod draw;
pub mod expr;
mod heatmap;
mod points;
mod reading;
mod select;

pub use check::{Columns, validate};
pub use draw::draw;
pub use heatmap::HeatmapDecl;
pub use reading::{ReadingDecl, SectionDecl, TableDecl, validate_section};

use super::{Point, Style};
use crate::error::Error;
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
    /// `true`, `false` or `"auto"` (log when the drawn values span more than 50×).
    #[serde(default)]
    pub x_log: Log,
    #[serde(default)]
    pub y_log: Log,
    /// Rows the whole chart draws from.
    #[serde(default, rename = "where")]
    pub filter: BTreeMap<String, Selector>,
    /// Shorthand for one series per column (each styled `style`, grouped `by`).
    #[serde(default)]
    pub y: OneOrMany,
    /// Every series once per value of this column (or combination of
    /// these columns' values, nested in the order given), group by group
    /// (`{value}` and `{by}` in their labels).
    #[serde(default)]
    pub by: OneOrMany,
    /// The style of the `y` shorthand's series (and the default of the others).
    #[serde(default)]
    pub style: Option<StyleName>,
    /// A text x column drawn at positions 1, 2, …: in this order (values
    /// not listed are left out), or `"first_seen"` in the table.
    #[serde(default)]
    pub x_categories: Option<Categories>,
    /// The first category's position (default 1; 0 for "0 = first").
    #[serde(default)]
    pub x_from: Option<f64>,
    /// Drawn only when each column has at least this many distinct values
    /// in the chart's rows (a sweep chart needs a sweep).
    #[serde(default)]
    pub min_distinct: BTreeMap<String, usize>,
    /// Drawn only when each column has at most this many distinct values
    /// (a chart another chart replaces when the column is swept).
    #[serde(default)]
    pub max_distinct: BTreeMap<String, usize>,
    /// One chart per value of this column (`{column}` in the name tells them apart).
    #[serde(default)]
    pub facet: Option<String>,
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

/// The order of a categorical x axis: the values listed, `"first_seen"`
/// (each value where the table first has it) or `"rows"` (every row of the
/// chart its own position, in table order, named by the x column). The
/// axis labels may say `{categories}`: "1 = a, 2 = b, …".
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Categories {
    Order(Vec<String>),
    Word(CategoryWord),
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CategoryWord {
    FirstSeen,
    Rows,
}

/// Whether an axis is logarithmic.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Log {
    Flag(bool),
    Auto(AutoWord),
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum AutoWord {
    Auto,
}

impl Default for Log {
    fn default() -> Self {
        Log::Flag(false)
    }
}

impl Log {
    /// Whether the axis may be logarithmic (so must hold positive values).
    pub fn maybe(self) -> bool {
        self != Log::Flag(false)
    }
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
    pub fn list(&self) -> Vec<String> {
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
    /// `{ exists = true }`: the cell holds a number or text (not empty);
    /// `false`: it is empty.
    #[serde(default)]
    pub exists: Option<bool>,
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
    /// The y column, or arithmetic over columns (`"hit_rate * per"`, see
    /// [`expr`]); a plain column draws its interval as error bars.
    #[serde(default)]
    pub y: Option<String>,
    /// A named theory curve instead of a column (see the kind registry).
    #[serde(default)]
    pub curve: Option<String>,
    /// The x column (or arithmetic over columns), when not the chart's.
    #[serde(default)]
    pub x: Option<String>,
    /// `{value}`: the group's value; `{by}`: the group column. Default: the
    /// y column, or "{by} = {value}" when grouped.
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub by: OneOrMany,
    /// Default: points for a column, line for a curve.
    #[serde(default)]
    pub style: Option<StyleName>,
    #[serde(default, rename = "where")]
    pub filter: BTreeMap<String, Selector>,
    /// Error bars: from `y_lo`/`y_hi` when the table has them (default),
    /// `false` for none.
    #[serde(default = "yes")]
    pub interval: bool,
    /// Leave out points with |y| above this.
    #[serde(default)]
    pub clip: Option<f64>,
    /// One point per x (the first), for a column that repeats across rows.
    #[serde(default)]
    pub distinct: bool,
    /// One point per x pooling the rows' counts: a proportion column's
    /// `_k` and `_n` summed, with the Wilson interval of the pool (another
    /// column: the first row's value).
    #[serde(default)]
    pub pool: bool,
    /// Wide columns drawn as one series: `{ column = x, … }` puts each
    /// row's `column` at x (with its interval), instead of `y`.
    #[serde(default)]
    pub at: BTreeMap<String, f64>,
    /// Drawn once over all the chart's rows, after the series a chart-level
    /// `by` repeats per group.
    #[serde(default)]
    pub once: bool,
    /// A curve drawn only over the x range the chart's table series cover
    /// (padded by 15%, within its `from`/`to`): for charts whose data range
    /// is not known in advance (a user's own structure), so that a theory
    /// line does not stretch the axes far past the data.
    #[serde(default)]
    pub span_data: bool,
    /// A curve's x range and points (log-spaced unless `linear`). With `y`
    /// instead of a curve, y is swept as a function of the chart's x
    /// column over that range, its other columns held at each group's
    /// first row (a theory line per row).
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

/// A horizontal or vertical line: at a constant (`at`), at the value of a
/// column in the chart's rows (`of`, the first row that has one), or at
/// a named function of it (`fn` with `of`); with `by`, one line per value
/// of that column (its label filled from that value's rows). `{value}` in
/// the label is the position (`{value:sig5}`, `{value:bytes}` …). A line at
/// a non-positive value on a log axis is left out.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RefLine {
    #[serde(default)]
    pub at: Option<f64>,
    #[serde(default, rename = "fn")]
    pub func: Option<String>,
    #[serde(default)]
    pub of: Option<String>,
    #[serde(default)]
    pub by: Option<String>,
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
pub fn from_toml(v: &toml::Value) -> crate::error::Result<Vec<ChartDecl>> {
    let mut v = v.clone();
    let words: Vec<Option<String>> = match v.as_table_mut().and_then(|t| t.remove("repeat")) {
        None => vec![None],
        Some(toml::Value::Array(a)) if !a.is_empty() => a
            .iter()
            .map(|w| {
                w.as_str()
                    .map(|s| Some(s.to_string()))
                    .ok_or_else(|| Error::input(format!("repeat = {w}: must be a list of words")))
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(Error::input(format!(
                "repeat = {other}: must be a non-empty list of words"
            )));
        }
    };
    words
        .into_iter()
        .map(|w| {
            let mut c = v.clone();
            if let Some(w) = &w {
                substitute(&mut c, w);
            }
            c.clone().try_into::<ChartDecl>().map_err(|e| {
                let msg = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
                Error::input(match field_of(&c) {
                    // an unknown key's message already names it
                    Some(f) if !msg.contains(&format!("`{f}`")) => format!("`{f}`: {msg}"),
                    _ => msg,
                })
            })
        })
        .collect()
}

/// The field of a chart table that does not deserialize, as `key` or
/// `section.key`: the table written as TOML text and read back, whose error
/// carries the span of the offending value (a `toml::Value` carries none).
fn field_of(c: &toml::Value) -> Option<String> {
    let text = toml::to_string(c).ok()?;
    let span = toml::from_str::<ChartDecl>(&text).err()?.span()?;
    let before = &text[..span.start.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next()?;
    let key = line.split('=').next()?.trim();
    let section = before[..line_start]
        .lines()
        .rev()
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(|ch| ch == '[' || ch == ']').to_string());
    Some(match section {
        Some(s) if !key.is_empty() => format!("{s}.{key}"),
        _ if !key.is_empty() => key.to_string(),
        Some(s) => s,
        None => return None,
    })
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

/// A kind's view file: the (measured, theory) column pairs whose misses
/// the report lists (`theory`), the essay's lost table it reconstructs
/// (`reconstructs`), its `[[chart]]`s, its section's `[table]`, its
/// `[[reading]]`s and its `[[heatmap]]`s.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ViewFile {
    #[serde(default)]
    theory: Vec<TheoryPair>,
    #[serde(default)]
    reconstructs: Option<String>,
    #[serde(default)]
    chart: Vec<toml::Value>,
    #[serde(default)]
    table: Option<TableDecl>,
    #[serde(default)]
    reading: Vec<ReadingDecl>,
    #[serde(default)]
    heatmap: Vec<HeatmapDecl>,
}

fn view_file(text: &str) -> crate::error::Result<ViewFile> {
    toml::from_str(text).map_err(|e| Error::input(e.to_string()))
}

/// Parses the `[[chart]]` tables of a kind's view.
pub fn parse(text: &str) -> crate::error::Result<Vec<ChartDecl>> {
    charts_of(&view_file(text)?.chart)
}

/// Reads a view's raw `[[chart]]` tables.
fn charts_of(raw: &[toml::Value]) -> crate::error::Result<Vec<ChartDecl>> {
    let mut out = Vec::new();
    for (i, c) in raw.iter().enumerate() {
        out.extend(
            from_toml(c).map_err(|e| Error::input(format!("chart {}: {e}", raw_name(c, i))))?,
        );
    }
    Ok(out)
}

/// Parses the `[table]` and `[[reading]]` tables of a kind's view (its
/// section: see [`SectionDecl`]).
pub fn parse_section(text: &str) -> crate::error::Result<SectionDecl> {
    let f = view_file(text)?;
    Ok(SectionDecl {
        table: f.table,
        reading: f.reading,
    })
}

/// `theory = [{ measured = "fpr_measured", theory = "fpr_theory" }]` in a
/// view: every row whose theory value lies outside the measured interval is
/// reported in the study's reading, never left in a table.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TheoryPair {
    pub measured: String,
    pub theory: String,
}

/// A kind's view file, read once: every part of it.
pub struct ViewDecl {
    /// The (measured, theory) column pairs whose misses the reading lists.
    pub theory: Vec<TheoryPair>,
    /// The title of the essay's lost table the study's table reconstructs
    /// (in the report's "The essay's lost tables").
    pub reconstructs: Option<String>,
    pub charts: Vec<ChartDecl>,
    pub section: SectionDecl,
    pub heatmaps: Vec<HeatmapDecl>,
}

/// Parses a whole view file.
pub fn parse_view(text: &str) -> crate::error::Result<ViewDecl> {
    let f = view_file(text)?;
    Ok(ViewDecl {
        charts: charts_of(&f.chart)?,
        theory: f.theory,
        reconstructs: f.reconstructs,
        section: SectionDecl {
            table: f.table,
            reading: f.reading,
        },
        heatmaps: f.heatmap,
    })
}

/// The series a declaration draws, shorthand first.
pub(super) fn all_series(d: &ChartDecl) -> Vec<SeriesDecl> {
    let mut out: Vec<SeriesDecl> =
        d.y.list()
            .into_iter()
            .map(|y| SeriesDecl {
                y: Some(y),
                curve: None,
                x: None,
                label: None,
                by: OneOrMany::None,
                style: d.style,
                filter: BTreeMap::new(),
                interval: true,
                clip: None,
                distinct: false,
                pool: false,
                at: BTreeMap::new(),
                once: false,
                span_data: false,
                from: None,
                to: None,
                points: None,
                linear: false,
            })
            .collect();
    out.extend(d.series.iter().cloned());
    out
}

#[cfg(test)]
mod section_tests;
#[cfg(test)]
mod tests;
