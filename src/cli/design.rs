//! The inputs of `sketchlab design`: one `Args` struct per review, whose
//! flags are the review's inputs (and its JSON's `inputs`).

use super::number;
use std::path::PathBuf;

/// What `sketchlab design` reviews.
#[derive(clap::Subcommand, Debug)]
pub enum Design {
    /// A Bloom-filter-style filter in front of an authoritative store
    #[command(
        after_help = "Examples:\n  sketchlab design filter --n-expected 1e6 --n-max 3e6 --fpr 0.01 --hit-rate 0.02 --qps 10000\n  sketchlab design filter --n-expected 1e6 --n-max 3e6 --fpr 0.01 --hit-rate 0.02 --qps 10000 --format json\n\nWrites OUT/filter.md (or .html, .json) and its charts; OUT defaults to reports/design. The attack results come from --reference (default reports/claims.csv, the committed full run)."
    )]
    Filter(FilterArgs),
    /// HyperLogLog distinct counts: registers, memory, error, merging across nodes
    #[command(
        after_help = "Examples:\n  sketchlab design cardinality --error 0.01\n  sketchlab design cardinality --error 0.01 --groups 1e5 --merge-nodes 200 --distinct 1e6 --format json\n\nWrites OUT/cardinality.md (or .html, .json) and its chart; OUT defaults to reports/design."
    )]
    Cardinality(CardinalityArgs),
    /// Count-Min frequencies: width, depth, memory, εN, counter width for the stream
    #[command(
        after_help = "Examples:\n  sketchlab design frequency --epsilon 0.001 --delta 0.01 --stream-length 1e9\n  sketchlab design frequency --epsilon 0.001 --delta 0.01 --stream-length 1e10 --merge-nodes 200 --format json\n\nWrites OUT/frequency.md (or .html, .json) and its charts; OUT defaults to reports/design."
    )]
    Frequency(FrequencyArgs),
    /// The most frequent keys of a stream (top-k or every key above a
    /// share φ): SpaceSaving, DataSketches' frequent items, Count-Min with
    /// a top list, measured at your size
    #[command(
        name = "heavy-hitters",
        after_help = "Examples:\n  sketchlab design heavy-hitters --stream-length 1e8 --top 100 --error 0.01%\n  sketchlab design heavy-hitters --stream-length 1e8 --phi 0.1% --memory 64e3 --stream adversarial\n  sketchlab design heavy-hitters --keys requests.log --top 20 --error 0.1% --format json\n\nWrites OUT/heavy_hitters.md (or .html, .json); OUT defaults to reports/design."
    )]
    HeavyHitters(HeavyHittersArgs),
    /// Quantiles of a stream (p50, p99, …) to a rank or relative value
    /// error: t-digest, KLL, REQ, DDSketch, measured at your size
    #[command(
        after_help = "Examples:\n  sketchlab design quantiles --stream-length 1e8 --rank-error 0.1%\n  sketchlab design quantiles --stream-length 1e9 --relative-error 1% --quantiles 0.5,0.99,0.999 --merge-nodes 100\n  sketchlab design quantiles --values latencies.txt --rank-error 0.5% --format json\n\nWrites OUT/quantiles.md (or .html, .json); OUT defaults to reports/design."
    )]
    Quantiles(QuantilesArgs),
}

/// The inputs of `sketchlab design filter`: the flags themselves are
/// the review's inputs (and its JSON's `inputs`).
#[derive(clap::Args, Clone, Debug, serde::Serialize)]
pub struct FilterArgs {
    /// Keys the filter is sized for
    #[arg(long, value_parser = number, value_name = "N")]
    pub n_expected: f64,
    /// The most keys it will ever hold
    #[arg(long, value_parser = number, value_name = "N")]
    pub n_max: f64,
    /// Target false-positive rate, in (0, 1)
    #[arg(long, value_parser = number, value_name = "P")]
    pub fpr: f64,
    /// Share of lookups whose key is present, in [0, 1] (without it the
    /// store-traffic question is left out)
    #[arg(long, value_parser = number, value_name = "H")]
    pub hit_rate: Option<f64>,
    /// Lookups per second (without it the traffic is given per 10,000 lookups)
    #[arg(long, value_parser = number, value_name = "Q")]
    pub qps: Option<f64>,
    /// Bytes per key, for the exact hash set beside the filters [default:
    /// the mean length of the --keys file's keys, else 100]
    #[arg(long, value_name = "B")]
    pub key_bytes: Option<u64>,
    /// What the filter must do besides answer: inserts (after it is
    /// built), deletes, merges; comma-separated (none: a static filter qualifies)
    #[arg(long, value_name = "WHAT", value_delimiter = ',', value_parser = ["inserts", "deletes", "merges"])]
    pub needs: Vec<String>,
    /// Seconds the review's measurements may take in all (shared by the
    /// candidates); a candidate past its share is measured as a scaled
    /// instance (the same load and fingerprint), and says so
    #[arg(long, value_parser = number, value_name = "S", default_value_t = 60.0)]
    pub measure_seconds: f64,
    /// Your own keys for the measurement (gzip read transparently): its
    /// first n-max distinct keys are the members, the rest absent queries;
    /// synthetic 8-byte ids make up the difference
    #[arg(long, value_name = "FILE")]
    pub keys: Option<PathBuf>,
    /// How --keys splits into keys: lines, hex (each line hex-decoded) or u64le
    #[arg(long, value_name = "FORMAT", default_value = "lines", value_parser = ["lines", "hex", "u64le"])]
    pub keys_format: String,
    #[command(flatten)]
    #[serde(flatten)]
    pub common: ReviewArgs,
}

/// The inputs of `sketchlab design cardinality`: the flags themselves are
/// the review's inputs (and its JSON's `inputs`).
#[derive(clap::Args, Clone, Debug, serde::Serialize)]
pub struct CardinalityArgs {
    /// Target relative standard error, in (0, 1)
    #[arg(long, value_parser = number, value_name = "E")]
    pub error: f64,
    /// Sketches kept side by side (one per day, country, campaign, ...)
    #[arg(long, value_parser = number, value_name = "G", default_value_t = 1.0)]
    pub groups: f64,
    /// Nodes whose sketches a coordinator merges (1: no merging)
    #[arg(long, value_parser = number, value_name = "N", default_value_t = 1.0)]
    pub merge_nodes: f64,
    /// Distinct items per group, when known: each sketch is measured there
    /// (and the exact set beside the sketch is sized for it)
    #[arg(long, value_parser = number, value_name = "D")]
    pub distinct: Option<f64>,
    /// Seconds the review's measurements may take in all (shared by the
    /// sketches); a sketch past its share is replayed (register sketches) or
    /// streamed at fewer distinct items, and says so
    #[arg(long, value_parser = number, value_name = "S", default_value_t = 60.0)]
    pub measure_seconds: f64,
    #[command(flatten)]
    #[serde(flatten)]
    pub common: ReviewArgs,
}

/// The inputs of `sketchlab design frequency`: the flags themselves are
/// the review's inputs (and its JSON's `inputs`).
#[derive(clap::Args, Clone, Debug, serde::Serialize)]
pub struct FrequencyArgs {
    /// Additive error as a share of the stream's total, in [1e-9, 1) (w = ⌈e/ε⌉ counters per row must fit in memory)
    #[arg(long, value_parser = number, value_name = "EPS")]
    pub epsilon: f64,
    /// Chance a query exceeds εN, in (0, 1)
    #[arg(long, value_parser = number, value_name = "DELTA")]
    pub delta: f64,
    /// Total updates the sketch will count (N)
    #[arg(long, value_parser = number, value_name = "N")]
    pub stream_length: f64,
    /// Nodes whose sketches a coordinator sums (1: no merging)
    #[arg(long, value_parser = number, value_name = "N", default_value_t = 1.0)]
    pub merge_nodes: f64,
    /// Zipf exponent of the stream simulated to measure the overshoot
    #[arg(long, value_parser = number, value_name = "S", default_value_t = 1.1)]
    pub zipf_s: f64,
    #[command(flatten)]
    #[serde(flatten)]
    pub common: ReviewArgs,
}

/// The inputs of `sketchlab design heavy-hitters`.
#[derive(clap::Args, Clone, Debug, serde::Serialize)]
#[command(group(clap::ArgGroup::new("wanted").required(true).args(["top", "phi"])))]
#[command(group(clap::ArgGroup::new("target").required(true).args(["memory", "error"])))]
pub struct HeavyHittersArgs {
    /// Updates in the stream (N) [default with --keys: the file's records]
    #[arg(long, value_parser = number, value_name = "N", required_unless_present = "keys")]
    pub stream_length: Option<f64>,
    /// Wanted: the K most frequent keys, with their counts
    #[arg(long, value_parser = number, value_name = "K")]
    pub top: Option<f64>,
    /// Wanted: every key above a share PHI of the stream, in (0, 0.5]
    #[arg(long, value_parser = number, value_name = "PHI")]
    pub phi: Option<f64>,
    /// A memory budget in bytes: each structure gets the most it can hold
    /// within it, and they are ranked by what they find
    #[arg(long, value_parser = number, value_name = "BYTES")]
    pub memory: Option<f64>,
    /// An error target: every wanted key found and its count within E·N;
    /// the smallest structure that meets it is recommended
    #[arg(long, value_parser = number, value_name = "E")]
    pub error: Option<f64>,
    /// The stream measured: zipf, uniform, sorted (the Zipf draws, rarest
    /// key first) or adversarial (the wanted keys interleaved with keys
    /// seen once)
    #[arg(long, default_value = "zipf", value_parser = clap::builder::PossibleValuesParser::new(crate::vocab::ItemStream::NAMES))]
    pub stream: String,
    /// Zipf exponent of the zipf and sorted streams
    #[arg(long, value_parser = number, value_name = "S", default_value_t = 1.1)]
    pub zipf_s: f64,
    /// Distinct keys the zipf, sorted and uniform streams draw from
    /// [default: 10^6, or N when smaller]
    #[arg(long, value_parser = number, value_name = "D")]
    pub universe: Option<f64>,
    /// Your own stream (gzip read transparently): every record is one
    /// update, in file order
    #[arg(long, value_name = "FILE")]
    pub keys: Option<PathBuf>,
    /// How --keys splits into keys: lines, hex (each line hex-decoded) or u64le
    #[arg(long, value_name = "FORMAT", default_value = "lines", value_parser = ["lines", "hex", "u64le"])]
    pub keys_format: String,
    /// Seconds the review's measurements may take in all; a stream longer
    /// than fits is measured on its first updates, and says so
    #[arg(long, value_parser = number, value_name = "S", default_value_t = 60.0)]
    pub measure_seconds: f64,
    #[command(flatten)]
    #[serde(flatten)]
    pub common: ReviewArgs,
}

/// The inputs of `sketchlab design quantiles`.
#[derive(clap::Args, Clone, Debug, serde::Serialize)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["rank_error", "relative_error"])))]
pub struct QuantilesArgs {
    /// Values per sketch (N) [default with --values: the file's numbers]
    #[arg(long, value_parser = number, value_name = "N", required_unless_present = "values")]
    pub stream_length: Option<f64>,
    /// Target: |rank of the estimate − q| at most E at every quantile asked
    #[arg(long, value_parser = number, value_name = "E")]
    pub rank_error: Option<f64>,
    /// Target: |estimate − true value| / |true value| at most E at every
    /// quantile asked
    #[arg(long, value_parser = number, value_name = "E")]
    pub relative_error: Option<f64>,
    /// The quantiles asked, comma-separated, each in (0, 1)
    #[arg(long, value_parser = number, value_name = "Q", value_delimiter = ',', default_value = "0.5,0.99,0.999")]
    pub quantiles: Vec<f64>,
    /// Nodes whose sketches a coordinator merges (1: no merging)
    #[arg(long, value_parser = number, value_name = "N", default_value_t = 1.0)]
    pub merge_nodes: f64,
    /// The values measured: lognormal, normal, uniform, pareto, sorted,
    /// reverse_sorted or adversarial (crowding towards 10^12 at every scale)
    #[arg(long, default_value = "lognormal", value_parser = clap::builder::PossibleValuesParser::new(crate::vocab::Dist::NAMES))]
    pub stream: String,
    /// Your own values, one number per line (gzip read transparently)
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,
    /// Seconds the review's measurements may take in all; a longer stream
    /// is measured on its first values, and says so
    #[arg(long, value_parser = number, value_name = "S", default_value_t = 60.0)]
    pub measure_seconds: f64,
    #[command(flatten)]
    #[serde(flatten)]
    pub common: ReviewArgs,
}

/// What every design review takes besides its own numbers (its seed
/// policy is an input; where and how it is written are not).
#[derive(clap::Args, Clone, Debug, serde::Serialize)]
pub struct ReviewArgs {
    /// Where the hash's seed comes from
    #[arg(long, value_enum, default_value_t)]
    pub seed_policy: crate::vocab::SeedChoice,
    /// What the recommendation ranks by first: bytes (the fastest within
    /// 10% of the smallest is named beside it) or speed
    #[arg(long, value_enum, default_value_t)]
    pub prefer: crate::vocab::Prefer,
    /// Output format
    #[arg(long, value_enum, default_value_t)]
    #[serde(skip)]
    pub format: crate::vocab::Format,
    /// A reference run's claims.csv, for the attack results [default:
    /// reports/claims.csv, the committed full run, when it is there]
    #[arg(long, value_name = "FILE")]
    #[serde(skip)]
    pub reference: Option<PathBuf>,
}
