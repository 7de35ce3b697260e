//! `runtime_hashes`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::attack::runtime_hashes::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::report::Section;
use crate::report::SeedRow;

const VIEW: &str = include_str!("runtime_hashes.toml");

/// The view registered for [`RuntimeHashes`] (see [`crate::experiment::view::VIEWS`]).
pub struct RuntimeHashesView;

impl View for RuntimeHashesView {
    fn kind(&self) -> &'static str {
        RuntimeHashes::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let rows = typed_rows::<RuntimeHashes>(&t.results);
        let v = |rt: Runtime| super::last_where(&rows, |p| p.runtime == rt).map(|(_, r)| r);
        let count = |rt: Runtime, f: fn(&R) -> Option<u64>| v(rt).and_then(f).map(|x| x as f64);
        vec![SeedRow {
            structure: "Runtime string hash (hash table keys)".into(),
            attack: "2^n strings of equivalent blocks".into(),
            designed: "one bucket per string, about".into(),
            constant_seed: super::cell(count(Runtime::Java, |r| r.distinct_own_keys), |d| {
                format!(
                    "Java String.hashCode: {} hash value(s) for {} strings; PHP 5: {}",
                    d,
                    count(Runtime::Java, |r| Some(r.crafted_keys)).unwrap_or(f64::NAN),
                    count(Runtime::Php5, |r| r.distinct_own_keys).unwrap_or(f64::NAN)
                )
            }),
            random_seed: "—".into(),
            keyed: super::cell(count(Runtime::Python, |r| r.distinct_java_keys), |d| {
                format!(
                    "CPython: {d} distinct; Rust RandomState: {}",
                    count(Runtime::Rust, |r| r.distinct_java_keys).unwrap_or(f64::NAN)
                )
            }),
        }]
    }

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let count = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
        let reading = typed_rows::<RuntimeHashes>(&t.results)
            .iter()
            .map(|(p, r)| {
                format!(
                    "{} ({}, {}): {} distinct hash values for the {} Java strings, {} for the PHP 5 strings{}",
                    p.runtime,
                    r.version,
                    r.algorithm,
                    count(r.distinct_java_keys),
                    r.crafted_keys,
                    count(r.distinct_php5_keys),
                    match r.randomized_per_process {
                        Some(1) => ", keyed per process",
                        Some(_) => ", the same in every process",
                        None => "",
                    }
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        Section {
            table,
            reading: format!(
                "{reading}. Java's and PHP 5's functions are computed here from their published definitions (the runtimes are not run); the Python 2 and Ruby 1.8 hashes of the same advisory are not modelled. Java still ships String.hashCode unchanged; since Java 8 HashMap turns a long bucket into a balanced tree, bounding the damage rather than avoiding the collisions."
            ),
        }
    }
}
