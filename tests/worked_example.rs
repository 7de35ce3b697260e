//! The worked example `src/experiment/kinds/mod.rs` points to: a structure,
//! a study of it with a chart, a reading and a claim, end to end, built from
//! the parts every kind of sketchlab is built from. `cargo test` compiles it
//! and runs it, so it cannot drift from the code.
//!
//! 1. The structure: a Bloom filter in thirty lines, k probes from the
//!    project's hash strategies (in the tree, a structure lives in
//!    `src/structures/` and implements its family's trait).
//! 2. The measurement (`src/experiment/kinds/<family>/<kind>.rs`): the
//!    parameters (`params!`), the row (`row!`: one field per metric, with its
//!    summary aggregation), `run` (one trial, every random draw from `seeds`)
//!    and `footprint`.
//! 3. The view (`src/experiment/view/<family>/<kind>.toml`, registered apart
//!    from the kind in `VIEWS`): the (measured, theory) pairs whose misses the
//!    report lists, the charts, the section's table and the reading, all as
//!    data (a view needs code, `<kind>.rs`, only for prose no template
//!    carries).
//! 4. The study (`experiments/<study>.toml`): the grid, the quick sizes, and
//!    a claim of a document, judged from the rows.
//!
//! In the tree, step 2's kind is registered with one line in `KINDS` and
//! step 3's view with one in `VIEWS`; a kind outside sketchlab (a user's
//! crate) passes itself and its view to [`Spec::parse_for`] instead.

use sketchlab::experiment::kinds::{Footprint, Measure, Tables};
use sketchlab::experiment::params::{Def, HASH, HASH_SEED, HashSeed, PType, ParamDef, Seeds};
use sketchlab::experiment::runner::{RunOptions, run_trials};
use sketchlab::experiment::spec::Spec;
use sketchlab::experiment::view::{Declared, View};
use sketchlab::hashing::{HashStrategy, KeyHasher, StrategyId};
use sketchlab::report::verdict::Verdict;
use sketchlab::stats::Proportion;
use std::path::Path;

// 1. The structure ----------------------------------------------------------

/// m bits, k probes by double hashing of one 128-bit hash of the key.
struct TinyBloom {
    bits: Vec<u64>,
    m: u64,
    k: u32,
    hasher: HashStrategy,
}

impl TinyBloom {
    fn new(m: u64, k: u32, hasher: HashStrategy) -> Self {
        TinyBloom {
            bits: vec![0; m.div_ceil(64) as usize],
            m,
            k,
            hasher,
        }
    }

    fn probes(&self, key: &[u8]) -> impl Iterator<Item = u64> + '_ {
        let (a, b) = self.hasher.hash128(key);
        let b = b | 1;
        (0..self.k as u64).map(move |i| a.wrapping_add(i.wrapping_mul(b)) % self.m)
    }

    fn insert(&mut self, key: &[u8]) {
        let probes: Vec<u64> = self.probes(key).collect();
        for bit in probes {
            self.bits[(bit / 64) as usize] |= 1 << (bit % 64);
        }
    }

    fn ones(&self) -> u64 {
        self.bits.iter().map(|w| w.count_ones() as u64).sum()
    }
}

// 2. The measurement --------------------------------------------------------

struct ExampleFill;

sketchlab::params! {
    pub struct P {
        n: u64 = ParamDef::new("", PType::Int { min: 1, max: 100_000_000 }, Def::Required, "keys inserted"),
        bits_per_key: u64 = ParamDef::new("", PType::Int { min: 1, max: 64 }, Def::Int(10), "m / n"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
    }
}

sketchlab::row! {
    pub struct R {
        /// The optimal integer k for m/n: round(ln 2 · m/n).
        k: u32 [Same],
        bytes: u64 [Same],
        /// Bits set, of m.
        fill_measured: Proportion,
        /// 1 − e^(−kn/m).
        fill_theory: f64 [Same],
    }
}

impl Measure for ExampleFill {
    type P = P;
    type R = R;
    const NAME: &'static str = "example_fill";
    const ABOUT: &'static str = "the fill of a Bloom filter at its optimal k against 1 − e^(−kn/m)";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let m = p.n * p.bits_per_key;
        let k = ((p.bits_per_key as f64) * std::f64::consts::LN_2)
            .round()
            .max(1.0) as u32;
        let mut f = TinyBloom::new(m, k, p.hash_seed.hasher(p.hash, seeds));
        let salt = seeds.derive("keys");
        for i in 0..p.n {
            f.insert(&(salt ^ i).to_le_bytes());
        }
        Ok(R {
            k,
            bytes: m.div_ceil(8),
            fill_measured: Proportion::new(f.ones(), m),
            fill_theory: 1.0 - (-(k as f64) * p.n as f64 / m as f64).exp(),
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let bytes = (p.n * p.bits_per_key).div_ceil(8) as f64;
        Some(Footprint {
            structure_bytes: bytes,
            peak_bytes: bytes,
            work: p.n as f64,
        })
    }
}

// 3. The view --------------------------------------------------------------

/// Data only, so a [`Declared`] view: in the tree, a line in `VIEWS` with
/// `include_str!("example_fill.toml")`.
static VIEW: Declared = Declared {
    kind: "example_fill",
    toml: r#"
theory = [{ measured = "fill_measured", theory = "fill_theory" }]

[[chart]]
name = "fill_vs_bits_per_key"
title = "Fill after n inserts at the optimal k (n = {n})"
x = "bits_per_key"
x_label = "bits per key (m/n)"
y_label = "fraction of bits set"
series = [
    { y = "fill_theory", label = "theory 1 − e^(−kn/m)", style = "line" },
    { y = "fill_measured", label = "measured" },
]
hline = [{ at = 0.5, label = "half full" }]

[table]
columns = ["n", "bits_per_key", "k", "fill_theory", "fill_measured", "fill_measured_lo", "fill_measured_hi"]

[[reading]]
where = { bits_per_key = 10 }
text = "At 10 bits per key and k = {k:raw} the filter is {fill_measured:pct3} full (theory {fill_theory:pct3})."

[[reading]]
text = "Over the {n_rows} sizes the fill runs from {min fill_measured:pct3} to {max fill_measured:pct3}."
"#,
};

// 4. The study ----------------------------------------------------------------

const SPEC: &str = r#"
name = "example_fill"
kind = "example_fill"
description = "The fill of a Bloom filter at its optimal k, 6 to 16 bits per key."
seed = 20261204

[grid]
n = 1_000_000
bits_per_key = [6, 8, 10, 12, 16]

[quick]
n = 50_000

[[claim]]
id = "half_full_at_design_capacity"
document = "000"
quote = "A Bloom filter operating at its design capacity has half its bits set."
documented = 0.5
unit = "fraction of bits set at 10 bits per key, optimal k"
select = { bits_per_key = 10 }
metric = "fill_measured"
theory_metric = "fill_theory"
basis = "measured"
type = "approximation"
quantity = "approx"
note = "at the optimal integer k = 7 the fill is 1 − e^(−0.7) = 50.3%"

[[chart]]
name = "k_by_bits_per_key"
title = "The optimal integer k"
x = "bits_per_key"
y = "k"
"#;

static KIND: ExampleFill = ExampleFill;

#[test]
fn a_kind_built_outside_the_registry_runs_draws_reads_and_judges_its_claim() {
    let spec = Spec::parse_for(Path::new("example_fill.toml"), SPEC, &KIND, &VIEW).unwrap();
    let opts = RunOptions {
        out: "unused".into(),
        quick: true,
        threads: 2,
        seed: None,
        resume: false,
        shard: None,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let results = run_trials(&spec, &opts, &pool).unwrap();
    assert_eq!(results.rows.len(), 5, "one row per bits_per_key");
    let tables = Tables {
        results,
        summary: None,
    };

    // the study's own chart (its spec's), then the kind's declared one
    let charts = spec.charts(&tables);
    let stems: Vec<&str> = charts.iter().map(|c| c.stem.as_str()).collect();
    assert_eq!(stems, ["k_by_bits_per_key", "fill_vs_bits_per_key"]);
    assert_eq!(
        charts[1].title,
        "Fill after n inserts at the optimal k (n = 50000)"
    );
    assert_eq!(charts[1].series.len(), 2);
    assert!(charts[1].series.iter().all(|s| s.points.len() == 5));
    let dir = tempfile::tempdir().unwrap();
    let files = sketchlab::plot::render_all(&charts, &[], dir.path()).unwrap();
    assert_eq!(files.len(), 4, "an SVG and a PNG per chart");
    let svg = std::fs::read_to_string(dir.path().join("fill_vs_bits_per_key.svg")).unwrap();
    assert!(svg.contains("half full"));

    // the declared table and readings, then the theory check of its pair
    assert_eq!(
        VIEW.kind(),
        ExampleFill::NAME,
        "the view names the kind it shows"
    );
    let section = spec.section(&tables);
    assert_eq!(section.table.names()[..3], ["n", "bits_per_key", "k"]);
    assert!(
        section
            .reading
            .starts_with("At 10 bits per key and k = 7 the filter is 50."),
        "{}",
        section.reading
    );
    assert!(section.reading.contains("Over the 5 sizes"));
    assert!(section.reading.contains("Theory check: fill_theory"));

    // the rows read back by field: what view code that still reads
    // results reads, instead of t.f64(r, "fill_measured")
    let typed = sketchlab::experiment::kinds::typed_rows::<ExampleFill>(&tables.results);
    assert_eq!(typed.len(), 5);
    for (p, r) in &typed {
        assert_eq!(r.fill_measured.trials, p.n * p.bits_per_key);
        assert!(
            (r.fill_measured.rate - r.fill_theory).abs() < 0.01,
            "{p:?} {r:?}"
        );
    }

    // the claim, judged from the rows: 50.3% is within ±10% of a half
    let row = sketchlab::report::ledger::evaluate(&spec.claims[0], &spec.name, &tables);
    assert_eq!(row.verdict, Verdict::Holds, "{row:?}");
    let m = row.measured.unwrap();
    assert!((m - 0.5034).abs() < 0.003, "{m}");
}
