//! Typed result rows. A kind declares one struct with [`row!`](crate::row);
//! the CSV header, the column types, the claims validator and the summary
//! stage all derive from it, and a kind fills it by field name (a misspelt
//! field is a compile error).

use crate::table::{ColType, Column, Interval, Is, Table, Value};

pub use super::field_opts::{Agg, Better, Opt, Unit, opt};

/// The pitchfork's quantile suffixes and probabilities (Φ(−2) … Φ(2)).
pub const PITCHFORK: [(&str, f64); 5] = [
    ("_q02", 0.022_750_131_948_179_2),
    ("_q16", 0.158_655_253_931_457_05),
    ("_q50", 0.5),
    ("_q84", 0.841_344_746_068_543),
    ("_q98", 0.977_249_868_051_820_8),
];

/// What a field's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Scalar(ColType),
    /// `x`, `x_lo`, `x_hi` (floats).
    Interval,
    /// A proportion: `x`, `x_lo`, `x_hi` (95% Wilson) and its sufficient
    /// statistics `x_k` (successes) and `x_n` (trials), from which any other
    /// level (the ledger's) or a pooled rate is recomputed exactly.
    Proportion,
    /// `x`, `x_lo`, `x_hi` (95%) and `x_lo999`, `x_hi999` (99.9%, for the
    /// ledger), each computed from the data ([`crate::stats::Estimate`]).
    Estimate,
}

crate::closed_set! {
    /// What a field of a row is.
    pub enum Role {
        /// A measurement of this trial.
        Measured = "measured",
        /// A formula's value for the trial's setting (a `*_theory` field).
        Theory = "theory",
        /// A property of the setting the trial measured in (a size, a
        /// configuration in words: aggregated `Same` or `Key`).
        Setting = "setting",
    }
}

/// One declared metric field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldDef {
    pub name: &'static str,
    pub shape: Shape,
    pub agg: Agg,
    pub role: Role,
    pub better: Better,
    /// The unit of a numeric field (`None` for text and flags of type bool).
    pub unit: Option<Unit>,
    /// The field's doc comment as `row!` received it (`doc = r" …"` lines):
    /// what the manifest's schema says the column means.
    pub docs: &'static [&'static str],
}

/// The text of one `#[doc]` attribute as `stringify!` writes it: `doc =
/// r" text"` or `doc = r#" text "#` (a doc comment's line), or `doc =
/// "text"`; `None` for any other attribute.
fn doc_line(attr: &str) -> Option<&str> {
    let lit = attr
        .strip_prefix("doc")?
        .trim_start()
        .strip_prefix('=')?
        .trim();
    let (hashes, body) = match lit.strip_prefix('r') {
        Some(raw) => {
            let hashes = raw.len() - raw.trim_start_matches('#').len();
            (hashes, &raw[hashes..])
        }
        None => (0, lit),
    };
    body.strip_prefix('"')?
        .strip_suffix(&format!("\"{}", "#".repeat(hashes)))
        .map(str::trim)
}

impl FieldDef {
    /// Each of the field's columns described, in [`Self::columns`] order;
    /// `timing`: the kind's measurements are timings.
    pub fn schema(&self, timing: bool) -> Vec<crate::export::ColumnSchema> {
        let shape = match self.shape {
            Shape::Scalar(_) => "scalar",
            Shape::Interval => "interval",
            Shape::Proportion => "proportion",
            Shape::Estimate => "estimate",
        };
        let role = match self.role {
            Role::Measured if timing => "timing",
            r => r.as_str(),
        };
        // each column's part is the one `columns` declared for it
        self.columns()
            .into_iter()
            .map(|c| crate::export::ColumnSchema {
                part: c.part.map_or(Is::Value, |p| p.is).word().into(),
                name: c.name,
                ty: c.ty.word().into(),
                role: role.into(),
                field: self.name.into(),
                shape: shape.into(),
                agg: Some(self.agg.as_str().into()),
                better: Some(self.better.as_str().into()),
                // a proportion's successes and trials are counts
                unit: match c.part.map(|p| p.is) {
                    Some(Is::K | Is::N) => Some(Unit::Count.as_str().into()),
                    _ => self.unit.map(|u| u.as_str().into()),
                },
                values: vec![],
                about: self.about(),
            })
            .collect()
    }

    /// The field's doc comment, its lines joined by spaces ("" when it has none).
    pub fn about(&self) -> String {
        let lines: Vec<&str> = self.docs.iter().filter_map(|d| doc_line(d)).collect();
        lines
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The field with its doc comment (`row!` passes each `#[doc]` line as
    /// `stringify!` writes it).
    pub fn with_docs(self, docs: &'static [&'static str]) -> FieldDef {
        FieldDef { docs, ..self }
    }

    /// A field as `row!` declares it: `default` aggregation unless the
    /// options name one; its role from the aggregation and its name (a
    /// `_theory` field is a formula's); better lower for a measurement (an
    /// error, a rate, a time) unless declared, neither otherwise. Decided
    /// here, once: every reader takes the field's schema, never its name.
    pub fn declared(name: &'static str, shape: Shape, default: Agg, opts: &[Opt]) -> FieldDef {
        let agg = opts
            .iter()
            .rev()
            .find_map(|o| match o {
                Opt::Agg(a) => Some(*a),
                _ => None,
            })
            .unwrap_or(default);
        let role = if name.ends_with("_theory") || name.contains("_theory_") {
            Role::Theory
        } else if matches!(agg, Agg::Same | Agg::Key) {
            Role::Setting
        } else {
            Role::Measured
        };
        let better = opts
            .iter()
            .rev()
            .find_map(|o| match o {
                Opt::Better(b) => Some(*b),
                _ => None,
            })
            .unwrap_or(if role == Role::Measured {
                Better::Lower
            } else {
                Better::Neither
            });
        let units: Vec<Unit> = opts
            .iter()
            .filter_map(|o| match o {
                Opt::Unit(u) => Some(*u),
                _ => None,
            })
            .collect();
        assert!(
            units.len() <= 1,
            "bug: field {name} declares {} units",
            units.len()
        );
        let unit = units.first().copied();
        FieldDef {
            name,
            shape,
            agg,
            role,
            better,
            unit,
            docs: &[],
        }
    }

    /// The result-table columns this field occupies.
    pub fn columns(&self) -> Vec<Column> {
        let part = |suffix: &str, ty: ColType, is: Is| {
            Column::part_of(format!("{}{suffix}", self.name), ty, self.name, is)
        };
        let interval = [
            ("", ColType::Float, Is::Value),
            ("_lo", ColType::Float, Is::Lo),
            ("_hi", ColType::Float, Is::Hi),
        ];
        let parts: Vec<(&str, ColType, Is)> = match self.shape {
            Shape::Scalar(ty) => vec![("", ty, Is::Value)],
            Shape::Interval => interval.to_vec(),
            Shape::Estimate => interval
                .into_iter()
                .chain([
                    ("_lo999", ColType::Float, Is::Lo999),
                    ("_hi999", ColType::Float, Is::Hi999),
                ])
                .collect(),
            Shape::Proportion => interval
                .into_iter()
                .chain([("_k", ColType::Int, Is::K), ("_n", ColType::Int, Is::N)])
                .collect(),
        };
        parts
            .into_iter()
            .map(|(suffix, ty, is)| part(suffix, ty, is))
            .collect()
    }
}

/// A type a row field can have.
pub trait Field: Sized {
    const SHAPE: Shape;
    /// The aggregation when the declaration names none.
    const AGG: Agg;
    fn push(self, out: &mut Vec<Value>);
    /// The field read back from a result row of a table with its columns
    /// (`None`: a column missing, empty where a value is required, or of
    /// another type).
    fn read(t: &Table, r: &[Value], name: &str) -> Option<Self>;
}

/// A cell by column name, `None` when the table lacks the column.
fn cell<'a>(t: &'a Table, r: &'a [Value], name: &str) -> Option<&'a Value> {
    t.has(name).then(|| t.cell(r, name))
}

fn float(t: &Table, r: &[Value], name: &str) -> Option<f64> {
    cell(t, r, name)?.as_f64()
}

/// A scalar from one cell.
trait FromCell: Sized {
    fn from_cell(v: &Value) -> Option<Self>;
}

macro_rules! int_from_cell {
    ($($t:ty),*) => {$(
        impl FromCell for $t {
            fn from_cell(v: &Value) -> Option<Self> {
                match v {
                    Value::Int(i) => <$t>::try_from(*i).ok(),
                    Value::Float(x) if x.fract() == 0.0 => <$t>::try_from(*x as i64).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
int_from_cell!(u64, u32, usize, i64);

impl FromCell for f64 {
    fn from_cell(v: &Value) -> Option<Self> {
        v.as_f64()
    }
}

impl FromCell for bool {
    fn from_cell(v: &Value) -> Option<Self> {
        match v {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

impl FromCell for String {
    /// An empty cell is the empty string: a CSV writes "" as nothing, so a
    /// text field that was empty reads back as empty, not as missing.
    fn from_cell(v: &Value) -> Option<Self> {
        match v {
            Value::Empty => Some(String::new()),
            other => Some(other.to_string()),
        }
    }
}

macro_rules! scalar_field {
    ($($t:ty => $ct:ident, $agg:ident);* $(;)?) => {$(
        impl Field for $t {
            const SHAPE: Shape = Shape::Scalar(ColType::$ct);
            const AGG: Agg = Agg::$agg;
            fn push(self, out: &mut Vec<Value>) { out.push(self.into()); }
            fn read(t: &Table, r: &[Value], name: &str) -> Option<Self> {
                <$t as FromCell>::from_cell(cell(t, r, name)?)
            }
        }
        impl Field for Option<$t> {
            const SHAPE: Shape = Shape::Scalar(ColType::$ct);
            const AGG: Agg = Agg::$agg;
            fn push(self, out: &mut Vec<Value>) { out.push(self.into()); }
            fn read(t: &Table, r: &[Value], name: &str) -> Option<Self> {
                match cell(t, r, name)? {
                    Value::Empty => Some(None),
                    v => <$t as FromCell>::from_cell(v).map(Some),
                }
            }
        }
    )*};
}
scalar_field!(u64 => Int, Mean; u32 => Int, Mean; usize => Int, Mean; i64 => Int, Mean;
    f64 => Float, Mean; bool => Bool, Same; String => Str, Same);

/// An optional field of several columns: `None` when its first is empty.
fn optional<T: Field>(t: &Table, r: &[Value], name: &str) -> Option<Option<T>> {
    match cell(t, r, name)? {
        Value::Empty => Some(None),
        _ => T::read(t, r, name).map(Some),
    }
}

impl Field for Interval {
    const SHAPE: Shape = Shape::Interval;
    const AGG: Agg = Agg::Mean;
    fn push(self, out: &mut Vec<Value>) {
        out.extend([self.value, self.lo, self.hi].map(Value::Float));
    }
    fn read(t: &Table, r: &[Value], name: &str) -> Option<Self> {
        Some(Interval::new(
            float(t, r, name)?,
            float(t, r, &format!("{name}_lo"))?,
            float(t, r, &format!("{name}_hi"))?,
        ))
    }
}

impl Field for Option<Interval> {
    const SHAPE: Shape = Shape::Interval;
    const AGG: Agg = Agg::Mean;
    fn push(self, out: &mut Vec<Value>) {
        match self {
            Some(i) => i.push(out),
            None => out.extend([Value::Empty, Value::Empty, Value::Empty]),
        }
    }
    fn read(t: &Table, r: &[Value], name: &str) -> Option<Self> {
        optional(t, r, name)
    }
}

impl Field for crate::stats::Estimate {
    const SHAPE: Shape = Shape::Estimate;
    const AGG: Agg = Agg::Mean;
    fn push(self, out: &mut Vec<Value>) {
        out.extend([self.value, self.lo, self.hi, self.lo999, self.hi999].map(Value::Float));
    }
    fn read(t: &Table, r: &[Value], name: &str) -> Option<Self> {
        Some(crate::stats::Estimate {
            value: float(t, r, name)?,
            lo: float(t, r, &format!("{name}_lo"))?,
            hi: float(t, r, &format!("{name}_hi"))?,
            lo999: float(t, r, &format!("{name}_lo999"))?,
            hi999: float(t, r, &format!("{name}_hi999"))?,
        })
    }
}

impl Field for Option<crate::stats::Estimate> {
    const SHAPE: Shape = Shape::Estimate;
    const AGG: Agg = Agg::Mean;
    fn push(self, out: &mut Vec<Value>) {
        match self {
            Some(e) => e.push(out),
            None => out.extend(std::iter::repeat_n(Value::Empty, 5)),
        }
    }
    fn read(t: &Table, r: &[Value], name: &str) -> Option<Self> {
        optional(t, r, name)
    }
}

impl Field for crate::stats::Proportion {
    const SHAPE: Shape = Shape::Proportion;
    const AGG: Agg = Agg::Mean;
    fn push(self, out: &mut Vec<Value>) {
        out.extend([self.rate, self.lo, self.hi].map(Value::Float));
        out.extend([self.successes, self.trials].map(Value::from));
    }
    fn read(t: &Table, r: &[Value], name: &str) -> Option<Self> {
        Some(crate::stats::Proportion {
            successes: u64::read(t, r, &format!("{name}_k"))?,
            trials: u64::read(t, r, &format!("{name}_n"))?,
            rate: float(t, r, name)?,
            lo: float(t, r, &format!("{name}_lo"))?,
            hi: float(t, r, &format!("{name}_hi"))?,
        })
    }
}

impl Field for Option<crate::stats::Proportion> {
    const SHAPE: Shape = Shape::Proportion;
    const AGG: Agg = Agg::Mean;
    fn push(self, out: &mut Vec<Value>) {
        match self {
            Some(p) => p.push(out),
            None => out.extend(std::iter::repeat_n(Value::Empty, 5)),
        }
    }
    fn read(t: &Table, r: &[Value], name: &str) -> Option<Self> {
        optional(t, r, name)
    }
}

/// A kind's typed result row.
pub trait Row {
    /// The metric fields in declared order.
    fn fields() -> Vec<FieldDef>;
    /// The cells, in the order of [`Row::fields`]' columns.
    fn cells(self) -> Vec<Value>;
    /// The row read back from a result table's row by field, not by
    /// string (`None`: the table lacks a column or a required value).
    fn read(t: &Table, r: &[Value]) -> Option<Self>
    where
        Self: Sized;
}

/// One field of a summary row (one row per setting, over replicates), by
/// name from the row's own declaration: the cell kept as is (a `Same`,
/// `Sum`, `Max` or `Key` field, or text), or its mean (median) with the 95%
/// interval, the standard deviation and the pitchfork quantiles when the
/// summary has them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summarized {
    pub value: Option<f64>,
    pub text: String,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub sd: Option<f64>,
    /// At Φ(−2), Φ(−1), ½, Φ(1), Φ(2) (`Pitchfork` fields).
    pub quantiles: Option<[f64; 5]>,
}

impl Summarized {
    pub fn read(t: &Table, r: &[Value], name: &str) -> Self {
        let at = |suffix: &str| float(t, r, &format!("{name}{suffix}"));
        let quantiles = PITCHFORK
            .iter()
            .map(|(q, _)| at(q))
            .collect::<Option<Vec<f64>>>()
            .and_then(|v| v.try_into().ok());
        Summarized {
            value: float(t, r, name),
            text: cell(t, r, name).map(Value::to_string).unwrap_or_default(),
            lo: at("_lo"),
            hi: at("_hi"),
            sd: at("_sd"),
            quantiles,
        }
    }

    /// The mean with its 95% interval, when the summary has both ends.
    pub fn interval(&self) -> Option<Interval> {
        Some(Interval::new(self.value?, self.lo?, self.hi?))
    }
}

/// A kind's summary row by field (declared with `row! { pub struct R,
/// summary Rs { … } }`): every field of the row as [`Summarized`].
pub trait SummaryRow {
    fn read(t: &Table, r: &[Value]) -> Self;
}

/// Declares a kind's row struct: `field: Type` or `field: Type [Agg]`
/// (the summary aggregation; default: mean for numbers, same for text).
/// `pub struct R, summary Rs { … }` also declares `Rs`, the summary row
/// read back by the same field names ([`SummaryRow`]).
#[macro_export]
macro_rules! row {
    ($vis:vis struct $name:ident, summary $sname:ident { $( $(#[$fm:meta])* $field:ident : $ty:ty $([$($opt:ident),+])? ),* $(,)? }) => {
        $crate::row! { $vis struct $name { $( $(#[$fm])* $field : $ty $([$($opt),+])? ),* } }
        /// The summary row: each field's mean (or kept value), interval and sd
        /// (a reading uses the fields it needs).
        #[derive(Clone, Debug, Default)]
        #[allow(dead_code)]
        $vis struct $sname { $( pub $field: $crate::experiment::row::Summarized ),* }
        impl $crate::experiment::row::SummaryRow for $sname {
            fn read(t: &$crate::table::Table, r: &[$crate::table::Value]) -> Self {
                $sname { $( $field: $crate::experiment::row::Summarized::read(
                    t, r, stringify!($field)) ),* }
            }
        }
    };
    ($vis:vis struct $name:ident { $( $(#[$fm:meta])* $field:ident : $ty:ty $([$($opt:ident),+])? ),* $(,)? }) => {
        #[derive(Clone, Debug, Default)]
        $vis struct $name { $( $(#[$fm])* pub $field: $ty ),* }
        impl $crate::experiment::row::Row for $name {
            fn fields() -> Vec<$crate::experiment::row::FieldDef> {
                vec![ $( $crate::experiment::row::FieldDef::declared(
                    stringify!($field),
                    <$ty as $crate::experiment::row::Field>::SHAPE,
                    <$ty as $crate::experiment::row::Field>::AGG,
                    &[ $($( $crate::experiment::row::opt::$opt ),+)? ],
                ).with_docs(&[ $( stringify!($fm) ),* ]) ),* ]
            }
            fn cells(self) -> Vec<$crate::table::Value> {
                let mut out = Vec::new();
                $( $crate::experiment::row::Field::push(self.$field, &mut out); )*
                out
            }
            fn read(t: &$crate::table::Table, r: &[$crate::table::Value]) -> Option<Self> {
                Some($name { $( $field: <$ty as $crate::experiment::row::Field>::read(
                    t, r, stringify!($field))? ),* })
            }
        }
    };
}

#[cfg(test)]
#[path = "row_tests.rs"]
mod tests;
