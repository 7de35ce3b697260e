//! The aggregation stage: per-replicate rows → one row per setting, each
//! metric combined as its field declares ([`Agg`]), with intervals from
//! [`crate::stats`]. Reads a results table, never the structures.
//!
//! Columns: the parameters, `replicates`, then per field: `x` (sum, max,
//! same) or `x, x_lo, x_hi, x_sd, x_sd_lo, x_sd_hi` (mean: Student-t interval;
//! the standard deviation, with its chi-square interval, lets a reader recompute
//! any other level and read the spread itself, e.g. an estimator's RSE) or `x, x_lo, x_hi`
//! (median: order-statistic interval).

use super::row::{Agg, FieldDef, PITCHFORK, Shape};
use crate::stats;
use crate::table::{ColType, Column, Is, Table, Value};

/// The columns a summary groups by: the parameters, then the fields declared
/// [`Agg::Key`] (a row's place within a trial).
pub fn key_columns(params: &[Column], fields: &[FieldDef]) -> Vec<Column> {
    let mut out = params.to_vec();
    out.extend(
        fields
            .iter()
            .filter(|f| f.agg == Agg::Key)
            .flat_map(|f| f.columns()),
    );
    out
}

/// The summary table's columns for these parameter columns and fields.
pub fn columns(params: &[Column], fields: &[FieldDef]) -> Vec<Column> {
    let mut out = key_columns(params, fields);
    out.push(Column::new("replicates", ColType::Int));
    for f in fields {
        let ty = match f.shape {
            Shape::Scalar(t) => t,
            Shape::Interval | Shape::Proportion | Shape::Estimate => ColType::Float,
        };
        let part = |suffix: &str, is: Is| {
            Column::part_of(format!("{}{suffix}", f.name), ColType::Float, f.name, is)
        };
        match f.agg {
            Agg::Mean | Agg::Median | Agg::Pitchfork => {
                for (suffix, is) in [("", Is::Value), ("_lo", Is::Lo), ("_hi", Is::Hi)] {
                    out.push(part(suffix, is));
                }
                if f.agg != Agg::Median {
                    for (suffix, is) in
                        [("_sd", Is::Sd), ("_sd_lo", Is::SdLo), ("_sd_hi", Is::SdHi)]
                    {
                        out.push(part(suffix, is));
                    }
                }
                if f.agg == Agg::Pitchfork {
                    for (i, (suffix, _)) in PITCHFORK.iter().enumerate() {
                        out.push(part(suffix, Is::Quantile(i as u8)));
                    }
                }
            }
            Agg::Sum | Agg::Max | Agg::Same => {
                out.push(Column::part_of(f.name, ty, f.name, Is::Value))
            }
            Agg::Key => {}
        }
    }
    out
}

/// Groups `results` by every parameter column and aggregates each field.
/// An `Agg::Same` field that differs across replicates is an error (the
/// declaration is wrong).
pub fn summarise(
    results: &Table,
    params: &[Column],
    fields: &[FieldDef],
    confidence: f64,
) -> anyhow::Result<Table> {
    let key_idx: Vec<usize> = key_columns(params, fields)
        .iter()
        .map(|c| results.col(&c.name))
        .collect();
    let mut groups: Vec<(Vec<Value>, Vec<usize>)> = Vec::new();
    for (i, r) in results.rows.iter().enumerate() {
        let key: Vec<Value> = key_idx.iter().map(|&k| r[k].clone()).collect();
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let mut out = Table::new(columns(params, fields));
    for (key, members) in groups {
        let mut row = key;
        row.push(Value::Int(members.len() as i64));
        for f in fields {
            let col = results.col(f.name);
            let cells: Vec<&Value> = members.iter().map(|&m| &results.rows[m][col]).collect();
            let nums: Vec<f64> = cells.iter().filter_map(|c| c.as_f64()).collect();
            let float = |x: f64| {
                if x.is_finite() {
                    Value::Float(x)
                } else {
                    Value::Empty
                }
            };
            match f.agg {
                Agg::Mean | Agg::Pitchfork => {
                    if nums.is_empty() {
                        row.extend(std::iter::repeat_n(Value::Empty, 6));
                    } else {
                        let mut i = stats::mean_interval(&nums, confidence);
                        // a proportion's mean lies in [0, 1]: its interval is
                        // cut there (the coverage is kept; a rare rate's
                        // normal interval would reach below 0)
                        if f.shape == Shape::Proportion {
                            (i.lo, i.hi) = (i.lo.max(0.0), i.hi.min(1.0));
                        }
                        let (_, sd) = stats::mean_sd(&nums);
                        let si = stats::sd_interval(sd, nums.len(), confidence);
                        row.extend([i.value, i.lo, i.hi, sd, si.lo, si.hi].map(float));
                    }
                    if f.agg == Agg::Pitchfork {
                        let mut s = nums.clone();
                        s.sort_by(f64::total_cmp);
                        row.extend(PITCHFORK.map(|(_, q)| {
                            if s.is_empty() {
                                Value::Empty
                            } else {
                                float(stats::quantile(&s, q))
                            }
                        }));
                    }
                }
                Agg::Key => {}
                Agg::Median => {
                    if nums.is_empty() {
                        row.extend(std::iter::repeat_n(Value::Empty, 3));
                    } else {
                        let mut s = nums.clone();
                        s.sort_by(f64::total_cmp);
                        let i = stats::median_interval(&s, confidence);
                        row.extend([float(i.value), float(i.lo), float(i.hi)]);
                    }
                }
                Agg::Sum | Agg::Max => {
                    let v = if nums.is_empty() {
                        Value::Empty
                    } else if f.agg == Agg::Sum {
                        typed(nums.iter().sum(), cells[0])
                    } else {
                        typed(nums.iter().copied().fold(f64::MIN, f64::max), cells[0])
                    };
                    row.push(v);
                }
                Agg::Same => {
                    let first = cells[0].clone();
                    if !cells.iter().all(|c| **c == first) {
                        return Err(crate::error::bug(format!(
                            "field {} is declared Same but differs across replicates",
                            f.name
                        )));
                    }
                    row.push(first);
                }
            }
        }
        out.rows.push(row);
    }
    Ok(out)
}

/// `x` as the same variant as `like` (a sum of integers stays an integer).
fn typed(x: f64, like: &Value) -> Value {
    match like {
        Value::Int(_) => Value::Int(x as i64),
        _ => Value::Float(x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replicates_become_one_row_with_a_t_interval() {
        let results = Table {
            columns: vec![
                Column::new("n", ColType::Int),
                Column::new("replicate", ColType::Int),
                Column::new("fpr", ColType::Float),
                Column::new("hits", ColType::Int),
                Column::new("m", ColType::Int),
            ],
            rows: (0..10)
                .map(|r| {
                    vec![
                        Value::Int(100),
                        Value::Int(r),
                        Value::Float(1.0 + r as f64),
                        Value::Int(2),
                        Value::Int(64),
                    ]
                })
                .collect(),
        };
        let fields = [
            FieldDef::declared("fpr", Shape::Scalar(ColType::Float), Agg::Mean, &[]),
            FieldDef::declared("hits", Shape::Scalar(ColType::Int), Agg::Sum, &[]),
            FieldDef::declared("m", Shape::Scalar(ColType::Int), Agg::Same, &[]),
        ];
        let s = summarise(&results, &results.columns[..1], &fields, 0.95).unwrap();
        assert_eq!(s.rows.len(), 1);
        let r = &s.rows[0];
        assert_eq!(s.f64(r, "replicates"), Some(10.0));
        assert_eq!(s.f64(r, "fpr"), Some(5.5));
        // 1..=10: sd 3.02765, t(0.975, 9) = 2.26216
        let half = s.f64(r, "fpr_hi").unwrap() - 5.5;
        assert!((half - 2.262_157 * 3.027_650 / 10f64.sqrt()).abs() < 1e-5);
        assert_eq!(s.cell(r, "hits"), &Value::Int(20));
        assert_eq!(s.cell(r, "m"), &Value::Int(64));

        let mut bad = results.clone();
        bad.rows[3][4] = Value::Int(65);
        assert!(summarise(&bad, &bad.columns[..1], &fields, 0.95).is_err());
    }

    #[test]
    fn key_fields_split_a_trial_and_pitchforks_give_quantiles() {
        // 5 trials x 2 checkpoints n = 10, 20; err = replicate (+ 100 at n = 20)
        let results = Table {
            columns: vec![
                Column::new("p", ColType::Int),
                Column::new("replicate", ColType::Int),
                Column::new("n", ColType::Int),
                Column::new("err", ColType::Float),
            ],
            rows: (0..5)
                .flat_map(|r| {
                    [10, 20].map(|n| {
                        vec![
                            Value::Int(4),
                            Value::Int(r),
                            Value::Int(n),
                            Value::Float(r as f64 + if n == 20 { 100.0 } else { 0.0 }),
                        ]
                    })
                })
                .collect(),
        };
        let fields = [
            FieldDef::declared("n", Shape::Scalar(ColType::Int), Agg::Key, &[]),
            FieldDef::declared("err", Shape::Scalar(ColType::Float), Agg::Pitchfork, &[]),
        ];
        let cols = columns(&results.columns[..1], &fields);
        let names: Vec<&str> = cols.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(&names[..3], ["p", "n", "replicates"]);
        let s = summarise(&results, &results.columns[..1], &fields, 0.95).unwrap();
        assert_eq!(s.rows.len(), 2);
        let r20 = s.where_str("n", "20").next().unwrap();
        assert_eq!(s.f64(r20, "replicates"), Some(5.0));
        assert_eq!(s.f64(r20, "err_q50"), Some(102.0));
        // type-7 quantile of 100..=104 at 2.275%: 100 + 4 * 0.02275
        assert!((s.f64(r20, "err_q02").unwrap() - 100.091).abs() < 1e-3);
        assert_eq!(s.f64(r20, "err"), Some(102.0));
    }
}
