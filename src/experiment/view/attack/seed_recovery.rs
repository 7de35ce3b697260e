//! `seed_recovery`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::attack::seed_recovery::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::SeedRow;

const VIEW: &str = include_str!("seed_recovery.toml");

/// The view registered for [`SeedRecovery`] (see [`crate::experiment::view::VIEWS`]).
pub struct SeedRecoveryView;

impl View for SeedRecoveryView {
    fn kind(&self) -> &'static str {
        SeedRecovery::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let rows = typed_rows::<SeedRecovery>(&t.results);
        let v = |h: Victim| super::last_where(&rows, |p| p.hash == h);
        // the least over the non-cryptographic hashes
        let worst = |f: fn(&R) -> f64| {
            Victim::ALL
                .iter()
                .filter(|&&h| h != Victim::Sip13)
                .filter_map(|&h| v(h).map(|(_, r)| f(r)))
                .reduce(f64::min)
        };
        let keyed = v(Victim::Sip13).map(|(_, r)| r);
        vec![SeedRow {
            structure: "Any seeded hash (seed kept secret per process)".into(),
            attack: "seed recovered from one observed output, then collisions crafted".into(),
            designed: super::cell(v(Victim::Xxh364).map(|(p, _)| p.m as f64), |m| {
                format!("pairs collide at 1/m = {}", sig(1.0 / m, 3))
            }),
            constant_seed: "the seed is known: every crafted pair collides".into(),
            random_seed: super::cell(worst(|r| r.recovered.rate), |r| {
                format!(
                    "murmur3 / murmur64a / xxh64 / xxh3: at least {} of seeds recovered, crafted pairs collide at ≥ {}",
                    pct(r, 3),
                    sig(worst(|r| r.crafted_collision.rate).unwrap_or(f64::NAN), 3)
                )
            }),
            keyed: super::cell(keyed.map(|r| r.recovered.rate), |r| {
                format!(
                    "{} recovered in {} guesses per key; pairs collide at {} × 1/m",
                    pct(r, 3),
                    sig(
                        keyed.map_or(f64::NAN, |r| r.search_evaluations_per_secret),
                        3
                    ),
                    sig(keyed.map_or(f64::NAN, |r| r.crafted_collision_x_m.value), 3)
                )
            }),
        }]
    }
}
