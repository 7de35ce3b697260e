//! Parameter values, their declared types and allowed ranges.

use crate::hashing::{HashStrategy, Seed, SeedPolicy, StrategyKind, splitmix64};
use crate::workload::KeyType;
use std::fmt;

/// A parameter value from a spec.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl Value {
    /// As it would be written in TOML (strings quoted), for error messages.
    pub fn toml_repr(&self) -> String {
        match self {
            Value::Str(s) => format!("{s:?}"),
            Value::Float(x) if x.is_nan() => "nan".into(),
            other => other.to_string(),
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(x) => Some(*x),
            _ => None,
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
}

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
}

impl ParamDef {
    pub const fn new(name: &'static str, ty: PType, default: Def, help: &'static str) -> Self {
        ParamDef {
            name,
            ty,
            default,
            help,
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
    pub fn validate(&self, v: &Value) -> Result<Value, String> {
        fn int_in(v: &Value, min: i64, max: i64) -> Option<i64> {
            match v {
                Value::Int(i) if (min..=max).contains(i) => Some(*i),
                Value::Float(x) if x.fract() == 0.0 && *x >= min as f64 && *x <= max as f64 => {
                    Some(*x as i64)
                }
                _ => None,
            }
        }
        let one_of = |words: &[&str]| format!("must be one of {}", words.join(", "));
        match self.ty {
            PType::Int { min, max } => int_in(v, min, max)
                .map(Value::Int)
                .ok_or_else(|| int_range(min, max)),
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
            }
            PType::IntOr { min, max, words } => match v {
                Value::Str(s) if words.contains(&s.as_str()) => Ok(v.clone()),
                _ => int_in(v, min, max).map(Value::Int).ok_or_else(|| {
                    format!("{} or one of {}", int_range(min, max), words.join(", "))
                }),
            },
            PType::Choice(words) => match v {
                Value::Str(s) if words.contains(&s.as_str()) => Ok(v.clone()),
                _ => Err(one_of(words)),
            },
            PType::Hash => match v {
                Value::Str(s) if StrategyKind::from_name(s).is_some() => Ok(v.clone()),
                _ => Err(one_of(&StrategyKind::names())),
            },
            PType::Keys => match v {
                Value::Str(s) if KeyType::from_name(s).is_some() => Ok(v.clone()),
                _ => Err(one_of(&KeyType::names())),
            },
            PType::HashSeed => match v {
                Value::Str(s) if s == "trial" || s == "random" => Ok(v.clone()),
                Value::Int(i) if *i >= 0 => Ok(v.clone()),
                _ => Err("must be \"trial\", \"random\" or an integer >= 0".into()),
            },
            PType::Bool => match v {
                Value::Bool(_) => Ok(v.clone()),
                _ => Err("must be true or false".into()),
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

    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Value::Int(i) => *i,
            v => panic!("bug: parameter {name} = {v} is not an integer"),
        }
    }

    pub fn u64(&self, name: &str) -> u64 {
        self.int(name) as u64
    }

    pub fn float(&self, name: &str) -> f64 {
        self.get(name)
            .as_f64()
            .unwrap_or_else(|| panic!("bug: parameter {name} is not a number"))
    }

    pub fn str(&self, name: &str) -> &str {
        match self.get(name) {
            Value::Str(s) => s,
            v => panic!("bug: parameter {name} = {v} is not a string"),
        }
    }

    pub fn bool(&self, name: &str) -> bool {
        match self.get(name) {
            Value::Bool(b) => *b,
            v => panic!("bug: parameter {name} = {v} is not a bool"),
        }
    }

    pub fn keys(&self, name: &str) -> KeyType {
        KeyType::from_name(self.str(name)).expect("validated key type")
    }

    /// The seed policy a trial's `hash_seed` parameter asks for; `"trial"`
    /// derives a fixed seed from the trial seed.
    pub fn seed_policy(&self, trial_seed: u64) -> SeedPolicy {
        match self.get("hash_seed") {
            Value::Str(s) if s == "random" => SeedPolicy::Random,
            Value::Int(i) => SeedPolicy::Fixed(*i as u64),
            _ => SeedPolicy::Fixed(splitmix64(trial_seed ^ 0x005E_ED0F_4A5B)),
        }
    }

    /// The hash strategy named by `hash`, seeded by `hash_seed`.
    pub fn hasher(&self, trial_seed: u64) -> HashStrategy {
        let kind = StrategyKind::from_name(self.str("hash")).expect("validated hash name");
        kind.build(self.seed_policy(trial_seed).resolve())
    }

    /// A derived seed for key salts and RNGs (independent of the hash seed).
    pub fn salt(&self, trial_seed: u64, purpose: u64) -> u64 {
        Seed::fixed(trial_seed).derive(purpose).lo
    }
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
        assert_eq!(d.validate(&Value::Float(1e6)), Ok(Value::Int(1_000_000)));
        assert!(d.validate(&Value::Float(1.5)).is_err());
        assert_eq!(d.validate(&Value::Int(0)).unwrap_err(), "must be > 0");
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
        assert_eq!(d.validate(&Value::Float(0.5)), Ok(Value::Float(0.5)));
        assert_eq!(
            d.validate(&Value::Float(1.0)).unwrap_err(),
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
