//! `hashmap_flood`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::attack::hashmap_flood::*;
use crate::experiment::present::Present;
use crate::experiment::present::common;
use crate::export::markdown::sig;
use crate::report::Section;
use crate::report::SeedRow;
use crate::table::Value;

impl Present for HashmapFlood {
    const VIEW: &'static str = include_str!("hashmap_flood.toml");
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let t = &t.results;
        let v = |a: &str, tb: &str, k: &str, m: &str| {
            super::value(t, &[("attack", a), ("table", tb), ("keys", k)], m)
        };
        let n = v("fx", "attacked", "crafted", "inserted");
        let c = |x: f64| format!("{} compares/insert", sig(x, 3));
        vec![SeedRow {
            structure: "std HashMap".into(),
            attack: super::cell(n, |n| format!("{} colliding keys", sig(n, 3))),
            designed: super::cell(
                v("murmur64a", "random_state", "random", "compares_per_insert"),
                |x| format!("O(1): {} compares/insert on random keys", sig(x, 2)),
            ),
            constant_seed: super::cell(
                v("fx", "attacked", "crafted", "compares_per_insert"),
                |x| format!("{} (FxHash, no seed)", c(x)),
            ),
            random_seed: super::cell(
                v("murmur64a", "attacked", "crafted", "compares_per_insert"),
                |x| {
                    let row = super::row(
                        t,
                        &[
                            ("attack", "murmur64a"),
                            ("table", "attacked"),
                            ("keys", "crafted"),
                        ],
                    );
                    let capped = row.is_some_and(|r| t.str(r, "capped") == "true");
                    format!(
                        "{} over {} keys (murmur64a, unseen seed{})",
                        c(x),
                        sig(
                            v("murmur64a", "attacked", "crafted", "inserted").unwrap_or(f64::NAN),
                            3
                        ),
                        if capped {
                            "; stopped by the per-trial time cap"
                        } else {
                            ""
                        }
                    )
                },
            ),
            keyed: super::cell(
                v(
                    "murmur64a",
                    "random_state",
                    "crafted",
                    "compares_per_insert",
                ),
                |x| format!("{} (RandomState)", c(x)),
            ),
        }]
    }

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let t = &t.results;
        // per attacked/crafted series: the largest n, its time, and the growth exponent of ns/insert
        let mut parts = Vec::new();
        for a in common::names(t, "attack") {
            for table in ["attacked", "random_state"] {
                let rows: Vec<&Vec<Value>> = t
                    .where_str("attack", &a)
                    .filter(|r| t.str(r, "table") == table && t.str(r, "keys") == "crafted")
                    .collect();
                let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
                    continue;
                };
                let f = |r: &Vec<Value>, c: &str| t.f64(r, c).unwrap_or(f64::NAN);
                let slope = (f(last, "ns_per_insert") / f(first, "ns_per_insert")).ln()
                    / (f(last, "inserted") / f(first, "inserted")).ln();
                let who = if table == "attacked" {
                    a.clone()
                } else {
                    "RandomState".into()
                };
                parts.push(format!(
                    "{who} with the {a} keys: {} keys in {} s ({} compares per insert{}), ns/insert ∝ n^{}{}",
                    sig(f(last, "inserted"), 3),
                    sig(f(last, "seconds"), 3),
                    sig(f(last, "compares_per_insert"), 3),
                    if t.str(last, "capped") == "true" {
                        ", stopped at the time cap"
                    } else {
                        ""
                    },
                    sig(slope, 2),
                    t.f64(last, "keys_for_one_minute")
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
