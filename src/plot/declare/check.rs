//! Checking a declaration before any trial runs.

use super::expr::Expr;
use super::{ChartDecl, Curve, Curves, DeclError, Selector, Source, all_series};
use crate::table::{ColType, Column, Value};
use std::collections::BTreeMap;

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
    // a faceted name carries `{column}`: check the text around it
    let bare: String = d
        .name
        .split('{')
        .map(|p| p.split_once('}').map_or(p, |(_, rest)| rest))
        .collect();
    if bare.is_empty()
        || d.name.len() > 64
        || !bare
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
            ColType::Int | ColType::Float | ColType::IntOrStr => Ok(()),
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
                        "must be a value, a list of values, or one of { pick = \"max\" | \"min\" | \"first\" }, { nearest = X }, { not = V }, { exists = BOOL }, { above = X }, { below = X }".into(),
                    ));
                }
            }
            if let Selector::Op(op) = sel {
                let n = [
                    op.pick.is_some(),
                    op.nearest.is_some(),
                    op.not.is_some(),
                    op.above.is_some() || op.below.is_some(),
                    op.exists.is_some(),
                ]
                .iter()
                .filter(|b| **b)
                .count();
                if n != 1 {
                    return Err(bad(
                        &field,
                        "{…}".into(),
                        "must hold exactly one of pick, nearest, not, exists, or above and/or below".into(),
                    ));
                }
                let ordered = op.nearest.is_some() || op.above.is_some() || op.below.is_some();
                if ordered && !matches!(c.ty, ColType::Int | ColType::Float | ColType::IntOrStr) {
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
    let axis = |field: &str, text: &str, log: bool| -> Result<(), DeclError> {
        let e = Expr::parse(text).map_err(|m| bad(field, format!("{text:?}"), m.to_string()))?;
        let text_cols = e.text_columns();
        for c in e.columns() {
            if text_cols.contains(&c) {
                find(field, c)?;
            } else {
                numeric(field, c)?;
            }
        }
        if log && let Some(c) = e.column() {
            positive(field, c)?;
        }
        Ok(())
    };
    if d.x_categories.is_some() {
        find("x", &d.x)?;
        if d.series.iter().any(|s| s.x.is_some()) {
            return Err(bad(
                "x_categories",
                "…".into(),
                "a categorical x is the chart's: no series may set its own x".into(),
            ));
        }
    } else {
        if d.x_from.is_some() {
            return Err(bad(
                "x_from",
                format!("{:?}", d.x_from),
                "numbers categories: set it with x_categories".into(),
            ));
        }
        axis("x", &d.x, d.x_log.maybe())?;
    }
    for c in d.min_distinct.keys() {
        find(&format!("min_distinct.{c}"), c)?;
    }
    for c in d.max_distinct.keys() {
        find(&format!("max_distinct.{c}"), c)?;
    }
    check_filter("", &d.filter)?;
    for b in d.by.list() {
        find("by", &b)?;
    }
    if let Some(f) = &d.facet {
        find("facet", f)?;
    } else if d.name.contains('{') {
        return Err(bad(
            "name",
            format!("{:?}", d.name),
            "only a faceted chart may put {column} in its name".into(),
        ));
    }
    let series = all_series(d);
    if series.is_empty() {
        return Err(bad(
            "y",
            "(none)".into(),
            "a chart needs y or at least one [[chart.series]]".into(),
        ));
    }
    // the `y` shorthand's series come first: name their field `y`
    let short = d.y.list().len();
    for (i, s) in series.iter().enumerate() {
        let p = if i < short {
            String::new()
        } else {
            format!("series[{}].", i - short)
        };
        let f = |name: &str| format!("{p}{name}");
        let range = |s: &super::SeriesDecl| -> Result<(), DeclError> {
            let (Some(a), Some(b)) = (s.from, s.to) else {
                return Err(bad(
                    &f("from"),
                    "(none)".into(),
                    "a function curve or a swept y needs from and to".into(),
                ));
            };
            if !(a.is_finite() && b.is_finite() && a != b) {
                return Err(bad(
                    &f("from"),
                    format!("{a}..{b}"),
                    "must be finite and differ from to".into(),
                ));
            }
            if (d.x_log.maybe() || !s.linear) && a.min(b) <= 0.0 {
                return Err(bad(
                    &f("from"),
                    format!("{a}..{b}"),
                    "a log-spaced curve or a log x axis needs from and to > 0".into(),
                ));
            }
            if s.points.is_some_and(|n| !(2..=10_000).contains(&n)) {
                return Err(bad(
                    &f("points"),
                    s.points.unwrap_or(0).to_string(),
                    "must be 2 to 10000".into(),
                ));
            }
            Ok(())
        };
        match (&s.y, &s.curve, s.at.is_empty()) {
            (Some(y), None, true) => {
                axis(&f("y"), y, d.y_log.maybe())?;
                if s.from.is_some() || s.to.is_some() {
                    if d.x_categories.is_some() || s.x.is_some() {
                        return Err(bad(
                            &f("from"),
                            "…".into(),
                            "a swept y runs along the chart's numeric x column".into(),
                        ));
                    }
                    numeric(&f("from"), &d.x)?;
                    range(s)?;
                }
            }
            (None, Some(c), true) => {
                let Some(curve) = curves(c) else {
                    return Err(bad(
                        &f("curve"),
                        format!("{c:?}"),
                        "is not a known curve".into(),
                    ));
                };
                if let Curve::Function(_) = curve {
                    range(s)?;
                }
            }
            (None, None, false) => {
                for (col, x) in &s.at {
                    numeric(&f(&format!("at.{col}")), col)?;
                    if d.y_log.maybe() {
                        positive(&f(&format!("at.{col}")), col)?;
                    }
                    if !x.is_finite() || (d.x_log.maybe() && *x <= 0.0) {
                        return Err(bad(
                            &f(&format!("at.{col}")),
                            x.to_string(),
                            "must be a finite x (positive on a log axis)".into(),
                        ));
                    }
                }
            }
            _ => {
                return Err(bad(
                    &f("y"),
                    "(more than one, or none)".into(),
                    "a series has exactly one of y (a column), curve (a named curve) or at (wide columns at their x)".into(),
                ));
            }
        }
        if let Some(x) = &s.x {
            axis(&f("x"), x, d.x_log.maybe())?;
        }
        for b in s.by.list() {
            find(&f("by"), &b)?;
        }
        if s.pool && s.y.as_deref().is_some_and(|y| !is_column(y)) {
            return Err(bad(
                &f("pool"),
                "true".into(),
                "pooling needs y to be one column (a proportion pools its counts)".into(),
            ));
        }
        check_filter(&p, &s.filter)?;
        if s.clip.is_some_and(|c| c.is_nan() || c <= 0.0) {
            return Err(bad(
                &f("clip"),
                s.clip.unwrap_or(0.0).to_string(),
                "must be a positive number".into(),
            ));
        }
    }
    for (kind, lines, log) in [
        ("hline", &d.hline, d.y_log.maybe()),
        ("vline", &d.vline, d.x_log.maybe()),
    ] {
        for (i, l) in lines.iter().enumerate() {
            let field = format!("{kind}[{i}]");
            if let Some(b) = &l.by {
                find(&format!("{field}.by"), b)?;
            }
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
                (None, func, Some(of)) => {
                    if let Some(func) = func
                        && !matches!(curves(func), Some(Curve::Function(_)))
                    {
                        return Err(bad(
                            &format!("{field}.fn"),
                            format!("{func:?}"),
                            "is not a known function".into(),
                        ));
                    }
                    axis(&format!("{field}.of"), of, false)?;
                }
                _ => {
                    return Err(bad(
                        &field,
                        "{…}".into(),
                        "a line has at = NUMBER, or of = COLUMN (optionally with fn = NAME)".into(),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn is_column(text: &str) -> bool {
    Expr::parse(text).is_ok_and(|e| e.column().is_some())
}
