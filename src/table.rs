//! The row model every stage reads: the bottom of the house. Parameters, result
//! cells and claim selectors share one value type ([`Value`]); every column has a
//! declared type ([`ColType`]), and text is parsed by that type, never guessed.
//! A lookup of a column the table lacks is a bug in the caller and panics with
//! the table's columns, so a mistyped chart or reading fails its test instead of
//! silently drawing nothing.

use std::fmt;

/// One value: a parameter, a result cell or a selector.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    Empty,
}

impl Value {
    /// The numeric view: integers and floats, and a bool as 1 or 0 (so a
    /// claim can count "consistent = true"); text and empty are `None`.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(x) => Some(*x),
            Value::Bool(b) => Some(*b as u8 as f64),
            _ => None,
        }
    }

    /// As it would be written in TOML (strings quoted), for error messages.
    pub fn toml_repr(&self) -> String {
        match self {
            Value::Str(s) => format!("{s:?}"),
            Value::Float(x) if x.is_nan() => "nan".into(),
            other => other.to_string(),
        }
    }

    /// Converts a scalar TOML value; `None` for arrays, tables and dates.
    pub fn from_toml(v: &toml::Value) -> Option<Value> {
        Some(match v {
            toml::Value::Integer(i) => Value::Int(*i),
            toml::Value::Float(x) => Value::Float(*x),
            toml::Value::String(s) => Value::Str(s.clone()),
            toml::Value::Boolean(b) => Value::Bool(*b),
            _ => return None,
        })
    }

    /// Whether this value equals a selector value (numbers compare numerically,
    /// so a selector `n = 1e6` selects the row whose `n` is 1000000).
    pub fn matches(&self, v: &Value) -> bool {
        match (self, v) {
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (a, b) => match (a.as_f64(), b.as_f64()) {
                (Some(a), Some(b)) => a == b || (a - b).abs() <= 1e-12 * b.abs(),
                _ => false,
            },
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Empty => Ok(()),
        }
    }
}

macro_rules! value_from {
    ($($t:ty => $v:ident as $c:ty),*) => {$(
        impl From<$t> for Value { fn from(x: $t) -> Value { Value::$v(x as $c) } }
    )*};
}
value_from!(i64 => Int as i64, u64 => Int as i64, u32 => Int as i64, usize => Int as i64, f64 => Float as f64);

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.to_string())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Str(s)
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(o: Option<T>) -> Value {
        o.map(Into::into).unwrap_or(Value::Empty)
    }
}

/// A column's declared type: how its text is parsed back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColType {
    Int,
    Float,
    Str,
    Bool,
    /// An integer or a word (e.g. `k = 7` or `k = "optimal"`).
    IntOrStr,
}

impl ColType {
    /// The type's word in a manifest's column schema.
    pub fn word(self) -> &'static str {
        match self {
            ColType::Int => "int",
            ColType::Float => "float",
            ColType::Str => "text",
            ColType::Bool => "bool",
            ColType::IntOrStr => "int_or_text",
        }
    }

    /// Parses one CSV field; empty is [`Value::Empty`] for every type.
    pub fn parse(self, s: &str) -> crate::error::Result<Value> {
        if s.is_empty() {
            return Ok(Value::Empty);
        }
        let bad = |what: &str| crate::error::Error::input(format!("{s:?} is not {what}"));
        match self {
            ColType::Int => s.parse().map(Value::Int).map_err(|_| bad("an integer")),
            ColType::Float => s.parse().map(Value::Float).map_err(|_| bad("a number")),
            ColType::Str => Ok(Value::Str(s.to_string())),
            ColType::Bool => match s {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err(bad("true or false")),
            },
            ColType::IntOrStr => Ok(s
                .parse()
                .map(Value::Int)
                .unwrap_or_else(|_| Value::Str(s.to_string()))),
        }
    }
}

/// Which part of a declared field a column holds: a reader finds a
/// field's bounds or counts through these, never by a suffix of its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Is {
    Value,
    /// The 95% interval's ends.
    Lo,
    Hi,
    /// The 99.9% interval's ends (an estimate's).
    Lo999,
    Hi999,
    /// A proportion's successes and trials.
    K,
    N,
    /// A summary's standard deviation over replicates, and its interval.
    Sd,
    SdLo,
    SdHi,
    /// A pitchfork quantile (its index in `row::PITCHFORK`).
    Quantile(u8),
}

impl Is {
    /// The part's word in a manifest's column schema.
    pub fn word(self) -> &'static str {
        match self {
            Is::Value => "value",
            Is::Lo => "lo",
            Is::Hi => "hi",
            Is::Lo999 => "lo999",
            Is::Hi999 => "hi999",
            Is::K => "k",
            Is::N => "n",
            Is::Sd => "sd",
            Is::SdLo => "sd_lo",
            Is::SdHi => "sd_hi",
            Is::Quantile(_) => "quantile",
        }
    }
}

/// A column that belongs to a declared field (`fpr` for `fpr_lo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub field: &'static str,
    pub is: Is,
}

/// A named, typed column; a result or summary column also says which part
/// of which declared field it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    pub ty: ColType,
    pub part: Option<Part>,
}

impl Column {
    pub fn new(name: impl Into<String>, ty: ColType) -> Self {
        Column {
            name: name.into(),
            ty,
            part: None,
        }
    }

    /// A column holding part `is` of the declared field `field`.
    pub fn part_of(name: impl Into<String>, ty: ColType, field: &'static str, is: Is) -> Self {
        Column {
            part: Some(Part { field, is }),
            ..Column::new(name, ty)
        }
    }
}

/// A display column (report tables built by hand): text-typed.
impl From<&str> for Column {
    fn from(name: &str) -> Column {
        Column::new(name, ColType::Str)
    }
}

impl From<String> for Column {
    fn from(name: String) -> Column {
        Column::new(name, ColType::Str)
    }
}

/// A measured value with its interval: one field that is three columns,
/// `x`, `x_lo`, `x_hi`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Interval {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    pub fn new(value: f64, lo: f64, hi: f64) -> Self {
        Interval { value, lo, hi }
    }

    /// A value known exactly (a computation, not a measurement).
    pub fn exact(value: f64) -> Self {
        Interval::new(value, value, value)
    }

    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// The column names an interval field `name` occupies.
pub fn interval_columns(name: &str) -> [String; 3] {
    [name.to_string(), format!("{name}_lo"), format!("{name}_hi")]
}

/// Rows with named, typed columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Value>>,
}

impl Table {
    pub fn new(columns: Vec<Column>) -> Self {
        Table {
            columns,
            rows: Vec::new(),
        }
    }

    pub fn has(&self, name: &str) -> bool {
        self.columns.iter().any(|c| c.name == name)
    }

    /// The index of a column, or `None`.
    pub fn try_col(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// The index of a column; a missing column is a bug in the caller.
    pub fn col(&self, name: &str) -> usize {
        self.try_col(name).unwrap_or_else(|| {
            panic!(
                "bug: no column {name:?} in this table (columns: {})",
                self.names().join(", ")
            )
        })
    }

    pub fn names(&self) -> Vec<&str> {
        self.columns.iter().map(|c| c.name.as_str()).collect()
    }

    /// The cell at `row` in column `name`.
    pub fn cell<'a>(&self, row: &'a [Value], name: &str) -> &'a Value {
        &row[self.col(name)]
    }

    pub fn f64(&self, row: &[Value], name: &str) -> Option<f64> {
        self.cell(row, name).as_f64()
    }

    pub fn str(&self, row: &[Value], name: &str) -> String {
        self.cell(row, name).to_string()
    }

    /// `name` with its `_lo`/`_hi` bounds, when the table has them and the row fills them.
    pub fn interval(&self, row: &[Value], name: &str) -> Option<Interval> {
        let (lo, hi) = (self.sibling(name, Is::Lo)?, self.sibling(name, Is::Hi)?);
        Some(Interval::new(
            self.f64(row, name)?,
            row.get(lo)?.as_f64()?,
            row.get(hi)?.as_f64()?,
        ))
    }

    /// The index of the column holding part `is` of the field column
    /// `name` belongs to (`sibling("fpr", Is::K)`: fpr's successes), by the
    /// columns' declared parts; a column without one (a table built by
    /// hand) finds its siblings by the conventional names
    /// ([`interval_columns`], `_k`, `_n`, `_lo999`, `_hi999`, `_sd`).
    pub fn sibling(&self, name: &str, is: Is) -> Option<usize> {
        let c = self.columns.iter().find(|c| c.name == name)?;
        match c.part {
            Some(p) => {
                // a value's parts; a summary's sd has its own interval; a
                // bound, a count or a quantile has no parts of its own
                let is = match (p.is, is) {
                    (Is::Value, is) => is,
                    (Is::Sd, Is::Value | Is::Sd) => Is::Sd,
                    (Is::Sd, Is::Lo) => Is::SdLo,
                    (Is::Sd, Is::Hi) => Is::SdHi,
                    (own, Is::Value) => own,
                    _ => return None,
                };
                self.columns
                    .iter()
                    .position(|x| x.part == Some(Part { field: p.field, is }))
            }
            None => {
                let suffix = match is {
                    Is::Value => "",
                    Is::Lo => "_lo",
                    Is::Hi => "_hi",
                    Is::Lo999 => "_lo999",
                    Is::Hi999 => "_hi999",
                    Is::K => "_k",
                    Is::N => "_n",
                    Is::Sd => "_sd",
                    Is::SdLo => "_sd_lo",
                    Is::SdHi => "_sd_hi",
                    Is::Quantile(_) => return None,
                };
                self.try_col(&format!("{name}{suffix}"))
            }
        }
    }

    /// The part of its field the column `name` holds, when declared.
    pub fn part(&self, name: &str) -> Option<Part> {
        self.columns.iter().find(|c| c.name == name)?.part
    }

    /// Rows whose cell in each named column matches one of its values.
    pub fn select<'a>(
        &'a self,
        by: &'a [(String, Vec<Value>)],
    ) -> impl Iterator<Item = &'a Vec<Value>> {
        let idx: Vec<(usize, &Vec<Value>)> = by.iter().map(|(c, v)| (self.col(c), v)).collect();
        self.rows.iter().filter(move |r| {
            idx.iter()
                .all(|(i, vs)| vs.iter().any(|v| r[*i].matches(v)))
        })
    }

    /// Rows where `column` equals the string `value`.
    pub fn where_str<'a>(
        &'a self,
        column: &str,
        value: &'a str,
    ) -> impl Iterator<Item = &'a Vec<Value>> {
        let i = self.col(column);
        self.rows.iter().filter(move |r| r[i].to_string() == value)
    }

    /// Distinct values of a column, in first-seen order.
    pub fn distinct(&self, column: &str) -> Vec<Value> {
        let i = self.col(column);
        let mut out: Vec<Value> = Vec::new();
        for r in &self.rows {
            if !out.contains(&r[i]) {
                out.push(r[i].clone());
            }
        }
        out
    }

    /// A new table with only `columns` (in that order) and the rows `keep` accepts.
    pub fn project(&self, columns: &[&str], keep: impl Fn(&[Value]) -> bool) -> Table {
        let idx: Vec<usize> = columns.iter().map(|c| self.col(c)).collect();
        Table {
            columns: idx.iter().map(|&i| self.columns[i].clone()).collect(),
            rows: self
                .rows
                .iter()
                .filter(|r| keep(r))
                .map(|r| idx.iter().map(|&i| r[i].clone()).collect())
                .collect(),
        }
    }
}

/// The tables a study's charts, readings and claims are drawn from: the
/// per-trial rows, and (when the study has replicates) their per-setting summary.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    pub results: Table,
    pub summary: Option<Table>,
}

impl Tables {
    /// The summary table; asking for it without replicates is a bug.
    pub fn summary(&self) -> &Table {
        self.summary
            .as_ref()
            .expect("bug: this study has no summary (set grid.replicates >= 2)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field's parts are found by what they are, not by name: a summary
    /// sd's interval is its own bounds, not its mean's; a bound or a
    /// quantile has no parts; a column named like a part but declared as
    /// another field's value is not one.
    #[test]
    fn siblings_follow_the_declared_parts() {
        let f = |n: &str, is| Column::part_of(n, ColType::Float, "x", is);
        let t = Table {
            columns: vec![
                f("x", Is::Value),
                f("x_lo", Is::Lo),
                f("x_hi", Is::Hi),
                f("x_sd", Is::Sd),
                f("x_sd_lo", Is::SdLo),
                f("x_sd_hi", Is::SdHi),
                f("x_q02", Is::Quantile(0)),
                Column::part_of("y_k", ColType::Int, "y_k", Is::Value),
            ],
            rows: vec![
                [1.0, 0.5, 1.5, 2.0, 1.8, 2.2, 0.1, 3.0]
                    .map(Value::Float)
                    .to_vec(),
            ],
        };
        let r = &t.rows[0];
        assert_eq!(t.interval(r, "x"), Some(Interval::new(1.0, 0.5, 1.5)));
        assert_eq!(t.interval(r, "x_sd"), Some(Interval::new(2.0, 1.8, 2.2)));
        assert_eq!(t.interval(r, "x_q02"), None);
        assert_eq!(t.sibling("x_lo", Is::Hi), None);
        assert_eq!(t.sibling("x", Is::K), None);
        // `y_k` is a field of its own: `y` has no successes column
        assert_eq!(t.sibling("y_k", Is::Value), Some(7));
        assert_eq!(t.part("x_sd").map(|p| p.is), Some(Is::Sd));
    }

    #[test]
    fn parse_by_declared_type() {
        assert_eq!(ColType::Int.parse("12").ok(), Some(Value::Int(12)));
        assert_eq!(ColType::Float.parse("0.5").ok(), Some(Value::Float(0.5)));
        // a hex seed that looks like a number stays text in a text column
        assert_eq!(
            ColType::Str.parse("1e5a000000000000").ok(),
            Some(Value::Str("1e5a000000000000".into()))
        );
        assert_eq!(
            ColType::Str.parse("12345").ok(),
            Some(Value::Str("12345".into()))
        );
        assert_eq!(ColType::Bool.parse("true").ok(), Some(Value::Bool(true)));
        assert!(ColType::Int.parse("1e5").is_err());
        assert!(ColType::Bool.parse("1").is_err());
        assert_eq!(ColType::IntOrStr.parse("7").ok(), Some(Value::Int(7)));
        assert_eq!(
            ColType::IntOrStr.parse("optimal").ok(),
            Some(Value::Str("optimal".into()))
        );
        assert_eq!(ColType::Float.parse("").ok(), Some(Value::Empty));
    }

    #[test]
    fn float_display_round_trips() {
        for x in [0.1, 1e-7, 0.009_999_999_9, 123456.789, 1e300] {
            let s = Value::Float(x).to_string();
            assert_eq!(ColType::Float.parse(&s).unwrap().as_f64(), Some(x));
        }
    }

    fn sample() -> Table {
        Table {
            columns: vec![
                Column::new("n", ColType::Int),
                Column::new("hash", ColType::Str),
            ],
            rows: vec![
                vec![Value::Int(1_000_000), Value::Str("xxh3".into())],
                vec![Value::Int(10), Value::Str("sip13".into())],
            ],
        }
    }

    #[test]
    fn select_numeric() {
        let t = sample();
        let by = vec![("n".to_string(), vec![Value::Float(1e6)])];
        assert_eq!(t.select(&by).count(), 1);
        assert_eq!(t.distinct("hash").len(), 2);
        let p = t.project(&["hash"], |r| r[0] == Value::Int(10));
        assert_eq!(p.rows, vec![vec![Value::Str("sip13".into())]]);
    }

    #[test]
    #[should_panic(expected = "no column \"fpr_mesured\"")]
    fn a_mistyped_column_is_an_error_not_an_empty_cell() {
        let t = sample();
        let _ = t.f64(&t.rows[0], "fpr_mesured");
    }
}
