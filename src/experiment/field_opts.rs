//! The words a `row!` field's brackets take: how replicates combine
//! ([`Agg`]), which way a metric is better ([`Better`]) and its unit
//! ([`Unit`]), each a closed set whose word the manifest schema records.

crate::closed_set! {
    /// How the summary stage combines one metric over a setting's replicates
    /// (its word is the manifest schema's `agg`).
    pub enum Agg {
        /// Mean with its Student-t interval (`x`, `x_lo`, `x_hi`).
        Mean = "mean",
        /// Median with its order-statistic interval (`x`, `x_lo`, `x_hi`).
        Median = "median",
        /// Sum (counts).
        Sum = "sum",
        /// The largest value (e.g. false negatives: must be 0 everywhere).
        Max = "max",
        /// Identical in every replicate (a derived size, a name): kept as is.
        Same = "same",
        /// Identifies a row within a trial that yields several (a checkpoint n
        /// along one stream): the summary groups by it as by a parameter.
        Key = "key",
        /// The mean columns, plus the quantiles at the normal's −2σ, −1σ, 0,
        /// +1σ, +2σ probabilities (`x_q02`, `x_q16`, `x_q50`, `x_q84`, `x_q98`:
        /// 2.275%, 15.87%, 50%, 84.13%, 97.725%): DataSketches' "pitchfork".
        Pitchfork = "pitchfork",
    }
}

crate::closed_set! {
    /// Which way a metric is better (declared on the field: `[higher]`,
    /// `[lower]`, `[neither]`); `compare` calls a move that way an
    /// improvement and the other a regression.
    pub enum Better {
        Higher = "higher",
        Lower = "lower",
        Neither = "neither",
    }
}

crate::closed_set! {
    /// What one unit of a numeric field is (declared on the field, e.g.
    /// `[Median, ns]`; the manifest schema's `unit`). A proportion's `k` and
    /// `n` columns are counts whatever its value's unit.
    pub enum Unit {
        /// Nanoseconds (per operation, as the name says: per key, per query).
        Ns = "ns",
        Seconds = "seconds",
        Years = "years",
        Bytes = "bytes",
        /// 10^6 bytes.
        Megabytes = "megabytes",
        /// 10^9 bytes.
        Gigabytes = "gigabytes",
        /// 10^12 bytes.
        Terabytes = "terabytes",
        GigabytesPerSecond = "gigabytes_per_second",
        /// A number of bits (a filter's m, a hash's width, log2 of a count).
        Bits = "bits",
        BitsPerKey = "bits_per_key",
        BytesPerKey = "bytes_per_key",
        /// A share, probability or rate in [0, 1] (an FPR, a fill, a recall,
        /// a rank error as a share of the stream).
        Fraction = "fraction",
        /// Hundredths.
        Percent = "percent",
        /// (estimate − truth) ÷ truth, or a standard error in those terms
        /// (1.04/√m).
        RelativeError = "relative_error",
        /// The square of a relative error (its mean is the MSE).
        SquaredRelativeError = "squared_relative_error",
        /// One quantity over another of the same kind (measured ÷ theory, a
        /// speedup, a space factor).
        Ratio = "ratio",
        /// Standard deviations of the statistic's null distribution (a z-score).
        Sigmas = "sigmas",
        /// Events per second (requests, items generated).
        PerSecond = "per_second",
        /// A number of things (keys, counters, registers, probes, events),
        /// per operation where the name says so.
        Count = "count",
        /// A pure number with no unit (a constant such as α_m, a documented figure).
        Number = "number",
        /// 1 when something holds, 0 when not (its mean over replicates is a share).
        Flag = "flag",
    }
}

/// An option of a `row!` field's brackets: its aggregation, which way it
/// is better, or its unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    Agg(Agg),
    Better(Better),
    Unit(Unit),
}

/// The words a `row!` field's brackets take (`[Median, higher, ns]`).
#[allow(non_upper_case_globals)]
pub mod opt {
    use super::{Agg, Better, Opt, Unit};
    pub const Mean: Opt = Opt::Agg(Agg::Mean);
    pub const Median: Opt = Opt::Agg(Agg::Median);
    pub const Sum: Opt = Opt::Agg(Agg::Sum);
    pub const Max: Opt = Opt::Agg(Agg::Max);
    pub const Same: Opt = Opt::Agg(Agg::Same);
    pub const Key: Opt = Opt::Agg(Agg::Key);
    pub const Pitchfork: Opt = Opt::Agg(Agg::Pitchfork);
    pub const higher: Opt = Opt::Better(Better::Higher);
    pub const lower: Opt = Opt::Better(Better::Lower);
    pub const neither: Opt = Opt::Better(Better::Neither);
    pub const ns: Opt = Opt::Unit(Unit::Ns);
    pub const seconds: Opt = Opt::Unit(Unit::Seconds);
    pub const years: Opt = Opt::Unit(Unit::Years);
    pub const bytes: Opt = Opt::Unit(Unit::Bytes);
    pub const megabytes: Opt = Opt::Unit(Unit::Megabytes);
    pub const gigabytes: Opt = Opt::Unit(Unit::Gigabytes);
    pub const terabytes: Opt = Opt::Unit(Unit::Terabytes);
    pub const gigabytes_per_second: Opt = Opt::Unit(Unit::GigabytesPerSecond);
    pub const bits: Opt = Opt::Unit(Unit::Bits);
    pub const bits_per_key: Opt = Opt::Unit(Unit::BitsPerKey);
    pub const bytes_per_key: Opt = Opt::Unit(Unit::BytesPerKey);
    pub const fraction: Opt = Opt::Unit(Unit::Fraction);
    pub const percent: Opt = Opt::Unit(Unit::Percent);
    pub const relative_error: Opt = Opt::Unit(Unit::RelativeError);
    pub const squared_relative_error: Opt = Opt::Unit(Unit::SquaredRelativeError);
    pub const ratio: Opt = Opt::Unit(Unit::Ratio);
    pub const sigmas: Opt = Opt::Unit(Unit::Sigmas);
    pub const per_second: Opt = Opt::Unit(Unit::PerSecond);
    pub const count: Opt = Opt::Unit(Unit::Count);
    pub const number: Opt = Opt::Unit(Unit::Number);
    pub const flag: Opt = Opt::Unit(Unit::Flag);
}
