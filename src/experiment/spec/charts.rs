//! `[[chart]]` in a spec: read, expanded (`repeat`) and checked against the
//! kind's columns and the grid before anything runs; the kind's own
//! declarations come first, and a spec chart of the same name replaces one.

use super::super::kinds::{self, Kind};
use super::super::view::View;
use super::{Axes, Value};
use crate::error::{Error, Result};
use crate::plot::declare::{self, ChartDecl, Columns};
use std::path::Path;

/// The spec's declared charts, validated.
pub fn validate(
    path: &Path,
    kind: &dyn Kind,
    raw: &[toml::Value],
    grids: [&Axes; 2],
) -> Result<Vec<ChartDecl>> {
    let mut out: Vec<ChartDecl> = Vec::new();
    for (i, v) in raw.iter().enumerate() {
        let decls = declare::from_toml(v)
            .map_err(|e| Error::file(path, format!("chart {}: {e}", declare::raw_name(v, i))))?;
        for d in decls {
            if out.iter().any(|o| o.name == d.name) {
                return Err(Error::field(
                    path,
                    &format!("chart {}.name", d.name),
                    &format!("{:?}", d.name),
                    "two charts of this spec have that name",
                ));
            }
            out.push(d);
        }
    }
    let values = |name: &str| -> Option<Vec<Value>> {
        let def = kind.params().iter().find(|d| d.name == name)?;
        let mut v: Vec<Value> = Vec::new();
        for g in grids {
            match g.iter().find(|(n, _)| *n == name) {
                Some((_, vals)) => v.extend(vals.iter().cloned()),
                None => v.extend(def.default_value()),
            }
        }
        Some(v)
    };
    let (results, summary) = (kind.columns(), kind.summary_columns());
    let cols = Columns {
        results: &results,
        summary: &summary,
        values: &values,
    };
    for d in &out {
        declare::validate(d, &cols, &kinds::curves::curve)
            .map_err(|e| Error::field(path, &e.field, &e.value, &e.allowed))?;
    }
    Ok(out)
}

/// The study's own charts (its spec's, in its order) followed by its kind's
/// view: a study's page opens with what only it shows. A spec chart named
/// like one of the view's replaces it in the view's place.
pub fn merged(view: &dyn View, spec: &[ChartDecl]) -> Vec<ChartDecl> {
    let mut shared = view.decl().charts;
    let mut own = Vec::new();
    for d in spec {
        match shared.iter_mut().find(|o| o.name == d.name) {
            Some(o) => *o = d.clone(),
            None => own.push(d.clone()),
        }
    }
    own.extend(shared);
    own
}
