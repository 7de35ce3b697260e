//! Experiment kinds, grouped by family (`bloom/`, `hashing/`, …). A kind is
//! its measurement, a [`Measure`]: a typed parameter struct
//! ([`params!`](crate::params)), a typed row ([`row!`](crate::row)), a `run`
//! that measures one trial from its seeds, and a `footprint`, registered in
//! [`KINDS`]. What the report shows of its rows is its view, registered
//! apart in [`VIEWS`](crate::experiment::view::VIEWS) under the kind's name:
//! `<kind>.toml` in the mirror folder under `src/experiment/view/` (theory
//! pairs, charts, section table and readings as data, see
//! [`crate::plot::declare`]), with a `<kind>.rs` only when it needs code. A
//! new kind is its file and one line in each registry.
//!
//! # Adding a structure and a study, end to end
//!
//! `tests/worked_example.rs` is the worked example, compiled and run by
//! `cargo test`: a thirty-line Bloom filter (1), the kind that measures its
//! fill (2: `params!`, `row!`, `run`, `footprint`), its view (3: a
//! declared chart with a reference line, the section's table, two readings,
//! its theory pair), and the study TOML (4: grid, quick sizes, a claim of the
//! chapter and a chart the spec adds), run, drawn, read and judged. A kind
//! in the tree differs only in where its parts live:
//!
//! | part | file |
//! |---|---|
//! | structure | `src/structures/<family>/…` (its family trait: `Membership`, `Cardinality`, …) |
//! | theory | `src/structures/<family>/theory.rs` (a named curve in [`curves`] if a chart draws it) |
//! | measurement | `src/experiment/kinds/<family>/<kind>.rs`, one line in [`KINDS`] |
//! | view | `src/experiment/view/<family>/<kind>.toml`, one line in [`VIEWS`](crate::experiment::view::VIEWS) (and `<kind>.rs` for prose by code) |
//! | study | `experiments/<study>.toml` (claims, extra `[[chart]]`s) |
//!
//! A kind outside the tree (a user's crate) passes itself and its view to
//! [`Spec::parse_for`](crate::experiment::spec::Spec::parse_for) instead of
//! registering.

pub(crate) mod attack;
pub(crate) mod bloom;
pub(crate) mod common;
pub mod curves;
pub(crate) mod filters;
pub mod footprint;
pub(crate) mod hashing;
pub(crate) mod hll;
pub(crate) mod sketches;
pub(crate) mod speed;

pub use super::measure::{Footprint, Measure};
use super::params::{ParamDef, ParamSet, Params, Seeds};
use super::row::{FieldDef, Row};
pub use crate::table::Tables;
use crate::table::{Column, Value};

/// A result table's rows read back as the kind's typed parameters and row
/// (`(p.n, r.fpr_measured.rate)`, not `t.f64(r, "fpr_measured")`): what
/// view code that still reads results reads. Rows the table cannot
/// fill (another kind's table) are left out.
pub fn typed_rows<S: Measure>(t: &crate::table::Table) -> Vec<(S::P, S::R)> {
    // every row was checked readable when its table was loaded
    // (`verify::study`): one that is not is a bug, never a dropped row
    t.rows
        .iter()
        .enumerate()
        .map(|(i, r)| match (S::P::read(t, r), S::R::read(t, r)) {
            (Some(p), Some(row)) => (p, row),
            _ => panic!(
                "bug: row {} of a {} table does not read as its typed row (verify::study checks this on load)",
                i + 2,
                S::NAME
            ),
        })
        .collect()
}

/// A summary table's rows by field: each setting's parameters and its
/// summary row (`Sm`, declared beside the kind's row with `summary Sm`).
pub fn summary_rows<S: Measure, Sm: crate::experiment::row::SummaryRow>(
    t: &crate::table::Table,
) -> Vec<(S::P, Sm)> {
    t.rows
        .iter()
        .filter_map(|r| Some((S::P::read(t, r)?, Sm::read(t, r))))
        .collect()
}

/// A trial whose keys come from a file: the file must hold the distinct
/// keys the trial draws ([`Measure::key_ids`]).
fn check_key_files(
    defs: &[ParamDef],
    p: &Params,
    need: impl Fn() -> Option<u64>,
    kind: &str,
) -> crate::error::Result<()> {
    use crate::experiment::params::PType;
    for d in defs.iter().filter(|d| matches!(d.ty, PType::Keys)) {
        let Some(file) = crate::experiment::params::key_file_of(p.get(d.name)) else {
            continue;
        };
        let Some(need) = need() else {
            return Err(crate::error::Error::invalid(
                d.name,
                format!("kind {kind} cannot draw its keys from a file (a key type name only)"),
            ));
        };
        if need > file.len() {
            // the absent keys are the `queries` (1,000,000 unless the spec
            // sets it): say how many the file leaves for them
            let queries = defs
                .iter()
                .any(|q| q.name == "queries")
                .then(|| p.get("queries").as_f64())
                .flatten()
                .map(|q| q as u64);
            let hint = match queries {
                Some(q) if need - q < file.len() => format!(
                    "; {q} of them are `queries` (absent keys; the kind's default unless the spec sets it): set queries = {} or fewer in [grid] (and [quick]), or use a larger file",
                    file.len() - (need - q)
                ),
                _ => String::new(),
            };
            return Err(crate::error::Error::invalid(
                d.name,
                format!(
                    "key file {} holds {} distinct keys ({} duplicates dropped); this trial draws {need} (kind {kind}: its members and absent keys){hint}",
                    file.path,
                    file.len(),
                    file.duplicates
                ),
            ));
        }
    }
    Ok(())
}

/// The object-safe face of a [`Measure`] the pipeline uses.
pub trait Kind: Sync {
    fn name(&self) -> &'static str;
    fn about(&self) -> &'static str;
    fn params(&self) -> &'static [ParamDef];
    fn fields(&self) -> Vec<FieldDef>;
    fn validate(&self, p: &Params) -> crate::error::Result<()>;
    /// Timing kinds run their trials one at a time, and their rows are
    /// excluded from the byte-identity guarantee (tests check every other kind).
    fn timing(&self) -> bool;
    /// The first row of `t` (0-based) that does not read back as this
    /// kind's typed parameters and row (a column empty where a value is
    /// required, or of another type); `None` when every row reads.
    fn unreadable_row(&self, t: &crate::table::Table) -> Option<usize>;
    /// Rows byte-identical for the same spec and seed (false for timing kinds too).
    fn reproducible(&self) -> bool;
    /// One trial's rows (metric cells only).
    fn run(&self, p: &Params, seeds: Seeds) -> anyhow::Result<Vec<Vec<Value>>>;
    fn footprint(&self, p: &Params) -> Option<Footprint>;
    fn draws(&self, metric: &str, p: &Params) -> Option<f64>;
    /// The distinct keys one trial draws ([`Measure::key_ids`]).
    fn key_ids(&self, p: &Params) -> Option<u64>;
    fn keys(&self, p: &Params, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>>;
    fn min_replicates(&self) -> u32;

    /// The parameter columns of result tables.
    fn param_columns(&self) -> Vec<Column> {
        self.params()
            .iter()
            .map(|d| Column::new(d.name, d.col_type()))
            .collect()
    }

    /// What tells a setting apart: the parameters, then the [`Agg::Key`](super::row::Agg::Key) fields.
    fn key_columns(&self) -> Vec<Column> {
        super::summary::key_columns(&self.param_columns(), &self.fields())
    }

    /// The metric columns (what `list --kinds` shows), in CSV order.
    fn metric_columns(&self) -> Vec<String> {
        self.fields()
            .iter()
            .flat_map(|f| f.columns())
            .map(|c| c.name)
            .collect()
    }

    /// Every column of results.csv described, in header order (what
    /// manifest.json records: see [`crate::export::ColumnSchema`]).
    fn schema(&self) -> Vec<crate::export::ColumnSchema> {
        use crate::experiment::params::PType;
        use crate::export::ColumnSchema;
        let plain = |name: &str, ty: crate::table::ColType, role: &str, about: &str| ColumnSchema {
            name: name.into(),
            ty: ty.word().into(),
            role: role.into(),
            field: name.into(),
            part: "value".into(),
            shape: "scalar".into(),
            agg: None,
            better: None,
            unit: None,
            values: vec![],
            about: about.into(),
        };
        let mut out: Vec<ColumnSchema> = self
            .params()
            .iter()
            .map(|d| ColumnSchema {
                values: match d.ty {
                    PType::Choice(words) | PType::IntOr { words, .. } => {
                        words.iter().map(|w| w.to_string()).collect()
                    }
                    _ => vec![],
                },
                unit: d.unit.map(|u| u.as_str().into()),
                ..plain(d.name, d.col_type(), "parameter", d.help)
            })
            .collect();
        use crate::table::ColType;
        out.push(plain(
            "replicate",
            ColType::Int,
            "id",
            "the replicate's index within its setting",
        ));
        out.push(plain(
            "trial_id",
            ColType::Str,
            "id",
            "the trial's id (hex): a hash of its kind, parameters and replicate; the trial's seed is sketchlab::experiment::grid::trial_seed(the manifest's seed, this id)",
        ));
        let timing = self.timing();
        out.extend(self.fields().iter().flat_map(|f| f.schema(timing)));
        out
    }

    /// The results.csv header: parameters, `replicate`, `trial_id`, metrics.
    fn columns(&self) -> Vec<Column> {
        use crate::table::ColType;
        let mut c = self.param_columns();
        c.push(Column::new("replicate", ColType::Int));
        c.push(Column::new("trial_id", ColType::Str));
        c.extend(self.fields().iter().flat_map(|f| f.columns()));
        c
    }

    /// The summary.csv header.
    fn summary_columns(&self) -> Vec<Column> {
        super::summary::columns(&self.param_columns(), &self.fields())
    }
}

impl<S: Measure> Kind for S {
    fn name(&self) -> &'static str {
        S::NAME
    }
    fn about(&self) -> &'static str {
        S::ABOUT
    }
    fn params(&self) -> &'static [ParamDef] {
        S::P::DEFS
    }
    fn fields(&self) -> Vec<FieldDef> {
        S::R::fields()
    }
    fn unreadable_row(&self, t: &crate::table::Table) -> Option<usize> {
        t.rows
            .iter()
            .position(|r| S::P::read(t, r).is_none() || S::R::read(t, r).is_none())
    }
    fn validate(&self, p: &Params) -> crate::error::Result<()> {
        let typed = S::P::from_params(p);
        Measure::validate(self, &typed)?;
        check_key_files(S::P::DEFS, p, || Measure::key_ids(self, &typed), S::NAME)
    }
    fn timing(&self) -> bool {
        S::TIMING
    }
    fn reproducible(&self) -> bool {
        S::REPRODUCIBLE && !S::TIMING
    }
    fn run(&self, p: &Params, seeds: Seeds) -> anyhow::Result<Vec<Vec<Value>>> {
        let rows = Measure::run_rows(self, &S::P::from_params(p), seeds)?;
        Ok(rows.into_iter().map(Row::cells).collect())
    }
    fn footprint(&self, p: &Params) -> Option<Footprint> {
        Measure::footprint(self, &S::P::from_params(p))
    }
    fn draws(&self, metric: &str, p: &Params) -> Option<f64> {
        Measure::draws(self, &S::P::from_params(p), metric)
    }
    fn key_ids(&self, p: &Params) -> Option<u64> {
        Measure::key_ids(self, &S::P::from_params(p))
    }
    fn keys(&self, p: &Params, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        Measure::keys(self, &S::P::from_params(p), seeds)
    }
    fn min_replicates(&self) -> u32 {
        S::MIN_REPLICATES
    }
}

/// Every kind, by family.
pub static KINDS: &[&dyn Kind] = &[
    &bloom::bloom_fpr::BloomFpr,
    &bloom::bloom_sizing::BloomSizing,
    &bloom::bloom_overfill::BloomOverfill,
    &bloom::hit_rate::HitRate,
    &bloom::lsm_read_path::LsmReadPath,
    &bloom::key_size::KeySize,
    &bloom::double_hashing::DoubleHashing,
    &bloom::doc_examples::DocExamples,
    &filters::counting_bloom::CountingBloomStudy,
    &filters::blocked_bloom::BlockedBloomStudy,
    &filters::scalable_bloom::ScalableBloomStudy,
    &filters::cuckoo::CuckooStudy,
    &filters::filter_frontier::FilterFrontier,
    &hashing::hash_speed::HashSpeed,
    &hashing::hash_quality::HashQuality,
    &hashing::hash_in_structures::HashInStructures,
    &hashing::birthday::Birthday,
    &hashing::key_hashing::KeyHashing,
    &hashing::birthday_bound::BirthdayBound,
    &hll::hll_registers::HllRegisters,
    &hll::cardinality_frontier::CardinalityFrontier,
    &hll::hll_merge::HllMerge,
    &hll::exact_state::ExactState,
    &hll::hll_arithmetic::HllArithmetic,
    &hll::hll_range::HllRange,
    &hll::hll_intersection::HllIntersection,
    &hll::hll_intuition::HllIntuition,
    &hll::hll_scale::HllScale,
    &hll::redis_hll::RedisHllStudy,
    &sketches::count_min::CountMinStudy,
    &sketches::count_min_examples::CountMinExamples,
    &sketches::count_min_peers::CountMinPeers,
    &sketches::heavy_hitters::HeavyHitters,
    &sketches::minhash::MinHashStudy,
    &sketches::minhash_lsh::MinHashLsh,
    &sketches::tdigest::TDigestStudy,
    &sketches::quantile_frontier::QuantileFrontier,
    &attack::multicollision::Multicollision,
    &attack::crc32_forgery::Crc32Forgery,
    &attack::bloom_twins::BloomTwins,
    &attack::bloom_attack::BloomAttack,
    &attack::hashmap_flood::HashmapFlood,
    &attack::count_min_cover::CountMinCover,
    &attack::hll_attack::HllAttack,
    &attack::universal_family::UniversalFamily,
    &attack::seed_recovery::SeedRecovery,
    &attack::runtime_hashes::RuntimeHashes,
    &speed::scaling::Scaling,
    &speed::filter_speed::FilterSpeed,
];

/// Column names the runner adds; no kind may declare them.
pub const RESERVED: &[&str] = &["replicate", "replicates", "trial_id", "seed"];

pub fn find(name: &str) -> Option<&'static dyn Kind> {
    KINDS.iter().copied().find(|k| k.name() == name)
}

pub fn names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name()).collect()
}

/// Every metric name some kind measures (what `--fail-on` may name).
pub fn metric_names() -> std::collections::BTreeSet<String> {
    KINDS
        .iter()
        .flat_map(|k| k.fields())
        .map(|f| f.name.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_unique_columns_and_no_reserved_names() {
        let mut kinds = std::collections::HashSet::new();
        for k in KINDS {
            assert!(kinds.insert(k.name()), "kind {} registered twice", k.name());
            let cols = k.columns();
            let mut seen = std::collections::HashSet::new();
            for c in &cols {
                assert!(
                    seen.insert(&c.name),
                    "{}: column {} twice",
                    k.name(),
                    c.name
                );
            }
            for d in k.params() {
                assert!(!RESERVED.contains(&d.name), "{}: {}", k.name(), d.name);
            }
            for f in k.fields() {
                assert!(!RESERVED.contains(&f.name), "{}: {}", k.name(), f.name);
            }
        }
    }

    /// Every numeric field of every kind (the registered ones and the three
    /// `own` kinds) declares exactly one unit, and no text or bool field
    /// does: a results folder says what each number is counted in.
    #[test]
    fn every_numeric_field_declares_its_unit() {
        use crate::experiment::measure::Measure;
        use crate::experiment::own::kinds::{OwnCardinality, OwnFilter, OwnFrequency};
        use crate::experiment::row::{Row, Shape};
        use crate::table::ColType;
        let own = [
            ("own_filter", <OwnFilter as Measure>::R::fields()),
            ("own_cardinality", <OwnCardinality as Measure>::R::fields()),
            ("own_frequency", <OwnFrequency as Measure>::R::fields()),
        ];
        let all = KINDS.iter().map(|k| (k.name(), k.fields())).chain(own);
        let mut missing = Vec::new();
        for (kind, fields) in all {
            for f in fields {
                let numeric = !matches!(f.shape, Shape::Scalar(ColType::Str | ColType::Bool));
                if numeric != f.unit.is_some() {
                    missing.push(format!("{kind}.{} ({:?})", f.name, f.unit));
                }
                // and it reaches every column of the schema
                for c in f.schema(false) {
                    assert_eq!(c.unit.is_some(), numeric, "{kind}.{}", c.name);
                }
            }
        }
        assert!(
            missing.is_empty(),
            "fields without a unit (or text with one): {missing:?}"
        );
    }

    #[test]
    fn every_numeric_parameter_declares_its_unit() {
        use crate::experiment::measure::Measure;
        use crate::experiment::own::kinds::{OwnCardinality, OwnFilter, OwnFrequency};
        use crate::experiment::params::ParamSet;
        let own = [
            ("own_filter", <OwnFilter as Measure>::P::DEFS),
            ("own_cardinality", <OwnCardinality as Measure>::P::DEFS),
            ("own_frequency", <OwnFrequency as Measure>::P::DEFS),
        ];
        let all = KINDS.iter().map(|k| (k.name(), k.params())).chain(own);
        let mut wrong = Vec::new();
        for (kind, defs) in all {
            for d in defs {
                if d.numeric() != d.unit.is_some() {
                    wrong.push(format!("{kind}.{} ({:?})", d.name, d.unit));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "numeric parameters without a unit (or words with one): {wrong:?}"
        );
        // and the manifest's schema carries it
        let k = KINDS.iter().find(|k| k.name() == "bloom_fpr").unwrap();
        let n = k.schema().into_iter().find(|c| c.name == "n").unwrap();
        assert_eq!(n.unit.as_deref(), Some("count"));
    }
}
