//! Parsing and validating `experiments/*.toml`. Everything is checked before
//! anything runs: an invalid spec writes nothing.

use super::grid::Except;
use super::kinds::{self, Kind};
use super::params::Value;
use super::view::View;
use crate::error::{Error, Result};
pub use crate::report::ledger::{Basis, Check, Claim, ClaimType, Quantity, Reading, Scale, Source};

mod charts;
mod claims;
mod feasible;
mod grids;

use claims::RawClaim;
use grids::{Grids, checked, grids};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    name: String,
    kind: String,
    description: String,
    seed: u64,
    grid: toml::Table,
    #[serde(default)]
    quick: Option<toml::Table>,
    #[serde(default, rename = "claim")]
    claims: Vec<RawClaim>,
    #[serde(default)]
    sequential: Option<RawSequential>,
    #[serde(default, rename = "chart")]
    charts: Vec<toml::Value>,
}

/// `[sequential]`: add replicates while a claim is undecided.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSequential {
    claims: Vec<String>,
    batch: u32,
    budget: u32,
    #[serde(default)]
    quick_budget: Option<u32>,
}

/// Sequential sampling (`[sequential]`): each setting starts with the
/// grid's replicates and gains `batch` more while any of `claims` is
/// inconclusive on that setting's own rows, up to `budget` replicates.
/// The rule reads only the setting's rows, so it stops at the same place at
/// any thread count and in any shard (a setting's replicates share a shard).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequential {
    pub claims: Vec<String>,
    pub batch: u32,
    pub budget: u32,
    pub quick_budget: u32,
}

/// The largest spec file read (the biggest in experiments/ is a few KB).
pub const MAX_SPEC_BYTES: u64 = 1 << 20;

/// The longest study name (it names a folder and appears in every message).
pub const MAX_NAME_CHARS: usize = 64;

/// A kind outside the registry and the view that shows it ([`Spec::parse_for`]).
pub type Own = (&'static dyn Kind, &'static dyn View);

/// A validated study.
#[derive(Clone)]
pub struct Spec {
    pub path: PathBuf,
    /// The spec file's text (copied beside the results, so a report can be rebuilt from them).
    pub source: String,
    pub source_hash: String,
    pub name: String,
    pub kind: &'static dyn Kind,
    /// What the report shows of the kind's tables (registered apart from
    /// the kind, under its name: [`crate::experiment::view::VIEWS`]).
    pub view: &'static dyn View,
    pub description: String,
    pub seed: u64,
    /// Each declared parameter with its (validated) values, in the kind's order.
    pub grid: Vec<(&'static str, Vec<Value>)>,
    /// The grid with `[quick]` overrides applied.
    pub quick_grid: Vec<(&'static str, Vec<Value>)>,
    /// The settings each grid skips (`except`; [grid], [quick]).
    pub except: [Except; 2],
    /// Independent trials per setting (`grid.replicates`, default 1).
    pub replicates: u32,
    pub quick_replicates: u32,
    pub claims: Vec<Claim>,
    pub sequential: Option<Sequential>,
    /// `[[chart]]`: charts this study adds to (or replaces among) its kind's.
    pub charts: Vec<crate::plot::declare::ChartDecl>,
    /// The key files its grids draw from (`keys = { file = … }`), loaded.
    pub key_files: Vec<&'static crate::workload::file::KeyFile>,
    /// Values a key file set in place of a kind's default ([grid], [quick]),
    /// each as the sentence the manifest records.
    pub derived: [Option<String>; 2],
}

impl std::fmt::Debug for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spec")
            .field("name", &self.name)
            .field("kind", &self.kind.name())
            .field("grid", &self.grid)
            .finish()
    }
}

impl Spec {
    /// The charts this study draws: its own (its spec's), then its kind's view's.
    pub fn chart_decls(&self) -> Vec<crate::plot::declare::ChartDecl> {
        charts::merged(self.view, &self.charts)
    }

    /// The charts drawn from `tables` (declared, then the kind's code
    /// charts), leaving out those with no point: what a run writes.
    pub fn charts(&self, tables: &kinds::Tables) -> Vec<crate::plot::Chart> {
        let mut out: Vec<crate::plot::Chart> = self
            .chart_decls()
            .iter()
            .flat_map(|d| crate::plot::declare::draw(d, tables, &kinds::curves::curve))
            .collect();
        out.extend(self.view.charts(tables));
        out.retain(|c| !c.series.is_empty());
        out
    }

    /// The study's section of the report: its view's reading and table,
    /// then the rows where theory misses the measured interval.
    pub fn section(&self, tables: &kinds::Tables) -> crate::report::Section {
        self.view.report_section(self.kind, tables)
    }

    /// The matrix figures its view declares, drawn from `tables`.
    pub fn heatmaps(&self, tables: &kinds::Tables) -> Vec<crate::plot::Heatmap> {
        self.view.heatmaps(tables)
    }

    /// What a key file set in place of a default for this run, if anything.
    pub fn derived(&self, quick: bool) -> Option<&str> {
        self.derived[usize::from(quick)].as_deref()
    }

    pub fn grid(&self, quick: bool) -> &[(&'static str, Vec<Value>)] {
        if quick { &self.quick_grid } else { &self.grid }
    }

    /// The settings the run's grid skips.
    pub fn except(&self, quick: bool) -> &Except {
        &self.except[usize::from(quick)]
    }

    pub fn replicates(&self, quick: bool) -> u32 {
        if quick {
            self.quick_replicates
        } else {
            self.replicates
        }
    }

    /// Trials in a run.
    /// The most replicates a setting can take: the sequential budget, else
    /// the grid's replicates (trials are expanded to this many per setting).
    pub fn max_replicates(&self, quick: bool) -> u32 {
        match &self.sequential {
            Some(s) if quick => s.quick_budget,
            Some(s) => s.budget,
            None => self.replicates(quick),
        }
    }

    /// The study's trials at most (all of them, unless sequential sampling
    /// stops a setting early).
    pub fn trials(&self, quick: bool) -> usize {
        super::grid::count(
            self.grid(quick),
            self.except(quick),
            self.max_replicates(quick),
        )
    }

    /// Reads and validates a spec file.
    pub fn load(path: &Path) -> Result<Spec> {
        // a spec is a page of TOML; a huge file is a mistake, not a study
        if let Ok(m) = std::fs::metadata(path)
            && m.len() > MAX_SPEC_BYTES
        {
            return Err(Error::file(
                path,
                format!(
                    "{} bytes: a spec file may be at most {MAX_SPEC_BYTES} bytes (1 MiB)",
                    m.len()
                ),
            ));
        }
        let text = crate::input::read_string(path, MAX_SPEC_BYTES)
            .map_err(|e| Error::file(path, format!("cannot read: {e}")))?;
        Spec::parse(path, &text)
    }

    /// Validates spec text; `path` is used in messages only.
    pub fn parse(path: &Path, text: &str) -> Result<Spec> {
        Spec::parse_with(path, text, None)
    }

    /// Validates spec text for a kind that is not in sketchlab's registry
    /// (a user's own structure through the library), shown by `view`:
    /// `kind = "<its name>"` in the text names it; any registered kind is
    /// still found by name, with its registered view.
    pub fn parse_for(
        path: &Path,
        text: &str,
        kind: &'static dyn Kind,
        view: &'static dyn View,
    ) -> Result<Spec> {
        Spec::parse_with(path, text, Some((kind, view)))
    }

    /// Typed deserialisation, then [`Spec::validate`].
    fn parse_with(path: &Path, text: &str, own: Option<Own>) -> Result<Spec> {
        Spec::validate(path, text, deserialize(path, text)?, own)
    }

    /// Every check across fields, before any trial: the name, the kind, the
    /// grids against the kind's parameters, the claims, `[sequential]`, the
    /// charts, and that the claims can be decided at the planned sizes.
    fn validate(path: &Path, text: &str, raw: RawSpec, own: Option<Own>) -> Result<Spec> {
        let fe =
            |field: &str, value: &str, allowed: &str| Error::field(path, field, value, allowed);

        if raw.name.is_empty()
            || raw.name.len() > MAX_NAME_CHARS
            || !raw
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            return Err(fe(
                "name",
                &format!("{:?}", raw.name),
                &format!("must be 1 to {MAX_NAME_CHARS} lowercase letters, digits and _"),
            ));
        }
        if let Err(why) = crate::export::contain::plain_name(&raw.name) {
            return Err(fe("name", &format!("{:?}", raw.name), &why));
        }
        let own = own.filter(|(k, _)| k.name() == raw.kind);
        let kind = own
            .map(|(k, _)| k)
            .or_else(|| kinds::find(&raw.kind))
            .ok_or_else(|| {
                fe(
                    "kind",
                    &format!("{:?}", raw.kind),
                    &format!("must be one of {}", kinds::names().join(", ")),
                )
            })?;
        let view = own
            .map(|(_, v)| v)
            .or_else(|| crate::experiment::view::of(kind.name()))
            .ok_or_else(|| Error::Bug(format!("kind {} has no view registered", kind.name())))?;
        let Grids {
            grid,
            quick_grid,
            replicates,
            quick_replicates,
            except,
            derived,
        } = grids(path, kind, raw.grid, raw.quick)?;

        let mut claims = claims::validate(path, kind, raw.claims, replicates, quick_replicates)?;
        let sequential = match raw.sequential {
            Some(q) => Some(sequential(
                path,
                q,
                &mut claims,
                [(&grid, replicates), (&quick_grid, quick_replicates)],
            )?),
            None => None,
        };
        let planned = match &sequential {
            Some(q) => q.budget,
            None => replicates,
        };
        claims::check_selections(path, &grid, &except[0], planned, &claims)?;
        let charts = charts::validate(path, kind, &raw.charts, [&grid, &quick_grid])?;
        feasible::check(path, kind, &grid, planned, &claims)?;

        let key_files = key_files(kind, [&grid, &quick_grid]);
        Ok(Spec {
            path: path.to_path_buf(),
            source: text.to_string(),
            source_hash: format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes())),
            name: raw.name,
            kind,
            view,
            description: raw.description,
            seed: raw.seed,
            grid,
            quick_grid,
            except,
            replicates,
            quick_replicates,
            claims,
            sequential,
            charts,
            key_files,
            derived,
        })
    }
}

/// The spec text as typed fields (serde, unknown keys refused); a TOML or
/// type error is one line naming the key and its line.
fn deserialize(path: &Path, text: &str) -> Result<RawSpec> {
    toml::from_str(text).map_err(|e| {
        // toml's message spans lines (with a source excerpt); keep it on one.
        let msg = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
        match e.span() {
            Some(s) => {
                let line = text[..s.start.min(text.len())].matches('\n').count() + 1;
                // Name the key on that line, when there is one.
                let key = text
                    .lines()
                    .nth(line - 1)
                    .and_then(|l| l.split_once('='))
                    .map(|(k, _)| k.trim())
                    .filter(|k| !k.is_empty() && !k.starts_with('['));
                match key {
                    Some(k) => Error::file(path, format!("{k} (line {line}): {msg}")),
                    None => Error::file(path, format!("{msg} (line {line})")),
                }
            }
            // no position (toml's recursion limit): name the most deeply nested line
            None => Error::file(path, format!("{msg} (line {})", deepest_line(text))),
        }
    })
}

/// A grid: each parameter with its values.
type Axes = [(&'static str, Vec<Value>)];

/// Validates `[sequential]` and marks its claims (their notes say how the
/// replicates were chosen).
fn sequential(
    path: &Path,
    raw: RawSequential,
    claims: &mut [Claim],
    grids: [(&Axes, u32); 2],
) -> Result<Sequential> {
    let fe = |field: &str, value: &str, allowed: &str| {
        Error::field(path, &format!("sequential.{field}"), value, allowed)
    };
    if raw.claims.is_empty() {
        return Err(fe("claims", "[]", "must name at least one claim"));
    }
    let (start, quick_start) = (grids[0].1, grids[1].1);
    if start < 2 {
        return Err(fe(
            "claims",
            &format!("{:?}", raw.claims),
            "needs grid.replicates >= 2 (the rule reads the summary over replicates)",
        ));
    }
    if !(1..=100_000).contains(&raw.batch) {
        return Err(fe(
            "batch",
            &raw.batch.to_string(),
            "must be in 1..=100000 (replicates added per round)",
        ));
    }
    if raw.budget < start || raw.budget > 100_000 {
        return Err(fe(
            "budget",
            &raw.budget.to_string(),
            &format!(
                "must be in grid.replicates ({start})..=100000 (replicates per setting at most)"
            ),
        ));
    }
    let quick_budget = raw.quick_budget.unwrap_or(quick_start);
    if quick_budget < quick_start || quick_budget > raw.budget {
        return Err(fe(
            "quick_budget",
            &quick_budget.to_string(),
            &format!(
                "must be in the quick replicates ({quick_start})..=budget ({})",
                raw.budget
            ),
        ));
    }
    for (i, id) in raw.claims.iter().enumerate() {
        let Some(c) = claims.iter_mut().find(|c| &c.id == id) else {
            return Err(fe(
                &format!("claims[{i}]"),
                &format!("{id:?}"),
                "must name a claim of this spec",
            ));
        };
        if c.basis != Basis::Measured || c.check == Check::Report {
            return Err(fe(
                &format!("claims[{i}]"),
                &format!("{id:?}"),
                "must be a measured claim with a verdict (more replicates cannot decide a computed one)",
            ));
        }
        if c.baseline.is_some() {
            return Err(fe(
                &format!("claims[{i}]"),
                &format!("{id:?}"),
                "must be judged within one setting (a baseline reads another setting's rows)",
            ));
        }
        if raw.claims[..i].contains(id) {
            return Err(fe(
                &format!("claims[{i}]"),
                &format!("{id:?}"),
                "is named twice",
            ));
        }
        c.sequential = Some(format!(
            "sequential: {start} replicates per setting, {} more while undecided, at most {}",
            raw.batch, raw.budget
        ));
    }
    for ((g, _), budget, table) in [
        (grids[0], raw.budget, "budget"),
        (grids[1], quick_budget, "quick_budget"),
    ] {
        let n = super::grid::count_checked(g, budget);
        if n > super::grid::MAX_TRIALS {
            return Err(fe(
                table,
                &budget.to_string(),
                &format!(
                    "{n} trials at the budget; a study may have at most {}",
                    super::grid::MAX_TRIALS
                ),
            ));
        }
    }
    Ok(Sequential {
        claims: raw.claims,
        batch: raw.batch,
        budget: raw.budget,
        quick_budget,
    })
}

/// The key files named in either grid, each once, in order of appearance.
fn key_files(
    kind: &'static dyn Kind,
    grids: [&[(&'static str, Vec<Value>)]; 2],
) -> Vec<&'static crate::workload::file::KeyFile> {
    let mut out: Vec<&'static crate::workload::file::KeyFile> = Vec::new();
    for (name, values) in grids.into_iter().flatten() {
        let is_keys = kind
            .params()
            .iter()
            .any(|d| d.name == *name && matches!(d.ty, crate::experiment::params::PType::Keys));
        for f in values
            .iter()
            .filter(|_| is_keys)
            .filter_map(crate::experiment::params::key_file_of)
        {
            if !out.iter().any(|g| std::ptr::eq(*g, f)) {
                out.push(f);
            }
        }
    }
    out
}

/// Cross-parameter checks on every combination the grid produces.
/// The line where `[` / `{` nesting is deepest (strings not told apart: a hint for a message).
fn deepest_line(text: &str) -> usize {
    let (mut depth, mut best, mut line, mut at) = (0i64, -1i64, 1, 1);
    for c in text.chars() {
        match c {
            '[' | '{' => {
                depth += 1;
                if depth > best {
                    best = depth;
                    at = line;
                }
            }
            ']' | '}' => depth -= 1,
            '\n' => line += 1,
            _ => {}
        }
    }
    at
}

/// A selector value for a checkpoint field: a number for a numeric column,
/// a string for a text one.
pub(super) fn key_value(
    path: &Path,
    name: &str,
    f: &super::row::FieldDef,
    item: &toml::Value,
) -> Result<Value> {
    use crate::table::ColType;
    let ty = f.columns()[0].ty;
    let v = Value::from_toml(item);
    match (ty, &v) {
        (ColType::Int | ColType::Float, Some(Value::Int(_) | Value::Float(_)))
        | (ColType::Str, Some(Value::Str(_)))
        | (ColType::Bool, Some(Value::Bool(_))) => Ok(v.expect("matched")),
        _ => Err(Error::field(
            path,
            name,
            &item.to_string(),
            &format!(
                "must be {} (a checkpoint of each trial)",
                match ty {
                    ColType::Int => "an integer",
                    ColType::Float => "a number",
                    ColType::Str => "a string",
                    ColType::Bool => "true or false",
                    ColType::IntOrStr => "an integer or a word",
                }
            ),
        )),
    }
}
