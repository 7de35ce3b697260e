//! Parameter values, their declared types and allowed ranges.

use crate::hashing::{HashStrategy, Seed, SeedPolicy, StrategyId};
use crate::table::ColType;
pub use crate::table::Value;
use crate::workload::KeyType;

/// A parameter's type and allowed range.
#[derive(Clone, Copy, Debug)]
pub enum PType {
    /// An integer in `min..=max` (an integral float such as `1e6` is accepted).
    Int {
        min: i64,
        max: i64,
    },
    /// A finite float in the range; `open` ends are excluded.
    Float {
        min: f64,
        max: f64,
        min_open: bool,
        max_open: bool,
    },
    /// An integer in `min..=max`, or one of the words.
    IntOr {
        min: i64,
        max: i64,
        words: &'static [&'static str],
    },
    /// One of the words.
    Choice(&'static [&'static str]),
    /// A hash strategy name.
    Hash,
    /// A key type name.
    Keys,
    /// `"trial"` (derived from the trial seed: reproducible, the default),
    /// `"random"` (one OS key per process) or a fixed integer seed.
    HashSeed,
    Bool,
}

/// A default value for a parameter the spec may omit.
#[derive(Clone, Copy, Debug)]
pub enum Def {
    Required,
    Int(i64),
    Float(f64),
    Str(&'static str),
    Bool(bool),
}

/// One parameter an experiment kind accepts.
#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    pub name: &'static str,
    pub ty: PType,
    pub default: Def,
    pub help: &'static str,
    /// What one unit of a numeric parameter is (declared in `params!`'s
    /// brackets, `n: u64 [count] = …`; the manifest schema's `unit`).
    pub unit: Option<crate::experiment::field_opts::Unit>,
}

impl ParamDef {
    pub const fn new(name: &'static str, ty: PType, default: Def, help: &'static str) -> Self {
        ParamDef {
            name,
            ty,
            default,
            help,
            unit: None,
        }
    }

    /// The same declaration with its unit (`opt` is one of
    /// [`crate::experiment::field_opts::opt`]'s unit words).
    pub const fn with_unit(self, opt: crate::experiment::field_opts::Opt) -> Self {
        match opt {
            crate::experiment::field_opts::Opt::Unit(u) => ParamDef {
                unit: Some(u),
                ..self
            },
            _ => panic!("a parameter's brackets take a unit word only"),
        }
    }

    /// Whether the parameter is a quantity (an integer or a number, or a
    /// choice between words and an integer), which takes a unit.
    pub fn numeric(&self) -> bool {
        matches!(
            self.ty,
            PType::Int { .. } | PType::Float { .. } | PType::IntOr { .. }
        )
    }

    /// The same declaration under another name (how [`params!`](crate::params) names them).
    pub const fn named(self, name: &'static str) -> Self {
        ParamDef { name, ..self }
    }

    /// The column type of this parameter in result tables.
    pub fn col_type(&self) -> ColType {
        match self.ty {
            PType::Int { .. } => ColType::Int,
            PType::Float { .. } => ColType::Float,
            PType::IntOr { .. } | PType::HashSeed => ColType::IntOrStr,
            PType::Choice(_) | PType::Hash | PType::Keys => ColType::Str,
            PType::Bool => ColType::Bool,
        }
    }

    /// The allowed values, in words (for `list --kinds`).
    pub fn allowed(&self) -> String {
        match self.ty {
            PType::Int { min, max } => format!(
                "integer {}",
                int_range(min, max).trim_start_matches("must be ")
            ),
            PType::Float {
                min,
                max,
                min_open,
                max_open,
            } => format!(
                "number in {}{min}, {max}{}",
                if min_open { "(" } else { "[" },
                if max_open { ")" } else { "]" }
            ),
            PType::IntOr { min, max, words } => {
                format!("integer {min}..={max} or {}", words.join(", "))
            }
            PType::Choice(words) => words.join(" | "),
            PType::Hash => "a hash strategy (list --hashes)".into(),
            PType::Keys => format!(
                "{} | {{ file = PATH, format = {} }}",
                KeyType::names().join(" | "),
                crate::workload::file::Format::NAMES.join(" | ")
            ),
            PType::HashSeed => "\"trial\" | \"random\" | integer".into(),
            PType::Bool => "true | false".into(),
        }
    }

    pub fn default_value(&self) -> Option<Value> {
        match self.default {
            Def::Required => None,
            Def::Int(i) => Some(Value::Int(i)),
            Def::Float(x) => Some(Value::Float(x)),
            Def::Str(s) => Some(Value::Str(s.to_string())),
            Def::Bool(b) => Some(Value::Bool(b)),
        }
    }

    /// Checks `v` against the type and range; returns the normalised value or
    /// the phrase saying what is allowed.
    pub fn validate(&self, v: &Value) -> crate::error::Result<Value> {
        fn int_in(v: &Value, min: i64, max: i64) -> Option<i64> {
            match v {
                Value::Int(i) if (min..=max).contains(i) => Some(*i),
                Value::Float(x) if x.fract() == 0.0 && *x >= min as f64 && *x <= max as f64 => {
                    Some(*x as i64)
                }
                _ => None,
            }
        }
        use crate::error::Error;
        let one_of = |words: &[&str]| Error::input(format!("must be one of {}", words.join(", ")));
        match self.ty {
            PType::Int { min, max } => int_in(v, min, max)
                .map(Value::Int)
                .ok_or_else(|| Error::input(int_range(min, max))),
            PType::Float {
                min,
                max,
                min_open,
                max_open,
            } => {
                let x = v.as_f64().filter(|x| {
                    x.is_finite()
                        && (if min_open { *x > min } else { *x >= min })
                        && (if max_open { *x < max } else { *x <= max })
                });
                x.map(Value::Float).ok_or_else(|| {
                    Error::input({
                        let lo = if min_open { "(" } else { "[" };
                        let hi = if max_open { ")" } else { "]" };
                        if max.is_infinite() {
                            format!(
                                "must be a number {} {min}",
                                if min_open { ">" } else { ">=" }
                            )
                        } else {
                            format!("must be a number in {lo}{min}, {max}{hi}")
                        }
                    })
                })
            }
            PType::IntOr { min, max, words } => match v {
                Value::Str(s) if words.contains(&s.as_str()) => Ok(v.clone()),
                _ => int_in(v, min, max).map(Value::Int).ok_or_else(|| {
                    Error::input(format!(
                        "{} or one of {}",
                        int_range(min, max),
                        words.join(", ")
                    ))
                }),
            },
            PType::Choice(words) => match v {
                Value::Str(s) if words.contains(&s.as_str()) => Ok(v.clone()),
                _ => Err(one_of(words)),
            },
            PType::Hash => match v {
                Value::Str(s) if StrategyId::from_name(s).is_some() => Ok(v.clone()),
                _ => Err(one_of(&StrategyId::names())),
            },
            PType::Keys => match v {
                Value::Str(s) => KeyType::open(s)
                    .map(|_| v.clone())
                    .map_err(|e| Error::input(e.to_string())),
                _ => Err(Error::input(KeyType::open("").unwrap_err().to_string())),
            },
            PType::HashSeed => match v {
                Value::Str(s) if s == "trial" || s == "random" => Ok(v.clone()),
                Value::Int(i) if *i >= 0 => Ok(v.clone()),
                _ => Err(Error::input(
                    "must be \"trial\", \"random\" or an integer >= 0",
                )),
            },
            PType::Bool => match v {
                Value::Bool(_) => Ok(v.clone()),
                _ => Err(Error::input("must be true or false")),
            },
        }
    }
}

fn int_range(min: i64, max: i64) -> String {
    if max == i64::MAX {
        if min == 1 {
            "must be > 0".to_string()
        } else {
            format!("must be an integer >= {min}")
        }
    } else {
        format!("must be an integer in {min}..={max}")
    }
}

/// The parameters of one trial, in the kind's declared order.
#[derive(Clone, Debug, PartialEq)]
pub struct Params(pub Vec<(&'static str, Value)>);

impl Params {
    pub fn get(&self, name: &str) -> &Value {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("bug: parameter {name} is not declared by this kind"))
    }

    /// The canonical text of these parameters: `name=value` in declared
    /// order, numbers in their shortest round-trip form. Part of a trial's identity.
    pub fn canonical(&self) -> String {
        let mut s = String::new();
        for (n, v) in &self.0 {
            s += &format!("{n}={}\u{1f}", v.toml_repr());
        }
        s
    }
}

/// A trial's seed and the independent streams derived from it by purpose
/// (`"keys"`, `"hash"`, `"queries"`, …): a label, never a magic number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeds(pub u64);

impl Seeds {
    /// The 64-bit seed for one purpose.
    pub fn derive(&self, purpose: &str) -> u64 {
        Seed::fixed(self.0)
            .derive(xxhash_rust::xxh3::xxh3_64(purpose.as_bytes()))
            .lo
    }

    /// The seed for the `i`-th instance of one purpose (e.g. the keys of search `i`).
    pub fn derive_nth(&self, purpose: &str, i: u64) -> u64 {
        Seed::fixed(self.derive(purpose)).derive(i).lo
    }

    /// A random stream for one purpose (xoshiro256++; never `thread_rng`).
    pub fn rng(&self, purpose: &str) -> rand::rngs::Xoshiro256PlusPlus {
        <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(self.derive(purpose))
    }
}

/// Converts a validated parameter value to its typed field. The spec
/// validator has already checked the value against the [`ParamDef`], so a
/// mismatch here is a bug in the kind's declaration.
pub trait FromValue: Sized {
    fn from_value(v: &Value) -> Self;
}

fn mismatch(v: &Value, want: &str) -> ! {
    panic!("bug: parameter value {v} is not {want} (declaration and field type disagree)")
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: &Value) -> Self {
                match v {
                    Value::Int(i) => <$t>::try_from(*i).unwrap_or_else(|_| mismatch(v, stringify!($t))),
                    _ => mismatch(v, "an integer"),
                }
            }
        }
    )*};
}
from_int!(u64, u32, usize, i64);

impl FromValue for f64 {
    fn from_value(v: &Value) -> Self {
        v.as_f64().unwrap_or_else(|| mismatch(v, "a number"))
    }
}

impl FromValue for bool {
    fn from_value(v: &Value) -> Self {
        match v {
            Value::Bool(b) => *b,
            _ => mismatch(v, "a bool"),
        }
    }
}

impl FromValue for String {
    fn from_value(v: &Value) -> Self {
        match v {
            Value::Str(s) => s.clone(),
            _ => mismatch(v, "a string"),
        }
    }
}

impl FromValue for StrategyId {
    fn from_value(v: &Value) -> Self {
        StrategyId::from_name(&String::from_value(v)).unwrap_or_else(|| mismatch(v, "a hash"))
    }
}

impl FromValue for KeyType {
    fn from_value(v: &Value) -> Self {
        KeyType::from_name(&String::from_value(v)).unwrap_or_else(|| mismatch(v, "a key type"))
    }
}

/// The variant a validated word names (the validator checked it against
/// the same `NAMES`, so a miss is a bug in the declaration).
pub fn by_name<T>(v: &Value, from_name: impl Fn(&str) -> Option<T>, what: &str) -> T {
    match v {
        Value::Str(s) => from_name(s).unwrap_or_else(|| mismatch(v, what)),
        _ => mismatch(v, what),
    }
}

/// Every closed set ([`crate::vocab::ClosedSet`]) is read by its word.
impl<T: crate::vocab::ClosedSet> FromValue for T {
    fn from_value(v: &Value) -> Self {
        by_name(v, T::from_name, std::any::type_name::<T>())
    }
}

/// [`FromValue`] for enums declared elsewhere with a `from_name`.
macro_rules! from_value_by_name {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: &Value) -> Self {
                by_name(v, <$t>::from_name, stringify!($t))
            }
        }
    )*};
}
from_value_by_name!(
    crate::structures::menu::Filter,
    crate::structures::menu::Sketch
);

/// The loaded key file a `keys` parameter value names, if it names one.
pub fn key_file_of(v: &Value) -> Option<&'static crate::workload::file::KeyFile> {
    match v {
        Value::Str(s) => KeyType::from_name(s).and_then(KeyType::file),
        _ => None,
    }
}

/// `k`: a fixed number of probes, or the optimum for the filter's m/n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KSetting {
    Fixed(u32),
    Optimal,
}

impl FromValue for KSetting {
    fn from_value(v: &Value) -> Self {
        match v {
            Value::Int(_) => KSetting::Fixed(u32::from_value(v)),
            Value::Str(s) if s == "optimal" => KSetting::Optimal,
            _ => mismatch(v, "an integer or \"optimal\""),
        }
    }
}

/// `hash_seed`: where a trial's hash seed comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashSeed {
    /// Derived from the trial seed: reproducible (the default).
    Trial,
    /// One OS key per process, recorded in the manifest.
    Random,
    Fixed(u64),
}

impl FromValue for HashSeed {
    fn from_value(v: &Value) -> Self {
        match v {
            Value::Str(s) if s == "trial" => HashSeed::Trial,
            Value::Str(s) if s == "random" => HashSeed::Random,
            Value::Int(i) if *i >= 0 => HashSeed::Fixed(*i as u64),
            _ => mismatch(v, "a hash seed"),
        }
    }
}

impl HashSeed {
    pub fn policy(self, seeds: Seeds) -> SeedPolicy {
        match self {
            HashSeed::Trial => SeedPolicy::Fixed(seeds.derive("hash")),
            HashSeed::Random => SeedPolicy::Random,
            HashSeed::Fixed(s) => SeedPolicy::Fixed(s),
        }
    }

    /// The strategy `kind` seeded by this policy.
    pub fn hasher(self, kind: StrategyId, seeds: Seeds) -> HashStrategy {
        kind.build(self.policy(seeds).resolve())
    }
}

/// A kind's typed parameters: one struct whose fields are the declared
/// parameters (see [`params!`](crate::params)), so a kind reads `p.n`, and a
/// misspelt name is a compile error.
pub trait ParamSet: Sized {
    /// The declarations (types, ranges, defaults, help) in field order.
    const DEFS: &'static [ParamDef];
    fn from_params(p: &Params) -> Self;

    /// The parameters of a result table's row (`None`: a parameter column
    /// missing or empty).
    fn read(t: &crate::table::Table, r: &[Value]) -> Option<Self> {
        let mut cells = Vec::with_capacity(Self::DEFS.len());
        for d in Self::DEFS {
            if !t.has(d.name) || t.cell(r, d.name) == &Value::Empty {
                return None;
            }
            cells.push((d.name, t.cell(r, d.name).clone()));
        }
        Some(Self::from_params(&Params(cells)))
    }
}

/// Declares a kind's parameter struct and its [`ParamDef`]s in one place:
/// `field: Type = <ParamDef expression>`; the expression's name is replaced
/// by the field's.
#[macro_export]
macro_rules! params {
    ($vis:vis struct $name:ident { $( $(#[$fm:meta])* $field:ident : $ty:ty $([$unit:ident])? = $def:expr ),* $(,)? }) => {
        #[derive(Clone, Debug)]
        $vis struct $name { $( $(#[$fm])* pub $field: $ty ),* }
        impl $crate::experiment::params::ParamSet for $name {
            const DEFS: &'static [$crate::experiment::params::ParamDef] =
                &[ $( $def.named(stringify!($field))
                    $(.with_unit($crate::experiment::field_opts::opt::$unit))? ),* ];
            fn from_params(p: &$crate::experiment::params::Params) -> Self {
                $name { $( $field: <$ty as $crate::experiment::params::FromValue>::from_value(
                    p.get(stringify!($field))) ),* }
            }
        }
    };
}

/// The two parameters every hashing kind takes.
pub const HASH: ParamDef = ParamDef::new("hash", PType::Hash, Def::Str("xxh3"), "hash strategy");
pub const HASH_SEED: ParamDef = ParamDef::new(
    "hash_seed",
    PType::HashSeed,
    Def::Str("trial"),
    "\"trial\" (derived from the trial seed), \"random\" (per process) or a fixed integer",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_accepts_integral_floats_only() {
        let d = ParamDef::new(
            "n",
            PType::Int {
                min: 1,
                max: i64::MAX,
            },
            Def::Required,
            "",
        );
        assert_eq!(
            d.validate(&Value::Float(1e6)).ok(),
            Some(Value::Int(1_000_000))
        );
        assert!(d.validate(&Value::Float(1.5)).is_err());
        assert_eq!(
            d.validate(&Value::Int(0)).unwrap_err().to_string(),
            "must be > 0"
        );
    }

    #[test]
    fn float_ranges() {
        let d = ParamDef::new(
            "p",
            PType::Float {
                min: 0.0,
                max: 1.0,
                min_open: true,
                max_open: true,
            },
            Def::Required,
            "",
        );
        for bad in [0.0, 1.0, f64::NAN, f64::INFINITY] {
            assert!(d.validate(&Value::Float(bad)).is_err(), "{bad}");
        }
        assert_eq!(d.validate(&Value::Float(0.5)).ok(), Some(Value::Float(0.5)));
        assert_eq!(
            d.validate(&Value::Float(1.0)).unwrap_err().to_string(),
            "must be a number in (0, 1)"
        );
    }

    #[test]
    fn int_or_word() {
        let d = ParamDef::new(
            "k",
            PType::IntOr {
                min: 1,
                max: 64,
                words: &["optimal"],
            },
            Def::Required,
            "",
        );
        assert!(d.validate(&Value::Str("optimal".into())).is_ok());
        assert!(d.validate(&Value::Int(0)).is_err());
        assert!(d.validate(&Value::Str("best".into())).is_err());
    }
}
