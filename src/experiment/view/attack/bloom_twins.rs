//! `bloom_twins`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::attack::bloom_twins::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::params::HashSeed;
use crate::experiment::view::View;
use crate::report::SeedRow;

const VIEW: &str = include_str!("bloom_twins.toml");

/// The view registered for [`BloomTwins`] (see [`crate::experiment::view::VIEWS`]).
pub struct BloomTwinsView;

impl View for BloomTwinsView {
    fn kind(&self) -> &'static str {
        BloomTwins::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let rows = typed_rows::<BloomTwins>(&t.results);
        let twins = |h: &str| {
            super::last_where(&rows, |p| {
                p.hash.name() == h && p.hash_seed == HashSeed::Trial
            })
            .map(|(_, r)| r.fpr_twins.rate)
        };
        let p = |x: f64| crate::export::markdown::pct(x, 3);
        vec![SeedRow {
            structure: "Bloom filter".into(),
            attack: "twins of members (seed-independent murmur3_x64_128 differential)".into(),
            designed: super::cell(rows.first().map(|(p, _)| p.p), |x| {
                format!("{} FPR", crate::export::markdown::pct(x, 2))
            }),
            constant_seed: "same as random: the twins work for every seed".into(),
            random_seed: super::cell(twins("murmur3_x64_128"), |x| {
                format!("{} of twins positive (murmur3_x64_128, unseen seed)", p(x))
            }),
            keyed: super::cell(twins("sip13"), p),
        }]
    }
}
