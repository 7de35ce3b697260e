//! results.csv: one header row, one row per trial.

use crate::experiment::{Cell, Table};

pub fn to_bytes(t: &Table) -> anyhow::Result<Vec<u8>> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(&t.columns)?;
    for r in &t.rows {
        anyhow::ensure!(
            r.len() == t.columns.len(),
            "bug: row width {} != {} columns",
            r.len(),
            t.columns.len()
        );
        w.write_record(r.iter().map(|c| c.to_string()))?;
    }
    Ok(w.into_inner()?)
}

pub fn parse(bytes: &[u8]) -> anyhow::Result<Table> {
    let mut r = ::csv::Reader::from_reader(bytes);
    let columns = r.headers()?.iter().map(String::from).collect();
    let mut rows = Vec::new();
    for rec in r.records() {
        rows.push(rec?.iter().map(Cell::parse).collect());
    }
    Ok(Table { columns, rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let t = Table {
            columns: vec!["a".into(), "b".into(), "c".into()],
            rows: vec![
                vec![Cell::Int(1), Cell::Float(0.25), Cell::Str("x, y".into())],
                vec![Cell::Empty, Cell::Float(1e-9), Cell::Str("z".into())],
            ],
        };
        let b = to_bytes(&t).unwrap();
        assert_eq!(parse(&b).unwrap(), t);
    }
}
