//! `hashmap_flood`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::attack::hashmap_flood::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::{View, common};
use crate::export::markdown::sig;
use crate::report::Section;
use crate::report::SeedRow;

const VIEW: &str = include_str!("hashmap_flood.toml");

/// The view registered for [`HashmapFlood`] (see [`crate::experiment::view::VIEWS`]).
pub struct HashmapFloodView;

impl View for HashmapFloodView {
    fn kind(&self) -> &'static str {
        HashmapFlood::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let rows = typed_rows::<HashmapFlood>(&t.results);
        // the last (largest n) row of each series
        let find = |a: Attack, tb: Map, k: KeyKind| {
            super::last_where(&rows, |p| p.attack == a && p.table == tb && p.keys == k)
                .map(|(_, r)| r)
        };
        let compares = |a, tb, k| find(a, tb, k).map(|r| r.compares_per_insert);
        let c = |x: f64| format!("{} compares/insert", sig(x, 3));
        let seeded = find(Attack::Murmur64a, Map::Attacked, KeyKind::Crafted);
        vec![SeedRow {
            structure: "std HashMap".into(),
            attack: super::cell(
                find(Attack::Fx, Map::Attacked, KeyKind::Crafted).map(|r| r.inserted as f64),
                |n| format!("{} colliding keys", sig(n, 3)),
            ),
            designed: super::cell(
                compares(Attack::Murmur64a, Map::RandomState, KeyKind::Random),
                |x| format!("O(1): {} compares/insert on random keys", sig(x, 2)),
            ),
            constant_seed: super::cell(
                compares(Attack::Fx, Map::Attacked, KeyKind::Crafted),
                |x| format!("{} (FxHash, no seed)", c(x)),
            ),
            random_seed: super::cell(seeded.map(|r| r.compares_per_insert), |x| {
                format!(
                    "{} over {} keys (murmur64a, unseen seed{})",
                    c(x),
                    sig(seeded.map_or(f64::NAN, |r| r.inserted as f64), 3),
                    if seeded.is_some_and(|r| r.capped) {
                        "; stopped by the per-trial time cap"
                    } else {
                        ""
                    }
                )
            }),
            keyed: super::cell(
                compares(Attack::Murmur64a, Map::RandomState, KeyKind::Crafted),
                |x| format!("{} (RandomState)", c(x)),
            ),
        }]
    }

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<HashmapFlood>(&t.results);
        let attacks = common::first_seen(rows.iter().map(|(p, _)| p.attack));
        // per attacked/crafted series: the largest n, its time, and the growth exponent of ns/insert
        let mut parts = Vec::new();
        for a in attacks {
            for table in [Map::Attacked, Map::RandomState] {
                let series: Vec<&R> = rows
                    .iter()
                    .filter(|(p, _)| {
                        p.attack == a && p.table == table && p.keys == KeyKind::Crafted
                    })
                    .map(|(_, r)| r)
                    .collect();
                let (Some(first), Some(last)) = (series.first(), series.last()) else {
                    continue;
                };
                let slope = (last.ns_per_insert.value / first.ns_per_insert.value).ln()
                    / (last.inserted as f64 / first.inserted as f64).ln();
                let who = if table == Map::Attacked {
                    a.as_str()
                } else {
                    "RandomState"
                };
                parts.push(format!(
                    "{who} with the {a} keys: {} keys in {} s ({} compares per insert{}), ns/insert ∝ n^{}{}",
                    sig(last.inserted as f64, 3),
                    sig(last.seconds.value, 3),
                    sig(last.compares_per_insert, 3),
                    if last.capped {
                        ", stopped at the time cap"
                    } else {
                        ""
                    },
                    sig(slope, 2),
                    last.keys_for_one_minute
                        .map(|k| format!("; one minute would take about {} keys", sig(k, 2)))
                        .unwrap_or_default()
                ));
            }
        }
        Section {
            table,
            reading: format!(
                "{}. An exponent near 1 is a quadratic flood (every insert walks one chain); near 0, constant-time inserts.",
                parts.join("; ")
            ),
        }
    }
}
