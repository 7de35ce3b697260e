//! What `report` and `compare` check before they trust a study's folder
//! (#40): they fail closed. A folder whose rows were truncated, deleted,
//! duplicated, reordered or spliced in from another run, whose spec.toml
//! was edited after the run, or whose counts cannot be counts, is refused
//! (exit 2, naming the file and the row) instead of being reported or
//! compared as if it were a run.

use super::grid;
use super::spec::Spec;
use crate::error::{Error, Result};
use crate::export::Manifest;
use crate::table::{Is, Part, Table, Value};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Checks a study's spec source and rows against its manifest: the spec's
/// hash, the row count, every row's trial a trial of the spec at the
/// manifest's seed (its id), rows in trial order with one
/// trial's rows together, every trial of a fixed-size grid present, no NaN
/// cell, and every proportion's count k with 0 ≤ k ≤ n.
pub fn study(dir: &Path, manifest: &Manifest, spec: &Spec, results: &Table) -> Result<()> {
    let hash = &spec.source_hash;
    if *hash != manifest.spec_xxh3_64 {
        return Err(Error::file(
            &dir.join("spec.toml"),
            format!(
                "its hash is {hash}, its manifest's {}: the spec was edited after the run (rerun the study)",
                manifest.spec_xxh3_64
            ),
        ));
    }
    let rows_file =
        crate::export::output_path(dir, "results.csv").unwrap_or_else(|| dir.join("results.csv"));
    let bad = |row: usize, what: String| Error::file(&rows_file, format!("row {row}: {what}"));
    if results.rows.len() != manifest.rows {
        return Err(Error::file(
            &rows_file,
            format!(
                "holds {} rows; its manifest says {} (a truncated, edited or mixed file)",
                results.rows.len(),
                manifest.rows
            ),
        ));
    }
    if let Some(i) = spec.kind.unreadable_row(results) {
        return Err(bad(
            i + 2,
            format!(
                "does not read as a {} row (a column empty where a value is required, or of another type)",
                spec.kind.name()
            ),
        ));
    }
    let trials = grid::expand(
        spec.kind.name(),
        spec.grid(manifest.quick),
        spec.except(manifest.quick),
        spec.max_replicates(manifest.quick),
        manifest.seed,
    );
    let by_id: HashMap<u64, usize> = trials.iter().map(|t| (t.id, t.index)).collect();
    let id_col = results.col("trial_id");
    let mut last: Option<(usize, u64)> = None;
    let mut seen = HashSet::new();
    for (i, r) in results.rows.iter().enumerate() {
        // row 1 is the header
        let n = i + 2;
        let text = r[id_col].to_string();
        let id = u64::from_str_radix(&text, 16)
            .map_err(|_| bad(n, format!("trial_id {text:?} is not 16 hex digits")))?;
        let Some(&index) = by_id.get(&id) else {
            return Err(bad(
                n,
                format!(
                    "trial {text} is not a trial of this spec (rows from another study or run)"
                ),
            ));
        };
        // a trial's rows are together, and trials come in trial order
        let starts_a_trial = last.is_none_or(|(_, prev)| prev != id);
        let out_of_order = last.is_some_and(|(prev_index, _)| index <= prev_index);
        if starts_a_trial && (out_of_order || !seen.insert(id)) {
            return Err(bad(
                n,
                format!(
                    "trial {text} is out of trial order or repeated (rows duplicated or interleaved)"
                ),
            ));
        }
        last = Some((index, id));
        for (c, v) in results.columns.iter().zip(r) {
            if matches!(v, Value::Float(x) if x.is_nan()) {
                return Err(bad(
                    n,
                    format!("{} is NaN (sketchlab writes a number or nothing)", c.name),
                ));
            }
        }
    }
    // a fixed-size study ran every trial of its grid (a sequential one may
    // stop settings short of their budget)
    if spec.sequential.is_none()
        && let Some(t) = trials.iter().find(|t| !seen.contains(&t.id))
    {
        return Err(Error::file(
            &rows_file,
            format!(
                "trial {:016x} (replicate {} of {}) has no row (rows deleted or replaced)",
                t.id,
                t.replicate,
                t.params
                    .0
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    // every declared proportion's successes against its trials, found
    // through the columns' parts (the schema), not by name
    for (k_col, c) in results.columns.iter().enumerate() {
        let Some(part) = c.part.filter(|p| p.is == Is::K) else {
            continue;
        };
        let n_part = Some(Part { is: Is::N, ..part });
        let Some(n_col) = results.columns.iter().position(|x| x.part == n_part) else {
            continue;
        };
        let n_name = &results.columns[n_col].name;
        for (i, r) in results.rows.iter().enumerate() {
            let (k, n) = (r[k_col].as_f64(), r[n_col].as_f64());
            if let (Some(k), Some(n)) = (k, n)
                && !(0.0 <= k && k <= n)
            {
                return Err(bad(
                    i + 2,
                    format!(
                        "{} = {k} with {n_name} = {n}: a count must lie in [0, n]",
                        c.name
                    ),
                ));
            }
        }
    }
    Ok(())
}
