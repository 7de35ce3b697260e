//! `sketchlab design`: the CLI's side of a design review (the figures are
//! `experiment::design`'s, the rendering `report::design`'s).

use crate::error::Result;
use std::path::Path;

/// `sketchlab design …`: write the review; print its path (JSON: the review).
pub(super) fn design(d: &crate::cli::Design, out: Option<&Path>, quiet: bool) -> Result<()> {
    let crate::cli::Design::Filter {
        n_expected,
        n_max,
        fpr,
        hit_rate,
        qps,
        key_bytes,
        seed_policy,
        format,
        reference,
    } = d;
    let inputs = crate::report::design::FilterInputs {
        n_expected: *n_expected,
        n_max: *n_max,
        fpr: *fpr,
        hit_rate: *hit_rate,
        qps: *qps,
        key_bytes: *key_bytes,
        seed_policy: seed_policy.clone(),
    };
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| "reports/design".into());
    let (path, json) = crate::experiment::design::write_filter(&inputs, format, &out, reference)?;
    match json {
        Some(j) => print!("{j}"),
        None if !quiet => println!("design review -> {}", path.display()),
        None => {}
    }
    Ok(())
}
