//! Command-line interface (clap derive).

use clap::{Parser, Subcommand};
use std::path::PathBuf;

mod design;
pub use design::*;

#[derive(Debug, Parser)]
#[command(
    name = "sketchlab",
    version,
    about = "Measures probabilistic data structures against their theory and the documents' claims",
    after_help = "Examples:\n  sketchlab list\n  sketchlab list --hashes\n  sketchlab hash --strategy xxh3 apple\n  sketchlab run experiments/bloom_fpr.toml\n  sketchlab run bloom_overfill --quick --threads 2 --out /tmp/r\n  sketchlab reproduce --quick"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Use each study's `[quick]` sizes (fast, wider intervals)
    #[arg(long, global = true)]
    pub quick: bool,

    /// Output directory [default: reports, or reports/quick with --quick, so a
    /// quick run never overwrites the committed full report]
    #[arg(long, global = true, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Worker threads (default: all cores)
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,

    /// Override every study's seed
    #[arg(long, global = true, value_name = "S")]
    pub seed: Option<u64>,

    /// No progress bar or summary lines
    #[arg(long, global = true)]
    pub quiet: bool,

    /// The longest key a line of stdin may hold, in bytes (hash, estimate);
    /// a longer line is refused, not buffered
    #[arg(long, global = true, value_name = "BYTES", default_value_t = 1 << 20,
          value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub max_key_bytes: u64,

    /// The largest table sketchlab reads (results, summaries, claims,
    /// journals, key files), in bytes on disk and decompressed; a larger
    /// one is refused naming its size, not read
    #[arg(long, global = true, value_name = "BYTES", default_value_t = crate::input::DEFAULT_TABLE_BOUND,
          value_parser = clap::value_parser!(u64).range(1..=crate::input::MAX_TABLE_BOUND))]
    pub max_input_bytes: u64,

    /// Let `--resume` and `merge` take records another build wrote (a
    /// journal records the crate version and git revision that wrote it)
    #[arg(long, global = true)]
    pub allow_other_build: bool,

    /// A redis-server for the redis_hll study (default: it starts its own when redis-server is installed)
    #[arg(long, global = true, value_name = "redis://HOST:PORT")]
    pub redis_url: Option<String>,

    /// Continue an interrupted run from its journals (finished trials are not run again)
    #[arg(long, global = true)]
    pub resume: bool,

    /// Run only shard I of N (0 <= I < N) and write a shard file for `merge`
    #[arg(long, global = true, value_name = "I/N")]
    pub shard: Option<String>,

    /// Where the study specs live
    #[arg(long, global = true, value_name = "DIR", default_value = "experiments")]
    pub experiments: PathBuf,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every study in the experiments directory, one line each
    #[command(
        after_help = "Examples:\n  sketchlab list\n  sketchlab list --hashes\n  sketchlab list --kinds"
    )]
    List {
        /// List the hash strategies instead: width, keyed or not, seed use, source
        #[arg(long, conflicts_with = "kinds")]
        hashes: bool,
        /// List the experiment kinds instead: parameters (type, range, default) and columns
        #[arg(long)]
        kinds: bool,
    },
    /// Hash keys with a strategy and print `key<TAB>hash-as-hex` (full width)
    #[command(
        after_help = "Examples:\n  sketchlab hash --strategy murmur3_x64_128 apple banana\n  sketchlab hash --strategy murmur64a --hex 7265646973\n  printf 'a\\nb\\n' | sketchlab hash --strategy xxh3 --seed 42\n\nThe seed is the global --seed (default: the strategy's default, 0 or Redis's 0xadc83b19 for murmur64a).\n128-bit values print as one number, high half first (mmh3.hash128 / xxh3_128_hexdigest order)."
    )]
    Hash {
        /// Strategy name (see `sketchlab list --hashes`)
        #[arg(long, short)]
        strategy: String,
        /// Keys are hex-encoded bytes
        #[arg(long)]
        hex: bool,
        /// Read the keys from a key file (gzip read transparently), one output line per record
        #[arg(long, value_name = "FILE", conflicts_with_all = ["keys", "hex"])]
        file: Option<PathBuf>,
        /// The key file's format: lines (each line's bytes), hex (each line hex-decoded) or u64le (8-byte records)
        #[arg(long, default_value = "lines", requires = "file")]
        format: String,
        /// Keys to hash; read from stdin, one per line, when none are given
        keys: Vec<String>,
    },
    /// Check a key file against every hash strategy, or expand an attack's generator line
    #[command(subcommand)]
    Keys(KeysWhat),
    /// Estimate the distinct count of keys read from stdin (one per line)
    #[command(
        after_help = "Examples:\n  seq 1 100000 | sketchlab estimate hll\n  seq 1 100000 | sketchlab estimate hll --estimator all --p 12\n  seq 1 100000 | sketchlab estimate hll --redis        # what redis-cli PFADD + PFCOUNT would answer\n  sketchlab estimate hll --file data/words.txt         # a key file (--format lines|hex|u64le; gzip read transparently)\n\nA key is the bytes of its line without the line ending (\\n or \\r\\n), as redis-cli sends them; --hex reads hex-encoded keys."
    )]
    Estimate {
        #[command(subcommand)]
        what: EstimateWhat,
    },
    /// Run one study: a spec file, or the name of a study in experiments/
    #[command(
        after_help = "Examples:\n  sketchlab run experiments/bloom_fpr.toml\n  sketchlab run bloom_overfill --quick --threads 2 --out /tmp/r"
    )]
    Run {
        /// A spec path (experiments/x.toml) or a study name (x)
        #[arg(value_name = "FILE|NAME")]
        target: String,
    },
    /// Run every study, then write OUT/claims.csv and OUT/REPORT.md
    #[command(
        after_help = "Examples:\n  sketchlab reproduce --quick\n  sketchlab reproduce --out reports"
    )]
    Reproduce {
        /// After the run, keep its results as baseline NAME (OUT/baselines/NAME), as criterion's --save-baseline
        #[arg(long, value_name = "NAME")]
        save_baseline: Option<String>,
        /// After the run, compare it with baseline NAME (saved earlier) and print the changes
        #[arg(long, value_name = "NAME")]
        baseline: Option<String>,
        /// With --baseline: exit 1 when one of these metrics got worse beyond its noise (e.g. fpr,ns_per_op)
        #[arg(
            long,
            value_delimiter = ',',
            value_name = "METRICS",
            requires = "baseline"
        )]
        fail_on: Vec<String>,
    },
    /// Compare two runs: per study and metric, what moved beyond its own
    /// uncertainty, and claims whose verdict changed
    #[command(
        after_help = "Examples:\n  sketchlab compare reports reports/quick\n  sketchlab compare git:HEAD~5 reports --fail-on fpr_measured,query_ns_negative\n  sketchlab compare /tmp/old /tmp/new --format json\n\nOLD and NEW are output directories, or git:REV (the reports/ committed at REV) or git:REV:PATH.\nA proportion moved when a two-proportion z test gives |z| > 3.29; an interval (a mean, a timed median) when the two 95% intervals are disjoint; a count when it changed.\nExit 1 when a --fail-on metric got worse; 0 otherwise."
    )]
    Compare {
        old: String,
        new: String,
        /// Exit 1 when one of these metrics (column names, e.g. fpr_measured) moved and got worse
        #[arg(long, value_delimiter = ',', value_name = "METRICS")]
        fail_on: Vec<String>,
        /// md (Markdown) or json
        #[arg(long, default_value = "md")]
        format: String,
    },
    /// Print the claims ledger of a run (OUT/claims.csv) as a table, by document section
    #[command(
        after_help = "Examples:\n  sketchlab claims\n  sketchlab claims --verdict does-not-hold\n  sketchlab claims --document 002 --out reports/quick\n  sketchlab claims --strict\n\nReads OUT/claims.csv (default reports/); run `sketchlab reproduce` first. Each claim's verdict is its intended reading; its caveats (literal or edge readings) follow it and are counted apart, unless --strict."
    )]
    Claims {
        /// Only claims with this verdict
        #[arg(long, value_enum)]
        verdict: Option<crate::vocab::Verdict>,
        /// Only claims of this document
        #[arg(long, value_enum)]
        document: Option<crate::vocab::Document>,
        /// The literal view: every caveat (a literal or edge reading) is a
        /// row and a verdict of its own, counted with the intended readings
        #[arg(long)]
        strict: bool,
    },
    /// A design review: the essay's five questions answered for your own numbers
    #[command(subcommand)]
    Design(Design),
    /// What a study will need before it runs: trials, memory against the machine, and time
    #[command(
        after_help = "Examples:\n  sketchlab plan bloom_fpr\n  sketchlab plan experiments/hll_range.toml --quick --threads 2\n  sketchlab plan key_size --json\n\nMemory is estimated from the parameters alone; the time from timing the study's cheapest trials at up to five sizes of work, with the range 90% of the quick studies fell within (docs/plan-accuracy.md). `run` and `reproduce` print the same plan first (without the calibration) and refuse, exit 2, a run that does not fit in the memory available."
    )]
    Plan {
        /// A spec path (experiments/x.toml) or a study name (x)
        #[arg(value_name = "FILE|NAME")]
        target: String,
        /// Print the plan as JSON
        #[arg(long)]
        json: bool,
    },
    /// Rebuild summaries, plots, claims.csv and REPORT.md from a run's files alone
    #[command(
        after_help = "Examples:\n  sketchlab report reports\n  sketchlab report /tmp/quick\n\nReads OUT_DIR/run.json and each study's results.csv, spec.toml and manifest.json; writes nothing else."
    )]
    Report {
        /// A folder `reproduce` (or `merge`) wrote
        #[arg(value_name = "OUT_DIR")]
        dir: PathBuf,
    },
    /// Assemble the shard files of `--shard I/N` runs into one run's results and report (in --out)
    #[command(
        after_help = "Examples:\n  sketchlab reproduce --quick --shard 0/3 --out /shared/s0   # and 1/3, 2/3\n  sketchlab merge /shared/s0 /shared/s1 /shared/s2 --out /shared/merged\n\nEvery shard must be complete and from the same specs, seed and --quick; every trial must appear exactly once (else exit 2, nothing written)."
    )]
    Merge {
        /// Folders holding shard runs (a shard's folder may also hold others' shards)
        #[arg(value_name = "OUT_DIRS", required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Derive HyperLogLog++'s bias tables by simulation and write them (with how they were made)
    #[command(
        name = "hllpp-bias",
        after_help = "Examples:\n  sketchlab hllpp-bias                      # rewrites data/hllpp_bias.csv (the committed table)\n  sketchlab hllpp-bias --trials 200 /tmp/b.csv\n\nThe seed is the global --seed (default 2013). The committed table is compiled into sketchlab; a test regenerates part of it and compares."
    )]
    HllppBias {
        /// Simulated sketches per precision (at most 100,000: each keeps its
        /// points in memory until the table is written)
        #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        trials: u64,
        /// Where to write the table
        #[arg(value_name = "FILE", default_value = "data/hllpp_bias.csv")]
        file: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub enum KeysWhat {
    /// What your keys do to each hash: distinct values vs the birthday
    /// expectation, bucket chi-square at 2^10/2^16/2^20, the longest linear
    /// probe, each beside a random function's
    #[command(
        after_help = "Examples:\n  sketchlab keys check data/words.txt\n  seq 1 1000000 > ids.txt && sketchlab keys check ids.txt --hashes fxhash,crc32,xxh3\n  sketchlab keys check ids.u64 --format u64le --out /tmp/kc   # also writes CSV and charts\n\nDuplicate keys are dropped (and counted). With --out, the run is a study (OUT/keys_check: results.csv, charts, manifest); without it only the table is printed."
    )]
    Check {
        /// The key file (gzip read transparently)
        file: PathBuf,
        /// lines (each line's bytes), hex (each line hex-decoded) or u64le (8-byte records)
        #[arg(long, default_value = "lines")]
        format: String,
        /// Comma-separated strategies (default: every one, `sketchlab list --hashes`)
        #[arg(long, value_delimiter = ',')]
        hashes: Vec<String>,
        /// Hash at most this many distinct keys (the file's first, in a seeded order)
        #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        n: u64,
    },
    /// Print every key of an attack study's keys file as hex, one per line,
    /// generator lines regenerated (and checked against their digest)
    #[command(
        after_help = "Examples:\n  sketchlab keys expand reports/hll_attack/keys.txt --trial 1ced0fe8a859e884 | sketchlab estimate hll --redis --hex\n  sketchlab keys expand reports/bloom_attack/keys.txt > all-keys.hex"
    )]
    Expand {
        /// OUT/<study>/keys.txt (or keys.txt.xz when large)
        file: PathBuf,
        /// Only this trial's keys (its id, as in the file's `# trial ID` lines)
        #[arg(long, value_name = "ID")]
        trial: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum EstimateWhat {
    /// HyperLogLog distinct count
    Hll {
        /// Precision: 2^p registers (4..=18)
        #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(4..=18))]
        p: u32,
        /// raw, linear_counting, hllpp, ertl, hip, or all
        #[arg(long, default_value = "ertl")]
        estimator: String,
        /// Redis-compatible mode (MurmurHash64A seed 0xadc83b19, p = 14, PFCOUNT's rounding)
        #[arg(long, conflicts_with_all = ["p", "strategy"])]
        redis: bool,
        /// Hash strategy (see `sketchlab list --hashes`); the global --seed seeds it
        #[arg(long, short, default_value = "xxh3_64")]
        strategy: String,
        /// Keys are hex-encoded bytes
        #[arg(long)]
        hex: bool,
        /// Read the keys from a key file (gzip read transparently) instead of stdin
        #[arg(long, value_name = "FILE", conflicts_with = "hex")]
        file: Option<PathBuf>,
        /// The key file's format: lines (each line's bytes), hex (each line hex-decoded) or u64le (8-byte records)
        #[arg(long, default_value = "lines", requires = "file")]
        format: String,
    },
}

impl Cli {
    /// `--out`, or its default: `reports/quick` with `--quick`, else `reports`.
    pub fn out_dir(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| {
            if self.quick {
                PathBuf::from("reports/quick")
            } else {
                PathBuf::from("reports")
            }
        })
    }
}

/// A number as a person writes it in a design question: `1e6`, `5,000,000`,
/// `5_000_000` (separators between digits) or `1%` (a hundredth).
pub fn number(s: &str) -> crate::error::Result<f64> {
    use crate::error::Error;
    let t = s.trim();
    let (body, scale) = match t.strip_suffix('%') {
        Some(b) => (b.trim_end(), 0.01),
        None => (t, 1.0),
    };
    let chars: Vec<char> = body.chars().collect();
    let mut plain = String::with_capacity(body.len());
    for (i, &c) in chars.iter().enumerate() {
        let between_digits = i > 0
            && i + 1 < chars.len()
            && chars[i - 1].is_ascii_digit()
            && chars[i + 1].is_ascii_digit();
        match c {
            ',' | '_' if between_digits => {}
            ',' | '_' => {
                return Err(Error::input(format!(
                    "{s:?}: a separator belongs between digits"
                )));
            }
            c => plain.push(c),
        }
    }
    plain.parse::<f64>().map(|v| v * scale).map_err(|_| {
        Error::input(format!(
            "{s:?} is not a number (write 1e6, 5,000,000 or 1%)"
        ))
    })
}

#[cfg(test)]
mod number_tests {
    use super::number;

    #[test]
    fn design_numbers_take_separators_and_percentages() {
        assert_eq!(number("5,000,000").ok(), Some(5e6));
        assert_eq!(number("5_000_000").ok(), Some(5e6));
        assert_eq!(number("1e6").ok(), Some(1e6));
        assert_eq!(number("1%").ok(), Some(0.01));
        assert_eq!(number("0.5 %").ok(), Some(0.005));
        assert!(number(",5").is_err() && number("5,").is_err() && number("1%%").is_err());
        assert!(
            number("five")
                .unwrap_err()
                .to_string()
                .contains("not a number")
        );
    }
}
