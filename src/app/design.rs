//! `sketchlab design`: the CLI's side of a design review (the figures are
//! `experiment::design`'s, the rendering `report::design`'s).

use crate::cli::Design;
use crate::error::Result;
use crate::experiment::design as review;
use crate::report::design::{CardinalityInputs, FilterInputs, FrequencyInputs};
use std::path::Path;

/// `sketchlab design …`: write the review; print its path (JSON: the review).
pub(super) fn design(d: &Design, out: Option<&Path>, quiet: bool) -> Result<()> {
    // a file the user names must be a claims.csv; without one, the committed
    // run's is used when it is there (the review says when it is not)
    let reference = match &common_args(d).reference {
        Some(path) => {
            check_reference(path)?;
            path.clone()
        }
        None => "reports/claims.csv".into(),
    };
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| "reports/design".into());
    let (path, json) = match d {
        Design::Filter {
            n_expected,
            n_max,
            fpr,
            hit_rate,
            qps,
            key_bytes,
            common,
        } => {
            let inputs = FilterInputs {
                n_expected: *n_expected,
                n_max: *n_max,
                fpr: *fpr,
                hit_rate: *hit_rate,
                qps: *qps,
                key_bytes: *key_bytes,
                seed_policy: common.seed_policy,
            };
            let r = review::filter::filter(&inputs, &reference)?;
            review::write(r, common.format, &out)?
        }
        Design::Cardinality {
            error,
            groups,
            merge_nodes,
            distinct,
            common,
        } => {
            let inputs = CardinalityInputs {
                error: *error,
                groups: *groups,
                merge_nodes: *merge_nodes,
                distinct: *distinct,
                seed_policy: common.seed_policy,
            };
            let r = review::cardinality::cardinality(&inputs, &reference)?;
            review::write(r, common.format, &out)?
        }
        Design::Frequency {
            epsilon,
            delta,
            stream_length,
            merge_nodes,
            zipf_s,
            common,
        } => {
            let inputs = FrequencyInputs {
                epsilon: *epsilon,
                delta: *delta,
                stream_length: *stream_length,
                merge_nodes: *merge_nodes,
                zipf_s: *zipf_s,
                seed_policy: common.seed_policy,
            };
            let r = review::frequency::frequency(&inputs, &reference)?;
            review::write(r, common.format, &out)?
        }
    };
    match json {
        Some(j) => print!("{j}"),
        None if !quiet => println!("design review -> {}", path.display()),
        None => {}
    }
    Ok(())
}

fn common_args(d: &Design) -> &crate::cli::ReviewArgs {
    match d {
        Design::Filter { common, .. }
        | Design::Cardinality { common, .. }
        | Design::Frequency { common, .. } => common,
    }
}

/// The review cites the reference run's claims: a missing, unreadable or
/// foreign file is bad input (exit 2), not a review with its table missing.
fn check_reference(path: &Path) -> Result<()> {
    use crate::error::Error;
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::file(path, format!("--reference: cannot read: {e}")))?;
    let header = crate::report::ledger::CSV_HEADER.join(",");
    if text.lines().next() != Some(header.as_str()) {
        return Err(Error::file(
            path,
            "--reference: not a sketchlab claims.csv (its first line is not the ledger's header)",
        ));
    }
    Ok(())
}
