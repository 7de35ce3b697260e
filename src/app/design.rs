//! `sketchlab design`: where a review's reference run and output go; the
//! review itself (its inputs are the flags' `Args` structs) is `crate::design`'s.

use crate::cli::Design;
use crate::design as review;
use crate::error::Result;
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
    // one writer per folder, as for runs, taken once the review is made (bad
    // input writes nothing); the lock creates the folder, and one that cannot
    // be created is an I/O failure, exit 1
    let lock = || crate::experiment::lock::OutLock::acquire(&out, true);
    let mut summary;
    let (path, json) = match d {
        Design::Filter(args) => {
            let r = review::filter::filter(args, &reference)?;
            summary = format!("{}\n{}", r.answer, r.recommendation.summary());
            if !reference.is_file() {
                summary += &format!(
                    "  left out: the attack results of question 5 (no reference run at {}; pass --reference FILE)\n",
                    reference.display()
                );
            }
            let _lock = lock()?;
            review::write(r, args.common.format, &out)?
        }
        Design::Cardinality(args) => {
            let r = review::cardinality::cardinality(args, &reference)?;
            summary = format!("{}\n{}", r.answer, r.recommendation.summary());
            if !reference.is_file() {
                summary += &format!(
                    "  left out: the range of n and the attack results of questions 3 and 5 (no reference run at {}; pass --reference FILE)\n",
                    reference.display()
                );
            }
            let _lock = lock()?;
            review::write(r, args.common.format, &out)?
        }
        Design::Frequency(args) => {
            let r = review::frequency::frequency(args, &reference)?;
            summary = format!("{}\n", r.answer);
            let _lock = lock()?;
            review::write(r, args.common.format, &out)?
        }
        Design::HeavyHitters(args) => {
            let r = review::heavy::heavy_hitters(args, &reference)?;
            summary = format!("{}\n{}", r.answer, review::heavy::summary(&r));
            let _lock = lock()?;
            review::write(r, args.common.format, &out)?
        }
        Design::Quantiles(args) => {
            let r = review::quantiles::quantiles(args, &reference)?;
            summary = format!("{}\n{}", r.answer, review::quantiles::summary(&r));
            let _lock = lock()?;
            review::write(r, args.common.format, &out)?
        }
    };
    match json {
        Some(j) => print!("{j}"),
        None if !quiet => println!(
            "{}",
            crate::export::text::terminal(&format!("{summary}design review -> {}", path.display()))
        ),
        None => {}
    }
    Ok(())
}

fn common_args(d: &Design) -> &crate::cli::ReviewArgs {
    match d {
        Design::Filter(a) => &a.common,
        Design::Cardinality(a) => &a.common,
        Design::Frequency(a) => &a.common,
        Design::HeavyHitters(a) => &a.common,
        Design::Quantiles(a) => &a.common,
    }
}

/// The review cites the reference run's claims: a missing, unreadable or
/// foreign file is bad input (exit 2), not a review with its table missing.
fn check_reference(path: &Path) -> Result<()> {
    use crate::error::Error;
    let text = crate::input::read_string(path, crate::input::table_bound())
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
