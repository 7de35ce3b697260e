//! Heatmaps as data: a `[[heatmap]]` table draws one matrix per selected
//! row from a column that holds it ([`crate::plot::heatmap::encode`]).
//!
//! ```toml
//! [[heatmap]]
//! name = "avalanche_{hash}"            # {column}: the row's value
//! title = "Avalanche bias: {hash} (worst {avalanche_worst_bias:pct3})"
//! matrix = "avalanche_matrix"          # "ROWSxCOLS:hex" cells
//! where = { test = "avalanche" }
//! x_label = "output bit"
//! y_label = "flipped input bit"
//! scale_max = "bias 100%"              # what the darkest colour means
//! ```

use super::{DeclError, Selector, select::keep};
use crate::plot::Heatmap;
use crate::table::{Column, Table};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One declared heatmap (one per selected row).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HeatmapDecl {
    pub name: String,
    pub title: String,
    /// The column whose cells hold the matrices.
    pub matrix: String,
    #[serde(default, rename = "where")]
    pub filter: BTreeMap<String, Selector>,
    pub x_label: String,
    pub y_label: String,
    pub scale_max: String,
}

impl HeatmapDecl {
    /// One heatmap per selected row whose matrix cell is well formed.
    pub fn draw(&self, t: &Table) -> Vec<Heatmap> {
        if !t.has(&self.matrix) {
            return Vec::new();
        }
        keep(t, t.rows.iter().collect(), &self.filter)
            .into_iter()
            .filter_map(|r| {
                let (rows, cols, values) = crate::plot::heatmap::decode(&t.str(r, &self.matrix))?;
                let fill = |s: &str| super::draw::fill_row(s, t, r);
                Some(Heatmap {
                    stem: super::draw::file_stem(&fill(&self.name)),
                    title: fill(&self.title),
                    x_label: fill(&self.x_label),
                    y_label: fill(&self.y_label),
                    rows,
                    cols,
                    values,
                    scale_max: self.scale_max.clone(),
                })
            })
            .collect()
    }

    /// Checks the matrix and filter columns against the results table.
    pub fn validate(&self, results: &[Column]) -> Result<(), DeclError> {
        let has = |c: &str| results.iter().any(|x| x.name == c);
        let bad = |field: &str, value: &str| DeclError {
            field: format!("heatmap {}.{field}", self.name),
            value: format!("{value:?}"),
            allowed: "a column of the results table".into(),
        };
        if !has(&self.matrix) {
            return Err(bad("matrix", &self.matrix));
        }
        for c in self.filter.keys() {
            if !has(c) {
                return Err(bad(&format!("where.{c}"), c));
            }
        }
        Ok(())
    }
}
