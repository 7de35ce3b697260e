//! What the report shows of a kind's rows: the presentation seam.
//!
//! A kind (`crate::experiment::kinds`) is its measurement: parameters, a
//! typed row, `run` and `footprint`. Its [`Present`] impl, one file per kind
//! under this folder by the same family path, turns result tables into what
//! a reader sees: the view (`<kind>.toml`: the same `[[chart]]` tables a
//! spec may hold, `[[heatmap]]`s, the section's `[table]` and `[[reading]]`s:
//! [`crate::plot::declare`]), the prose no template can carry, and an
//! attack's lines of "What the seed buys you". Both halves
//! are tested alone: a kind's rows without drawing anything, a presentation
//! from a table of rows without running a trial.

mod attack;
mod bloom;
pub mod common;
mod filters;
mod hashing;
mod hll;
mod own_cardinality;
mod own_filter;
mod own_frequency;
mod sketches;
mod speed;

use crate::experiment::study::Study;
use crate::plot::Chart;
use crate::report::{Section, SeedRow};
use crate::table::Tables;

/// A kind's presentation: everything drawn from its result tables alone.
pub trait Present: Study {
    /// The kind's view as data, usually `include_str!("<kind>.toml")`: its
    /// charts (`[[chart]]`), its section's `[table]` and the `[[reading]]`
    /// sentences that only format numbers ([`crate::plot::declare`]).
    const VIEW: &'static str = "";
    /// (measured, theory) column pairs: every row whose theory value lies
    /// outside the measured interval is reported in the reading, never left
    /// in a table.
    const THEORY: &'static [(&'static str, &'static str)] = &[];
    /// The essay's lost table this kind's regenerated table reconstructs
    /// (its title in the report's "The essay's lost tables"), if any.
    const RECONSTRUCTS: Option<&'static str> = None;
    /// Charts no declaration can express, drawn by code (after the declared ones).
    fn charts(&self, _t: &Tables) -> Vec<Chart> {
        Vec::new()
    }
    /// The report section: its table and the kind's reading. Defaults to
    /// the declared `[table]` and `[[reading]]`s of [`Present::VIEW`]; a
    /// kind overrides it for prose no template can carry.
    fn section(&self, t: &Tables) -> Section {
        declared_section(Self::VIEW, t)
    }
    /// Attack kinds: their lines of the report's "What the seed buys you".
    fn seed_rows(&self, _t: &Tables) -> Vec<SeedRow> {
        Vec::new()
    }
}

/// The section a view declares: its `[table]` (empty when none) and its
/// readings, one after another.
pub fn declared_section(view: &str, t: &Tables) -> Section {
    let decl = crate::plot::declare::parse_section(view)
        .unwrap_or_else(|e| panic!("bug: a kind's section declaration: {e}"));
    Section {
        table: decl.table.as_ref().map(|d| d.render(t)).unwrap_or_default(),
        reading: decl.reading(t),
    }
}

/// The `[table]` a view declares (empty when none), for a section whose
/// reading is still written by code.
pub fn declared_table(view: &str, t: &Tables) -> crate::table::Table {
    declared_section(view, t).table
}
