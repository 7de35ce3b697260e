//! `sketchlab compare OLD NEW` and `reproduce --save-baseline/--baseline`
//! (the comparison itself is [`crate::experiment::compare`]).

use crate::error::{Error, Result};
use crate::experiment::report_stage::RunRecord;
use std::path::Path;

/// A baseline's name: 1 to 64 letters, digits, `-` and `_`.
pub(super) fn baseline_name(name: &str) -> Result<&str> {
    let ok = (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(name)
    } else {
        Err(Error::Input(format!(
            "baseline {name:?}: a name is 1 to 64 letters, digits, - and _"
        )))
    }
}

/// Copies a finished run's results (each study's results, summary,
/// manifest and spec, and claims.csv) to OUT/baselines/NAME, replacing an older one.
pub(super) fn save_baseline_as(out: &Path, name: &str) -> Result<()> {
    use crate::export::contain;
    // never through a link: OUT/baselines and OUT/baselines/NAME are real
    // folders (remove_dir_all does not follow links inside them)
    let to = contain::dir_within(out, Path::new("baselines"))?.join(name);
    let fail = |e: std::io::Error| Error::file(&to, format!("saving the baseline: {e}"));
    contain::check_dir(&to)?;
    if to.exists() {
        std::fs::remove_dir_all(&to).map_err(fail)?;
    }
    let run = RunRecord::read(out)?;
    for study in &run.studies {
        let from = out.join(study);
        let dest = contain::dir_within(&to, Path::new(study))?;
        for f in [
            "manifest.json",
            "spec.toml",
            "results.csv",
            "results.csv.xz",
            "results.csv.gz",
            "summary.csv",
            "summary.csv.xz",
            "summary.csv.gz",
        ] {
            if from.join(f).is_file() {
                std::fs::copy(from.join(f), dest.join(f)).map_err(fail)?;
            }
        }
    }
    for f in ["claims.csv", "run.json"] {
        if out.join(f).is_file() {
            std::fs::copy(out.join(f), to.join(f)).map_err(fail)?;
        }
    }
    println!("baseline {name} -> {}", to.display());
    Ok(())
}

/// `sketchlab compare OLD NEW`.
pub(super) fn compare_command(
    old: &str,
    new: &str,
    fail_on: &[String],
    format: &str,
) -> Result<()> {
    use crate::experiment::compare;
    if !matches!(format, "md" | "json") {
        return Err(Error::Input(format!(
            "--format = {format:?}: must be md or json"
        )));
    }
    let (a, b) = (compare::open_side(old)?, compare::open_side(new)?);
    let c = compare::compare(&a, &b)?;
    for f in fail_on {
        if !c.metrics.iter().any(|m| m.metric == *f) {
            let mut names: Vec<&str> = c.metrics.iter().map(|m| m.metric.as_str()).collect();
            names.sort();
            names.dedup();
            return Err(Error::Input(format!(
                "--fail-on {f}: no such metric in these runs (they have {})",
                names.join(", ")
            )));
        }
    }
    if format == "json" {
        println!(
            "{}",
            serde_json::to_string_pretty(&c).map_err(|e| Error::Other(e.into()))?
        );
    } else {
        print!("{}", c.markdown());
    }
    let worse = c.regressions(fail_on);
    if worse.is_empty() {
        return Ok(());
    }
    Err(Error::Other(anyhow::anyhow!(
        "regressed: {}",
        worse
            .iter()
            .map(|m| format!(
                "{}.{} worse in {} of {} settings",
                m.study, m.metric, m.worse, m.settings
            ))
            .collect::<Vec<_>>()
            .join("; ")
    )))
}
