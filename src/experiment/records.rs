//! A study's journal records read as its results table: the one step the
//! parallel runner, the sequential one and `merge` share.

use super::journal::Record;
use super::spec::Spec;
use crate::error::{Error, Result};
use crate::table::{Table, Value};

/// Journal records (in trial order) as the study's results table.
pub fn to_table(spec: &Spec, records: &[Record]) -> Result<Table> {
    let columns = spec.kind.columns();
    let mut rows = Vec::new();
    for r in records {
        for cells in &r.rows {
            if cells.len() != columns.len() {
                return Err(Error::Other(anyhow::anyhow!(
                    "bug: kind {} produced a row of {} cells for {} columns",
                    spec.kind.name(),
                    cells.len(),
                    columns.len()
                )));
            }
            let row = columns
                .iter()
                .zip(cells)
                .map(|(c, s)| c.ty.parse(s))
                .collect::<Result<Vec<Value>>>()
                .map_err(|e| Error::Input(format!("{}: trial {}: {e}", spec.name, r.index)))?;
            rows.push(row);
        }
    }
    Ok(Table { columns, rows })
}
