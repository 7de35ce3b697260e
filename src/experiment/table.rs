//! Result rows: what trials produce, what results.csv holds, and what plots,
//! reports and the ledger read back (from the CSV, never from structures).

use std::fmt;

/// One cell of a result row.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Int(i64),
    Float(f64),
    Str(String),
    Empty,
}

impl Cell {
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Cell::Int(i) => Some(*i as f64),
            Cell::Float(x) => Some(*x),
            _ => None,
        }
    }

    /// Parses a CSV field: integer, then float, then string; empty is Empty.
    pub fn parse(s: &str) -> Cell {
        if s.is_empty() {
            Cell::Empty
        } else if let Ok(i) = s.parse::<i64>() {
            Cell::Int(i)
        } else if let Ok(x) = s.parse::<f64>() {
            Cell::Float(x)
        } else {
            Cell::Str(s.to_string())
        }
    }

    /// Whether this cell equals a selector value from a claim (numbers compare
    /// numerically, so `n = 1e6` selects the row with `n` = 1000000).
    pub fn matches(&self, v: &crate::experiment::Value) -> bool {
        use crate::experiment::Value;
        match (self, v) {
            (Cell::Str(a), Value::Str(b)) => a == b,
            (Cell::Str(a), Value::Bool(b)) => a == &b.to_string(),
            (c, v) => match (c.as_f64(), v.as_f64()) {
                (Some(a), Some(b)) => a == b || (a - b).abs() <= 1e-12 * b.abs(),
                _ => false,
            },
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Int(i) => write!(f, "{i}"),
            Cell::Float(x) => write!(f, "{x}"),
            Cell::Str(s) => write!(f, "{s}"),
            Cell::Empty => Ok(()),
        }
    }
}

macro_rules! cell_from {
    ($($t:ty => $v:ident as $c:ty),*) => {$(
        impl From<$t> for Cell { fn from(x: $t) -> Cell { Cell::$v(x as $c) } }
    )*};
}
cell_from!(i64 => Int as i64, u64 => Int as i64, u32 => Int as i64, usize => Int as i64, f64 => Float as f64);

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Str(s.to_string())
    }
}
impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Str(s)
    }
}
impl From<bool> for Cell {
    fn from(b: bool) -> Cell {
        Cell::Int(b as i64)
    }
}
impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(o: Option<T>) -> Cell {
        o.map(Into::into).unwrap_or(Cell::Empty)
    }
}

/// The measured and theory columns one trial fills, in the kind's declared order.
#[derive(Clone, Debug)]
pub struct Metrics {
    names: &'static [&'static str],
    cells: Vec<Cell>,
}

impl Metrics {
    pub fn new(names: &'static [&'static str]) -> Self {
        Metrics {
            names,
            cells: vec![Cell::Empty; names.len()],
        }
    }

    /// Sets a declared column. An undeclared name is a bug in the kind.
    pub fn set(&mut self, name: &str, value: impl Into<Cell>) -> &mut Self {
        let i = self
            .names
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("bug: metric {name} is not declared by this kind"));
        self.cells[i] = value.into();
        self
    }

    /// Sets `name`, `name_lo`, `name_hi` from a measured proportion.
    pub fn set_proportion(&mut self, name: &str, p: &crate::metrics::Proportion) -> &mut Self {
        self.set(name, p.rate);
        self.set(&format!("{name}_lo"), p.lo);
        self.set(&format!("{name}_hi"), p.hi);
        self
    }

    pub fn into_cells(self) -> Vec<Cell> {
        self.cells
    }
}

/// Rows with named columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn col(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The cell at `row` in column `name` (Empty when the column is absent).
    pub fn cell<'a>(&'a self, row: &'a [Cell], name: &str) -> &'a Cell {
        static EMPTY: Cell = Cell::Empty;
        self.col(name).map(|i| &row[i]).unwrap_or(&EMPTY)
    }

    pub fn f64(&self, row: &[Cell], name: &str) -> Option<f64> {
        self.cell(row, name).as_f64()
    }

    pub fn str<'a>(&'a self, row: &'a [Cell], name: &str) -> String {
        self.cell(row, name).to_string()
    }

    /// Rows whose cells match every `(column, value)` pair.
    pub fn select<'a>(
        &'a self,
        by: &'a [(String, crate::experiment::Value)],
    ) -> impl Iterator<Item = &'a Vec<Cell>> + 'a {
        self.rows
            .iter()
            .filter(move |r| by.iter().all(|(c, v)| self.cell(r, c).matches(v)))
    }

    /// Rows where `column` equals the string `value`.
    pub fn where_str<'a>(
        &'a self,
        column: &'a str,
        value: &'a str,
    ) -> impl Iterator<Item = &'a Vec<Cell>> + 'a {
        self.rows
            .iter()
            .filter(move |r| self.str(r, column) == value)
    }

    /// Distinct values of a column, in first-seen order.
    pub fn distinct(&self, column: &str) -> Vec<Cell> {
        let mut out: Vec<Cell> = Vec::new();
        if let Some(i) = self.col(column) {
            for r in &self.rows {
                if !out.contains(&r[i]) {
                    out.push(r[i].clone());
                }
            }
        }
        out
    }

    /// A new table with only `columns` (in that order) and the rows `keep` accepts.
    pub fn project(&self, columns: &[&str], keep: impl Fn(&[Cell]) -> bool) -> Table {
        let idx: Vec<Option<usize>> = columns.iter().map(|c| self.col(c)).collect();
        Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: self
                .rows
                .iter()
                .filter(|r| keep(r))
                .map(|r| {
                    idx.iter()
                        .map(|i| i.map(|i| r[i].clone()).unwrap_or(Cell::Empty))
                        .collect()
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Value;

    #[test]
    fn parse_cells() {
        assert_eq!(Cell::parse("12"), Cell::Int(12));
        assert_eq!(Cell::parse("0.5"), Cell::Float(0.5));
        assert_eq!(Cell::parse("xxh3"), Cell::Str("xxh3".into()));
        assert_eq!(Cell::parse(""), Cell::Empty);
    }

    #[test]
    fn float_display_round_trips() {
        for x in [0.1, 1e-7, 0.009_999_999_9, 123456.789, 1e300] {
            assert_eq!(Cell::parse(&Cell::Float(x).to_string()).as_f64(), Some(x));
        }
    }

    #[test]
    fn select_numeric() {
        let t = Table {
            columns: vec!["n".into(), "hash".into()],
            rows: vec![
                vec![Cell::Int(1_000_000), Cell::Str("xxh3".into())],
                vec![Cell::Int(10), Cell::Str("sip13".into())],
            ],
        };
        let by = vec![("n".to_string(), Value::Float(1e6))];
        assert_eq!(t.select(&by).count(), 1);
        assert_eq!(t.distinct("hash").len(), 2);
        let p = t.project(&["hash"], |r| r[0] == Cell::Int(10));
        assert_eq!(p.rows, vec![vec![Cell::Str("sip13".into())]]);
    }
}
