//! What the report shows of a kind's rows: its view, registered apart from
//! its measurement.
//!
//! A kind ([`crate::experiment::kinds`]) is its measurement alone:
//! parameters, a typed row, `run` and `footprint`, registered in
//! [`KINDS`](crate::experiment::kinds::KINDS). A [`View`], registered here
//! in [`VIEWS`] under the kind's name, turns its result tables into what a
//! reader sees. Most of a view is data, `<kind>.toml` beside its file in
//! this folder: the (measured, theory) pairs whose misses the report lists
//! (`theory`), the essay's lost table it reconstructs (`reconstructs`), its
//! charts (`[[chart]]`, the same tables a spec may hold), `[[heatmap]]`s and
//! the section's `[table]` and `[[reading]]`s ([`crate::plot::declare`]). A
//! view that is only data is a [`Declared`] line in [`VIEWS`]; code is
//! needed only for prose no template can carry (`section`), a chart no
//! declaration can express (`charts`) and an attack's lines of "What the
//! seed buys you" (`seed_rows`). Both halves are tested alone: a kind's
//! rows without drawing anything, a view from a table of rows without
//! running a trial.

mod attack;
mod bloom;
pub mod common;
pub(crate) mod filters;
mod hashing;
mod hll;
pub(crate) mod own_cardinality;
pub(crate) mod own_filter;
pub(crate) mod own_frequency;
mod sketches;
mod speed;

use crate::experiment::kinds::Kind;
use crate::plot::declare::{self, ViewDecl};
use crate::plot::{Chart, Heatmap};
use crate::report::{Section, SeedRow};
use crate::table::Tables;

/// What the report shows of one kind's result tables.
pub trait View: Sync {
    /// The name of the kind whose tables this view shows.
    fn kind(&self) -> &'static str;
    /// The view as data, usually `include_str!("<kind>.toml")`.
    fn toml(&self) -> &'static str;
    /// Charts no declaration can express, drawn by code (after the declared ones).
    fn charts(&self, _t: &Tables) -> Vec<Chart> {
        Vec::new()
    }
    /// The report section: its table and the kind's reading. Defaults to
    /// the declared `[table]` and `[[reading]]`s; a view overrides it for
    /// prose no template can carry.
    fn section(&self, t: &Tables) -> Section {
        declared_section(self.toml(), t)
    }
    /// Attack kinds: their lines of the report's "What the seed buys you".
    fn seed_rows(&self, _t: &Tables) -> Vec<SeedRow> {
        Vec::new()
    }

    /// The view file read: its theory pairs, reconstructed table, charts,
    /// section and heatmaps (a view that does not parse is a bug: the
    /// test of every view parses each).
    fn decl(&self) -> ViewDecl {
        declare::parse_view(self.toml())
            .unwrap_or_else(|e| panic!("bug: kind {}'s view: {e}", self.kind()))
    }
    /// The declared heatmaps, drawn from the results.
    fn heatmaps(&self, t: &Tables) -> Vec<Heatmap> {
        self.decl()
            .heatmaps
            .iter()
            .flat_map(|d| d.draw(&t.results))
            .collect()
    }
    /// The report section: the view's reading, then every row where theory
    /// falls outside the measured 95% interval (with the number expected
    /// by chance). `kind` tells the table's settings apart.
    fn report_section(&self, kind: &dyn Kind, t: &Tables) -> Section {
        let mut sec = self.section(t);
        let table = t.summary.as_ref().unwrap_or(&t.results);
        for p in self.decl().theory {
            sec.reading +=
                &common::theory_misses(table, &kind.key_columns(), &p.measured, &p.theory);
        }
        sec
    }
}

/// A view that is only data: its kind's name and its TOML.
pub struct Declared {
    pub kind: &'static str,
    pub toml: &'static str,
}

impl View for Declared {
    fn kind(&self) -> &'static str {
        self.kind
    }
    fn toml(&self) -> &'static str {
        self.toml
    }
}

/// Every registered kind's view, in the order of
/// [`KINDS`](crate::experiment::kinds::KINDS).
pub static VIEWS: &[&dyn View] = &[
    &bloom::bloom_fpr::BloomFprView,
    &bloom::bloom_sizing::BloomSizingView,
    &bloom::bloom_overfill::BloomOverfillView,
    &Declared {
        kind: "hit_rate",
        toml: include_str!("bloom/hit_rate.toml"),
    },
    &Declared {
        kind: "lsm_read_path",
        toml: include_str!("bloom/lsm_read_path.toml"),
    },
    &bloom::key_size::KeySizeView,
    &bloom::double_hashing::DoubleHashingView,
    &bloom::doc_examples::DocExamplesView,
    &filters::counting_bloom::CountingBloomView,
    &Declared {
        kind: "blocked_bloom",
        toml: include_str!("filters/blocked_bloom.toml"),
    },
    &Declared {
        kind: "scalable_bloom",
        toml: include_str!("filters/scalable_bloom.toml"),
    },
    &filters::cuckoo::CuckooView,
    &filters::filter_frontier::FilterFrontierView,
    &hashing::hash_speed::HashSpeedView,
    &hashing::hash_quality::HashQualityView,
    &hashing::hash_in_structures::HashInStructuresView,
    &hashing::birthday::BirthdayView,
    &hashing::key_hashing::KeyHashingView,
    &Declared {
        kind: "birthday_bound",
        toml: include_str!("hashing/birthday_bound.toml"),
    },
    &hll::hll_registers::HllRegistersView,
    &hll::cardinality_frontier::CardinalityFrontierView,
    &Declared {
        kind: "hll_merge",
        toml: include_str!("hll/hll_merge.toml"),
    },
    &hll::exact_state::ExactStateView,
    &Declared {
        kind: "hll_arithmetic",
        toml: include_str!("hll/hll_arithmetic.toml"),
    },
    &hll::hll_range::HllRangeView,
    &hll::hll_intersection::HllIntersectionView,
    &Declared {
        kind: "hll_intuition",
        toml: include_str!("hll/hll_intuition.toml"),
    },
    &hll::hll_scale::HllScaleView,
    &hll::redis_hll::RedisHllView,
    &sketches::count_min::CountMinView,
    &Declared {
        kind: "count_min_examples",
        toml: include_str!("sketches/count_min_examples.toml"),
    },
    &Declared {
        kind: "count_min_peers",
        toml: include_str!("sketches/count_min_peers.toml"),
    },
    &Declared {
        kind: "heavy_hitters",
        toml: include_str!("sketches/heavy_hitters.toml"),
    },
    &sketches::minhash::MinHashView,
    &Declared {
        kind: "minhash_lsh",
        toml: include_str!("sketches/minhash_lsh.toml"),
    },
    &Declared {
        kind: "tdigest",
        toml: include_str!("sketches/tdigest.toml"),
    },
    &Declared {
        kind: "quantile_frontier",
        toml: include_str!("sketches/quantile_frontier.toml"),
    },
    &Declared {
        kind: "multicollision",
        toml: include_str!("attack/multicollision.toml"),
    },
    &attack::crc32_forgery::Crc32ForgeryView,
    &attack::bloom_twins::BloomTwinsView,
    &attack::bloom_attack::BloomAttackView,
    &attack::hashmap_flood::HashmapFloodView,
    &attack::count_min_cover::CountMinCoverView,
    &attack::hll_attack::HllAttackView,
    &attack::universal_family::UniversalFamilyView,
    &attack::seed_recovery::SeedRecoveryView,
    &attack::runtime_hashes::RuntimeHashesView,
    &speed::scaling::ScalingView,
    &speed::filter_speed::FilterSpeedView,
];

/// The view registered for the kind named `kind`.
pub fn of(kind: &str) -> Option<&'static dyn View> {
    VIEWS.iter().copied().find(|v| v.kind() == kind)
}

/// The section a view declares: its `[table]` (empty when none) and its
/// readings, one after another.
pub fn declared_section(view: &str, t: &Tables) -> Section {
    let decl = declare::parse_section(view)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::kinds::{self, KINDS, curves};

    #[test]
    fn every_kind_has_one_view_and_every_view_one_kind() {
        for k in KINDS {
            let n = VIEWS.iter().filter(|v| v.kind() == k.name()).count();
            assert_eq!(n, 1, "kind {} has {n} views", k.name());
        }
        for v in VIEWS {
            assert!(
                kinds::find(v.kind()).is_some(),
                "view of unknown kind {}",
                v.kind()
            );
        }
    }

    #[test]
    fn every_views_declarations_parse_and_name_its_kinds_columns() {
        for v in VIEWS {
            let k = kinds::find(v.kind()).unwrap();
            let (results, summary) = (k.columns(), k.summary_columns());
            let none = |_: &str| None;
            let cols = declare::Columns {
                results: &results,
                summary: &summary,
                values: &none,
            };
            let decl = v.decl();
            let mut names = std::collections::HashSet::new();
            for d in decl.charts {
                assert!(
                    names.insert(d.name.clone()),
                    "{}: chart {} twice",
                    k.name(),
                    d.name
                );
                if let Err(e) = declare::validate(&d, &cols, &curves::curve) {
                    panic!("{}: {e:?}", k.name());
                }
            }
            if let Err(e) = declare::validate_section(&decl.section, &cols) {
                panic!("{}: section: {e:?}", k.name());
            }
            for h in decl.heatmaps {
                if let Err(e) = h.validate(&results) {
                    panic!("{}: {e:?}", k.name());
                }
            }
            let metrics = k.metric_columns();
            for p in decl.theory {
                for c in [&p.measured, &p.theory] {
                    assert!(
                        metrics.contains(c),
                        "{}: theory pair names {c}, not a column",
                        k.name()
                    );
                }
            }
        }
    }
}
