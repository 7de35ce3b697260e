//! `seed_recovery`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::attack::seed_recovery::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::SeedRow;

impl Present for SeedRecovery {
    const VIEW: &'static str = include_str!("seed_recovery.toml");

    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let t = &t.results;
        let v = |h: &str, c: &str| super::value(t, &[("hash", h)], c);
        // the least over the non-cryptographic hashes
        let worst = |c: &str| {
            HASHES
                .iter()
                .filter(|&&h| h != "sip13")
                .filter_map(|h| v(h, c))
                .reduce(f64::min)
        };
        vec![SeedRow {
            structure: "Any seeded hash (seed kept secret per process)".into(),
            attack: "seed recovered from one observed output, then collisions crafted".into(),
            designed: super::cell(v("xxh3_64", "m"), |m| {
                format!("pairs collide at 1/m = {}", sig(1.0 / m, 3))
            }),
            constant_seed: "the seed is known: every crafted pair collides".into(),
            random_seed: super::cell(worst("recovered"), |r| {
                format!(
                    "murmur3 / murmur64a / xxh64 / xxh3: at least {} of seeds recovered, crafted pairs collide at ≥ {}",
                    pct(r, 3),
                    sig(worst("crafted_collision").unwrap_or(f64::NAN), 3)
                )
            }),
            keyed: super::cell(v("sip13", "recovered"), |r| {
                format!(
                    "{} recovered in {} guesses per key; pairs collide at {} × 1/m",
                    pct(r, 3),
                    sig(
                        v("sip13", "search_evaluations_per_secret").unwrap_or(f64::NAN),
                        3
                    ),
                    sig(v("sip13", "crafted_collision_x_m").unwrap_or(f64::NAN), 3)
                )
            }),
        }]
    }
}
