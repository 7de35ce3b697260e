//! The words sketchlab's flags, files and reports share, each an enum named
//! once here with its one spelling and one order: a verdict, a document, an
//! output format, a design review's seed policy, a HyperLogLog estimator.
//! Flags take them as `clap::ValueEnum`s, so a misspelt value is exit 2
//! before anything runs, and code matches on variants, never on strings.
//! This module depends on nothing in the crate: every layer may use it.

use clap::ValueEnum;

/// A closed set of words and its enum (declared with [`closed_set!`]).
pub trait ClosedSet: Sized + Copy + 'static {
    /// The words, in declaration order.
    const NAMES: &'static [&'static str];
    /// The variant a word names.
    fn from_name(s: &str) -> Option<Self>;
    /// The variant's word.
    fn as_str(self) -> &'static str;
}

/// A closed set of spec words as an enum: `closed_set! { pub enum Mode {
/// Pollution = "pollution", Forgery = "forgery" } }` declares the enum with
/// `NAMES` (the words, in order: what `common::choice` offers), `from_name`,
/// `as_str`, `Display` (its word, so a row or a message prints what the
/// spec said) and [`ClosedSet`] (so a kind's parameter can be the enum:
/// `experiment::params` reads any closed set by its word), and a `match`
/// on it is checked for completeness by the compiler.
#[macro_export]
macro_rules! closed_set {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $( $(#[$vm:meta])* $var:ident = $word:literal ),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $( $(#[$vm])* $var ),+ }
        impl $name {
            /// The spec's words, in declaration order.
            pub const NAMES: &'static [&'static str] = &[ $( $word ),+ ];
            /// Every variant, in the order of [`Self::NAMES`].
            #[allow(dead_code)]
            pub const ALL: &'static [$name] = &[ $( $name::$var ),+ ];
            /// The variant a spec word names.
            pub fn from_name(s: &str) -> Option<Self> {
                match s { $( $word => Some($name::$var), )+ _ => None }
            }
            /// The spec's word for this variant.
            pub fn as_str(self) -> &'static str {
                match self { $( $name::$var => $word ),+ }
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl<'de> serde::Deserialize<'de> for $name {
            /// From its word; any other word is refused naming the words.
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let word = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                $name::from_name(&word).ok_or_else(|| {
                    <D::Error as serde::de::Error>::custom(format!(
                        "{:?}: must be one of {}",
                        word,
                        $name::NAMES.join(", ")
                    ))
                })
            }
        }
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl $crate::vocab::ClosedSet for $name {
            const NAMES: &'static [&'static str] = $name::NAMES;
            fn from_name(s: &str) -> Option<Self> {
                $name::from_name(s)
            }
            fn as_str(self) -> &'static str {
                $name::as_str(self)
            }
        }
    };
}

/// A claim's verdict (claims.csv's `verdict`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, ValueEnum)]
pub enum Verdict {
    Holds,
    DoesNotHold,
    /// The interval straddles the band's edge: the study must measure more.
    Inconclusive,
    NotMeasured,
}

impl Verdict {
    /// Every verdict, in the one order the ledger, the report and
    /// `sketchlab claims` count them.
    pub const ALL: [Verdict; 4] = [
        Verdict::Holds,
        Verdict::DoesNotHold,
        Verdict::Inconclusive,
        Verdict::NotMeasured,
    ];

    /// claims.csv's spelling (and `sketchlab claims --verdict`'s).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::DoesNotHold => "does-not-hold",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotMeasured => "not-measured",
        }
    }

    /// The plural a count reads with ("3 hold").
    pub fn plural(self) -> &'static str {
        match self {
            Verdict::Holds => "hold",
            Verdict::DoesNotHold => "do not hold",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotMeasured => "not measured",
        }
    }

    pub fn parse(s: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// One of the two documents sketchlab reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, ValueEnum)]
pub enum Document {
    /// The textbook chapter.
    #[value(name = "000")]
    Chapter,
    /// The essay.
    #[value(name = "002")]
    Essay,
}

impl Document {
    pub const ALL: [Document; 2] = [Document::Chapter, Document::Essay];

    /// Its id in claims (`document = "000"`) and claims.csv.
    pub const fn id(self) -> &'static str {
        match self {
            Document::Chapter => "000",
            Document::Essay => "002",
        }
    }

    pub fn parse(s: &str) -> Option<Document> {
        Document::ALL.into_iter().find(|d| d.id() == s)
    }
}

impl std::fmt::Display for Document {
    /// Its id ("000").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl<'de> serde::Deserialize<'de> for Document {
    /// From its id (`"000"`); any other is refused naming the ids.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        Document::parse(&id).ok_or_else(|| {
            let ids: Vec<&str> = Document::ALL.iter().map(|d| d.id()).collect();
            <D::Error as serde::de::Error>::custom(format!(
                "{id:?}: must be one of {}",
                ids.join(", ")
            ))
        })
    }
}

closed_set! {
    /// A stream of values for the quantile sketches (`dist` of the
    /// quantile studies, `--stream` of `design quantiles`).
    pub enum Dist {
        Uniform = "uniform",
        Normal = "normal",
        Lognormal = "lognormal",
        Pareto = "pareto",
        Sorted = "sorted",
        ReverseSorted = "reverse_sorted",
        Adversarial = "adversarial",
    }
}

closed_set! {
    /// A stream of keys for the heavy-hitter structures (`--stream` of
    /// `design heavy-hitters`).
    pub enum ItemStream {
        Zipf = "zipf",
        Uniform = "uniform",
        Sorted = "sorted",
        Adversarial = "adversarial",
    }
}

/// A design review's output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    #[default]
    Md,
    Html,
    Json,
}

impl Format {
    /// The file extension (and the flag's spelling).
    pub fn ext(self) -> &'static str {
        match self {
            Format::Md => "md",
            Format::Html => "html",
            Format::Json => "json",
        }
    }
}

/// What a design review ranks its candidates by first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Prefer {
    /// The fewest bytes (the fastest within 10% of them is named beside it).
    #[default]
    Bytes,
    /// The fastest query (or insert) among the candidates that qualify.
    Speed,
}

/// Where a design review's hash seed comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SeedChoice {
    /// One constant seed, public (in the code or a config file).
    #[default]
    Fixed,
    /// Drawn per process from the OS, not exposed.
    Random,
    /// A secret key per deployment (a keyed PRF such as SipHash).
    Keyed,
}

impl SeedChoice {
    pub fn as_str(self) -> &'static str {
        match self {
            SeedChoice::Fixed => "fixed",
            SeedChoice::Random => "random",
            SeedChoice::Keyed => "keyed",
        }
    }
}

/// A HyperLogLog estimator of sketchlab's sketch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HllEstimator {
    Raw,
    LinearCounting,
    Hllpp,
    Ertl,
    Hip,
}

impl HllEstimator {
    /// Every estimator, in the one order results.csv's columns and
    /// `estimate hll --estimator all` list them.
    pub const ALL: [HllEstimator; 5] = [
        HllEstimator::Raw,
        HllEstimator::LinearCounting,
        HllEstimator::Hllpp,
        HllEstimator::Ertl,
        HllEstimator::Hip,
    ];
    pub const NAMES: [&'static str; 5] = ["raw", "linear_counting", "hllpp", "ertl", "hip"];

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn parse(s: &str) -> Option<HllEstimator> {
        Self::ALL.into_iter().find(|e| e.as_str() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_word_round_trips_and_the_flag_spells_it_the_same() {
        for v in Verdict::ALL {
            assert_eq!(Verdict::parse(v.as_str()), Some(v));
            assert_eq!(v.to_possible_value().unwrap().get_name(), v.as_str());
        }
        for d in Document::ALL {
            assert_eq!(Document::parse(d.id()), Some(d));
            assert_eq!(d.to_possible_value().unwrap().get_name(), d.id());
        }
        for f in Format::value_variants() {
            assert_eq!(f.to_possible_value().unwrap().get_name(), f.ext());
        }
        for s in SeedChoice::value_variants() {
            assert_eq!(s.to_possible_value().unwrap().get_name(), s.as_str());
        }
        for e in HllEstimator::ALL {
            assert_eq!(HllEstimator::parse(e.as_str()), Some(e));
        }
        assert_eq!(Verdict::parse("holds!"), None);
    }
}
