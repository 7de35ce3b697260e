//! results.csv and summary.csv: one header row, one row per trial (or setting).
//! Text is parsed back by each column's declared type.

use crate::table::{Column, Table};

pub fn to_bytes(t: &Table) -> anyhow::Result<Vec<u8>> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(t.columns.iter().map(|c| &c.name))?;
    for r in &t.rows {
        if r.len() != t.columns.len() {
            return Err(crate::error::bug(format!(
                "row width {} != {} columns",
                r.len(),
                t.columns.len()
            )));
        }
        w.write_record(r.iter().map(|c| c.to_string()))?;
    }
    Ok(w.into_inner()?)
}

/// Parses a CSV whose header must be exactly `schema`'s names.
pub fn parse(bytes: &[u8], schema: &[Column]) -> anyhow::Result<Table> {
    let mut r = ::csv::Reader::from_reader(bytes);
    let header: Vec<String> = r.headers()?.iter().map(String::from).collect();
    let want: Vec<&str> = schema.iter().map(|c| c.name.as_str()).collect();
    anyhow::ensure!(
        header == want,
        "CSV header {} does not match the declared columns {}",
        header.join(","),
        want.join(",")
    );
    let mut rows = Vec::new();
    for (line, rec) in r.records().enumerate() {
        let rec = rec?;
        let mut row = Vec::with_capacity(schema.len());
        for (c, field) in schema.iter().zip(rec.iter()) {
            row.push(
                c.ty.parse(field)
                    .map_err(|e| anyhow::anyhow!("row {}, column {}: {e}", line + 1, c.name))?,
            );
        }
        rows.push(row);
    }
    Ok(Table {
        columns: schema.to_vec(),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{ColType, Value};

    #[test]
    fn round_trip_by_declared_type() {
        let t = Table {
            columns: vec![
                Column::new("a", ColType::Int),
                Column::new("b", ColType::Float),
                Column::new("c", ColType::Str),
                Column::new("seed", ColType::Str),
                Column::new("ok", ColType::Bool),
            ],
            rows: vec![
                vec![
                    Value::Int(1),
                    Value::Float(0.25),
                    Value::Str("x, y".into()),
                    Value::Str("1e5a00000000abcd".into()),
                    Value::Bool(true),
                ],
                vec![
                    Value::Empty,
                    Value::Float(1e-9),
                    Value::Str("z".into()),
                    Value::Str("0000000000001234".into()),
                    Value::Bool(false),
                ],
            ],
        };
        let b = to_bytes(&t).unwrap();
        assert_eq!(parse(&b, &t.columns).unwrap(), t);
        assert!(parse(&b, &t.columns[..4]).is_err());
    }
}
