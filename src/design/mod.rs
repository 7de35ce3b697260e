//! `sketchlab design`: the figures of a design review, computed from the
//! theory functions the studies test and from what is measured here (an
//! exact set through the counting allocator, a simulated sketch), with the
//! attack studies' results read from a reference run's claims.csv.
//! `report::design` renders them; this module validates the input (bad
//! input: exit 2, nothing written), computes, and writes.
//!
//! * [`filter`]: a filter in front of an authoritative store.
//! * [`cardinality`]: HyperLogLog distinct counts, per group, merged across nodes.
//! * [`frequency`]: a Count-Min sketch over a stream of a given length.
//! * [`heavy`]: the top-k or φ-heavy keys of a stream, under a memory
//!   budget or an error target.
//! * [`quantiles`]: quantiles of a stream to a rank or relative error, merged.

pub mod advice;
pub mod capacity;
pub mod cardinality;
pub mod choice;
pub mod figures;
pub mod filter;
pub mod frequency;
pub mod hazard;
pub mod heavy;
pub mod heavy_measure;
pub mod ladder;
pub mod measure;
pub mod measure_sketch;
pub mod quantile_measure;
pub mod quantiles;
pub mod render;
pub mod sketch_advice;
pub mod streams;

use crate::design::render::{SeedAdvice, Sourced};
use crate::error::{Error, Result};
use crate::plot::Chart;
use crate::vocab::{Format, SeedChoice};
use figures::Figure;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A computed review: what `write` needs to render and store it.
pub trait Review: Serialize {
    /// The file stem: `filter`, `cardinality`, `frequency`.
    const NAME: &'static str;
    /// The HTML page's title.
    const TITLE: &'static str;
    /// The recommendation in one line: the first line of every format.
    fn answer(&self) -> &str;
    fn markdown(&self) -> String;
    fn charts(&self) -> Vec<Chart>;
    /// The chart files written beside the review (SVG names).
    fn set_charts(&mut self, files: Vec<String>);
}

/// A progress line on stderr when stderr is a terminal (a review takes up
/// to its time budget); a pipe or a file gets none, so an error stays the
/// one line on stderr.
pub fn progress(what: &str) {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprintln!("{what}");
    }
}

/// An input error, one line: `design KIND: --flag = value: why`.
fn bad<T>(what: &str, why: String) -> Result<T> {
    Err(Error::Input(format!("design {what} {why}")))
}

/// Every value finite, else the first that is not.
fn finite(kind: &str, values: &[(&str, f64)]) -> Result<()> {
    for (name, v) in values {
        if !v.is_finite() {
            return bad(kind, format!("{name} = {v}: must be a finite number"));
        }
    }
    Ok(())
}

/// `v` within `[lo, hi]`, else one line naming the flag.
fn within(kind: &str, name: &str, v: f64, lo: f64, hi: f64) -> Result<()> {
    if v < lo || v > hi {
        return bad(
            kind,
            format!("{name} = {}: must be in [{}, {}]", num(v), num(lo), num(hi)),
        );
    }
    Ok(())
}

/// A number as a person writes it: 1e-12, not 0.000000000001.
fn num(v: f64) -> String {
    if v != 0.0 && (v.abs() < 1e-4 || v.abs() >= 1e7) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// `v` a share in (0, `hi`] and at least `lo` (what a measurement can
/// resolve), else one line naming the flag.
fn share(kind: &str, name: &str, v: f64, lo: f64, hi: f64) -> Result<()> {
    if !(v > 0.0 && v <= hi) {
        return bad(kind, format!("{name} = {v}: must be in (0, {}]", num(hi)));
    }
    within(kind, name, v, lo, hi)
}

/// `v` strictly inside (0, 1), else one line naming the flag.
fn open_unit(kind: &str, name: &str, v: f64) -> Result<()> {
    if !(v > 0.0 && v < 1.0) {
        return bad(kind, format!("{name} = {v}: must be in (0, 1)"));
    }
    Ok(())
}

/// The measured values of `figures` in the reference run's claims.csv
/// (read and parsed once), as sourced rows; those it lacks (or a missing
/// file) are left out.
fn sourced(reference: &Path, figures: &[Figure]) -> Vec<Sourced> {
    // check_reference refused a reference that cannot be read
    let text =
        crate::input::read_string(reference, crate::input::table_bound()).unwrap_or_default();
    let measured: std::collections::HashMap<String, String> =
        csv::Reader::from_reader(text.as_bytes())
            .records()
            .filter_map(|r| r.ok())
            .map(|r| (r[0].to_string(), r[5].to_string()))
            .collect();
    let from = reference.display();
    figures
        .iter()
        .filter_map(|f| {
            measured.get(f.claim).map(|v| {
                (
                    f.what.to_string(),
                    v.clone(),
                    format!("{from}: {}", f.claim),
                )
            })
        })
        .collect()
}

/// What a seed policy means for a structure fed chosen keys, with the
/// attack studies' results (`attacks`) from `reference`.
fn seed_advice(policy: SeedChoice, reference: &Path, attacks: &[Figure]) -> SeedAdvice {
    let (meaning, verdict) = match policy {
        SeedChoice::Fixed => (
            "a constant seed is part of your code or your dependency's; anyone who reads it can craft keys offline that every instance accepts, and the bounds above then do not apply to keys a user chooses.",
            "With user-chosen keys a keyed hash is required.",
        ),
        SeedChoice::Random => (
            "a per-process random seed of a non-cryptographic hash stops accidental clustering and untargeted flooding, but such a seed is recovered from one observed output, and MurmurHash3's seed-independent multicollisions need no seed at all.",
            "With user-chosen keys a keyed hash is required.",
        ),
        SeedChoice::Keyed => (
            "a keyed PRF (SipHash-1-3) with a per-process key the attacker never sees: crafted keys are random keys to the structure.",
            "The designed error holds against chosen keys.",
        ),
    };
    let mut figures = attacks.to_vec();
    figures.push(figures::NONCRYPTO_SEED_RECOVERABLE);
    let attacks = sourced(reference, &figures);
    SeedAdvice {
        policy: policy.as_str().to_string(),
        meaning: meaning.to_string(),
        verdict: verdict.to_string(),
        attacks,
    }
}

/// Writes `review` as `NAME.<format>` (and its charts) under `out`; returns
/// the file written and, for JSON, the text to print.
pub fn write<R: Review>(
    mut review: R,
    format: Format,
    out: &Path,
) -> Result<(PathBuf, Option<String>)> {
    // a folder that cannot be created (a read-only file system) is an I/O
    // failure, exit 1, not bad input
    crate::export::contain::dir_within(out, Path::new(""))?;
    let files = crate::plot::render_all(&review.charts(), &[], out)?;
    let svgs: Vec<&PathBuf> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    review.set_charts(
        svgs.iter()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect(),
    );
    let (ext, bytes, print) = match format {
        Format::Json => {
            let mut j = serde_json::to_string_pretty(&review).map_err(anyhow::Error::from)?;
            j.push('\n');
            ("json", j.clone().into_bytes(), Some(j))
        }
        Format::Html => {
            let inline = svgs
                .iter()
                .map(|p| crate::report::html::inline_svg(p))
                .collect::<std::io::Result<Vec<String>>>()
                .map_err(|e| Error::file(out, format!("reading a chart: {e}")))?;
            let page = crate::design::render::page_html(R::TITLE, &review.markdown(), &inline);
            ("html", page.into_bytes(), None)
        }
        Format::Md => ("md", review.markdown().into_bytes(), None),
    };
    let path = out.join(format!("{}.{ext}", R::NAME));
    crate::export::write_atomic(&path, &bytes)?;
    Ok((path, print))
}

/// Bytes the global allocator retains for the value `build` returns
/// (`None` when the counting allocator is not installed).
fn retained<T>(build: impl FnOnce() -> T) -> Option<u64> {
    if !crate::metrics::alloc::is_installed() {
        return None;
    }
    let (v, bytes) = crate::metrics::alloc::measure_retained(build);
    drop(v);
    bytes
}

/// Test helper: `check` accepts `base` and refuses, as input errors, each
/// edit of it.
#[cfg(test)]
fn assert_refused<I: Clone + std::fmt::Debug>(
    base: I,
    edits: &[fn(&mut I)],
    check: fn(&I) -> Result<()>,
) {
    for edit in edits {
        let mut i = base.clone();
        edit(&mut i);
        assert!(matches!(check(&i), Err(Error::Input(_))), "{i:?}");
    }
    assert!(check(&base).is_ok());
}

/// The common flags at their defaults, for the reviews' unit tests.
#[cfg(test)]
pub(crate) fn tests_common() -> crate::cli::ReviewArgs {
    crate::cli::ReviewArgs {
        seed_policy: SeedChoice::Fixed,
        prefer: crate::vocab::Prefer::Bytes,
        format: Format::Md,
        reference: None,
    }
}
