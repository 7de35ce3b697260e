//! results.csv and summary.csv: one header row, one row per trial (or setting).
//! Text is parsed back by each column's declared type. A float of a declared
//! field (a measurement, a theory value or a setting) is written to
//! [`SIGNIFICANT_DIGITS`]; parameters and identities are written as given.

use crate::table::{Column, Table, Value};

/// The significant digits a measured float keeps in a results or summary
/// file. Ten is far below any measurement's own uncertainty (a sampled rate
/// or a timing is known to a few digits) and keeps the committed reference
/// small: a float's last seven digits of f64 noise are most of what the
/// compressor cannot squeeze. Every reader (the summary, the ledger, the
/// charts, a sequential rule) reads the written value, so a run and its
/// re-render agree.
pub const SIGNIFICANT_DIGITS: usize = 10;

/// `x` to [`SIGNIFICANT_DIGITS`] (the nearest f64 to its 10-digit decimal,
/// which prints as that decimal and parses back to itself).
pub fn round_measured(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let r: f64 = format!("{x:.*e}", SIGNIFICANT_DIGITS - 1)
        .parse()
        .expect("a formatted finite float parses");
    // near f64::MAX the rounded decimal is beyond the largest float
    if r.is_finite() { r } else { x }
}

/// A cell as the file holds it.
fn text(c: &Column, v: &Value) -> String {
    match v {
        Value::Float(x) if c.part.is_some() => Value::Float(round_measured(*x)).to_string(),
        other => other.to_string(),
    }
}

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
        w.write_record(t.columns.iter().zip(r).map(|(c, v)| text(c, v)))?;
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

    #[test]
    fn measured_floats_keep_ten_digits_and_a_rewrite_changes_nothing() {
        use crate::table::Is;
        let t = Table {
            columns: vec![
                Column::new("fpr", ColType::Float),
                Column::part_of("err", ColType::Float, "err", Is::Value),
                Column::part_of("err_k", ColType::Int, "err", Is::K),
            ],
            rows: vec![vec![
                Value::Float(0.123_456_789_012_345_6),
                Value::Float(-0.083_104_523_328_152_21),
                Value::Int(7),
            ]],
        };
        let bytes = to_bytes(&t).unwrap();
        // the parameter as given, the measurement to 10 significant digits
        assert_eq!(
            String::from_utf8(bytes.clone()).unwrap(),
            "fpr,err,err_k\n0.1234567890123456,-0.08310452333,7\n"
        );
        let back = parse(&bytes, &t.columns).unwrap();
        assert_eq!(to_bytes(&back).unwrap(), bytes);
        for x in [1e-300, 123_456_789_012.0, 0.1, 2.0f64.sqrt(), f64::MAX] {
            let r = round_measured(x);
            assert_eq!(round_measured(r), r);
            assert!(((r - x) / x).abs() <= 5e-10, "{x} -> {r}");
        }
        assert!(round_measured(f64::NAN).is_nan());
        assert_eq!(round_measured(f64::INFINITY), f64::INFINITY);
    }
}
