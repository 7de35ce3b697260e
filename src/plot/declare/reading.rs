//! A report section as data: the `[table]` a kind's section shows and the
//! `[[reading]]` sentences that only format numbers from the rows.
//!
//! ```toml
//! [table]
//! source = "summary"                    # or "results" (the default)
//! columns = ["n", "fpr_measured", "fpr_theory"]
//! where = { test = "fpr" }              # the same filters as a chart's
//!
//! [[reading]]
//! text = "Blocked / standard FPR at equal bits per key: {rows}."
//! each = "{bits_per_key:raw} bits/key: {penalty_measured:sig3}× (theory {penalty_theory:sig3}×)"
//! join = "; "
//! ```
//!
//! A placeholder is `{EXPR:FORMAT}`: EXPR a column or arithmetic over
//! columns ([`super::expr`]), read from the first selected row; FORMAT
//! `sigN` (N significant figures, the default `sig3`), `pctN` (a
//! percentage), `int` (rounded, no separators), `bytes` (binary units,
//! "768 B", "1.5 MiB") or `raw` (the cell as the CSV has it). `{EXPR@col=value,col=value:FORMAT}` reads the first selected row
//! with those cells instead (`col=max`, `col=min`: the row where col is
//! largest, smallest). `{max EXPR}`, `{min EXPR}`, `{sum EXPR}` and
//! `{count EXPR}` (rows where EXPR is non-zero, true) aggregate over the
//! selected rows; `{rows}` is `each` formatted for every selected row and
//! joined by `join` (default "; "), `{n_rows}` their number; `row = "last"`
//! reads the last selected row instead of the first. A reading
//! whose `each` selects no row, or whose text names a value no row has, is
//! left out rather than printed with a hole.

use super::expr::Expr;
use super::{Selector, Source};
use crate::export::markdown::{ByteUnits, bytes, pct, sig};
use crate::table::{Table, Tables, Value};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The table a section shows.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TableDecl {
    #[serde(default)]
    pub source: Source,
    pub columns: Vec<String>,
    #[serde(default, rename = "where")]
    pub filter: BTreeMap<String, Selector>,
}

/// One sentence (or paragraph) of a section's reading.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ReadingDecl {
    #[serde(default)]
    pub source: Source,
    #[serde(default, rename = "where")]
    pub filter: BTreeMap<String, Selector>,
    pub text: String,
    #[serde(default)]
    pub each: Option<String>,
    #[serde(default)]
    pub join: Option<String>,
    /// Which selected row a plain placeholder reads: the first (default)
    /// or the last (in grid order: the largest setting of the last dimension).
    #[serde(default)]
    pub row: WhichRow,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum WhichRow {
    #[default]
    First,
    Last,
}

/// A section's declared table and readings.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct SectionDecl {
    #[serde(default)]
    pub table: Option<TableDecl>,
    #[serde(default)]
    pub reading: Vec<ReadingDecl>,
}

fn source(tables: &Tables, s: Source) -> &Table {
    match s {
        Source::Results => &tables.results,
        Source::Summary => tables.summary.as_ref().unwrap_or(&tables.results),
    }
}

impl TableDecl {
    /// The selected rows' declared columns (those the table has).
    pub fn render(&self, tables: &Tables) -> Table {
        let t = source(tables, self.source);
        let rows = super::select::keep(t, t.rows.iter().collect(), &self.filter);
        let cols: Vec<&str> = self
            .columns
            .iter()
            .map(String::as_str)
            .filter(|c| t.has(c))
            .collect();
        let mut out = t.project(&cols, |_| false);
        out.rows = rows
            .into_iter()
            .map(|r| cols.iter().map(|c| t.cell(r, c).clone()).collect())
            .collect();
        out
    }
}

impl ReadingDecl {
    /// The sentence, or `None` when its rows do not give every value.
    pub fn render(&self, tables: &Tables) -> Option<String> {
        let t = source(tables, self.source);
        let mut rows = super::select::keep(t, t.rows.iter().collect(), &self.filter);
        let mut extra: Vec<(String, String)> = vec![("n_rows".into(), rows.len().to_string())];
        if let Some(each) = &self.each {
            let parts: Vec<String> = rows
                .iter()
                .filter_map(|r| fill(each, t, std::slice::from_ref(r), &[]))
                .collect();
            if parts.is_empty() {
                return None;
            }
            extra.push((
                "rows".into(),
                parts.join(self.join.as_deref().unwrap_or("; ")),
            ));
        }
        // a plain placeholder reads the first of these rows
        if self.row == WhichRow::Last {
            rows.reverse();
        }
        fill(&self.text, t, &rows, &extra)
    }
}

impl SectionDecl {
    /// The readings that have their values, one after another.
    pub fn reading(&self, tables: &Tables) -> String {
        self.reading
            .iter()
            .filter_map(|r| r.render(tables))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The `{…}` keys of a template.
fn keys(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    out
}

/// A placeholder split into aggregate, expression, cell selector and format.
pub struct Placeholder<'a> {
    pub aggregate: Option<&'a str>,
    pub expr: &'a str,
    pub at: Vec<(&'a str, &'a str)>,
    pub format: &'a str,
}

pub fn placeholder(key: &str) -> Placeholder<'_> {
    let (body, format) = match key.rsplit_once(':') {
        Some((b, f)) if !f.contains(['(', ')', ' ']) => (b, f),
        _ => (key, "sig3"),
    };
    let (aggregate, body) = match body.split_once(' ') {
        Some((a, rest)) if ["max", "min", "sum", "count"].contains(&a) => (Some(a), rest.trim()),
        _ => (None, body),
    };
    let (expr, at) = match body.split_once('@') {
        Some((e, at)) => (
            e.trim(),
            at.split(',')
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.trim(), v.trim()))
                .collect(),
        ),
        None => (body.trim(), Vec::new()),
    };
    Placeholder {
        aggregate,
        expr,
        at,
        format,
    }
}

/// Whether a format word is known.
pub fn known_format(f: &str) -> bool {
    matches!(f, "raw" | "int" | "bytes")
        || ["sig", "pct"].iter().any(|p| {
            f.strip_prefix(p)
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| (1..=17).contains(&n))
        })
}

/// A number in a format word ([`known_format`]; `raw` is the caller's).
pub(super) fn number(x: f64, format: &str) -> String {
    match format {
        "int" => return format!("{}", x.round()),
        "bytes" => return bytes(x, ByteUnits::Binary),
        _ => {}
    }
    let (f, n) = format.split_at(3.min(format.len()));
    let n: usize = n.parse().unwrap_or(3);
    if f == "pct" { pct(x, n) } else { sig(x, n) }
}

fn cell_matches(t: &Table, r: &[Value], col: &str, want: &str) -> bool {
    let c = t.cell(r, col);
    match (c.as_f64(), want.parse::<f64>()) {
        (Some(a), Ok(b)) => a == b,
        _ => c.to_string() == want,
    }
}

/// Fills a template from `rows`; `None` when a placeholder has no value.
fn fill(
    template: &str,
    t: &Table,
    rows: &[&Vec<Value>],
    extra: &[(String, String)],
) -> Option<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out += &rest[..open];
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out += &rest[open..];
            return Some(out);
        };
        let key = &after[..close];
        rest = &after[close + 1..];
        if let Some((_, v)) = extra.iter().find(|(k, _)| k == key) {
            out += v;
            continue;
        }
        let p = placeholder(key);
        let expr = Expr::parse(p.expr).ok()?;
        let mut chosen: Vec<&Vec<Value>> = rows.to_vec();
        for &(c, v) in &p.at {
            if !t.has(c) {
                return None;
            }
            let extreme = match v {
                "max" => chosen.iter().filter_map(|r| t.f64(r, c)).reduce(f64::max),
                "min" => chosen.iter().filter_map(|r| t.f64(r, c)).reduce(f64::min),
                _ => None,
            };
            chosen.retain(|r| match extreme {
                Some(x) => t.f64(r, c) == Some(x),
                None => cell_matches(t, r, c, v),
            });
        }
        match p.aggregate {
            Some(agg) => {
                let vals = chosen.iter().filter_map(|r| expr.eval(t, r));
                let x = match agg {
                    "max" => vals.fold(f64::NEG_INFINITY, f64::max),
                    "min" => vals.fold(f64::INFINITY, f64::min),
                    "sum" => vals.sum(),
                    _ => vals.filter(|&v| v != 0.0).count() as f64,
                };
                if !x.is_finite() {
                    return None;
                }
                out += &number(x, if agg == "count" { "int" } else { p.format });
            }
            None => {
                let r = chosen.first()?;
                if p.format == "raw" {
                    let col = expr.column()?;
                    out += &t.cell(r, col).to_string();
                } else {
                    out += &number(expr.eval(t, r)?, p.format);
                }
            }
        }
    }
    out += rest;
    Some(out)
}

/// Checks a section declaration against the kind's columns: every table
/// column and every placeholder's expression, cell selector and format.
pub fn validate_section(d: &SectionDecl, cols: &super::Columns) -> Result<(), super::DeclError> {
    let table = |s: Source| match s {
        Source::Results => cols.results,
        Source::Summary => cols.summary,
    };
    let has = |s: Source, c: &str| table(s).iter().any(|x| x.name == c);
    let bad = |field: String, value: &str, allowed: &str| super::DeclError {
        field,
        value: format!("{value:?}"),
        allowed: allowed.into(),
    };
    if let Some(t) = &d.table {
        for c in t.columns.iter().chain(t.filter.keys()) {
            if !has(t.source, c) {
                return Err(bad("table.columns".into(), c, "no such column"));
            }
        }
    }
    for (i, r) in d.reading.iter().enumerate() {
        let field = format!("reading[{i}]");
        for c in r.filter.keys() {
            if !has(r.source, c) {
                return Err(bad(format!("{field}.where"), c, "no such column"));
            }
        }
        for text in std::iter::once(&r.text).chain(&r.each) {
            for key in keys(text) {
                if key == "n_rows" || (key == "rows" && r.each.is_some()) {
                    continue;
                }
                let p = placeholder(key);
                if !known_format(p.format) {
                    return Err(bad(
                        field.clone(),
                        key,
                        "formats: sigN, pctN, int, bytes, raw",
                    ));
                }
                let e = Expr::parse(p.expr).map_err(|m| bad(field.clone(), key, &m.to_string()))?;
                if p.format == "raw" && e.column().is_none() {
                    return Err(bad(
                        field.clone(),
                        key,
                        "raw formats a column, not arithmetic",
                    ));
                }
                for c in e.columns().into_iter().chain(p.at.iter().map(|(c, _)| *c)) {
                    if !has(r.source, c) {
                        return Err(bad(field.clone(), key, &format!("no column {c}")));
                    }
                }
            }
        }
    }
    Ok(())
}
