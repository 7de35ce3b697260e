//! `universal_family`: what the report shows of its rows (charts, reading, table).

use crate::attack::universal::{CW_SMALL, Family, MS_SMALL};
use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::attack::universal_family::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::sig;
use crate::report::Section;
use crate::report::SeedRow;

const VIEW: &str = include_str!("universal_family.toml");

/// The view registered for [`UniversalFamily`] (see [`crate::experiment::view::VIEWS`]).
pub struct UniversalFamilyView;

impl View for UniversalFamilyView {
    fn kind(&self) -> &'static str {
        UniversalFamily::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let rows = typed_rows::<UniversalFamily>(&t.results);
        let v = |fam: Family, seed: Draws| {
            super::last_where(&rows, |p| p.family == fam && p.function == seed)
                .map(|(p, r)| (r.crafted_collision.rate, p.m as f64))
        };
        let fmt = |x: Option<(f64, f64)>| {
            super::cell(x.map(|x| x.0), |r| {
                format!(
                    "crafted pairs collide at {} (m = {})",
                    sig(r, 3),
                    sig(x.map_or(f64::NAN, |x| x.1), 6)
                )
            })
        };
        vec![SeedRow {
            structure: "Hash table bucket (universal family)".into(),
            attack: "pairs crafted against a known function".into(),
            designed: "collide with probability ≤ 1/m".into(),
            constant_seed: fmt(v(Family::CarterWegman, Draws::Constant)),
            random_seed: fmt(v(Family::CarterWegman, Draws::Fresh)),
            keyed: fmt(v(Family::Sip13, Draws::Fresh)),
        }]
    }

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<UniversalFamily>(&t.results);
        let f = |fam: Family, seed: Draws| {
            super::last_where(&rows, |p| p.family == fam && p.function == seed).map(|(_, r)| r)
        };
        let worst_fresh = rows
            .iter()
            .filter(|(p, _)| p.function == Draws::Fresh)
            .map(|(_, r)| r.crafted_collision_x_m.value)
            .fold(f64::NAN, f64::max);
        let constant_min = rows
            .iter()
            .filter(|(p, _)| p.function == Draws::Constant)
            .map(|(_, r)| r.crafted_collision.rate)
            .fold(f64::NAN, f64::min);
        let loads_ok = rows.iter().all(|(_, r)| r.pigeonhole_shortfall == 0);
        let exhaustive = |fam| {
            f(fam, Draws::Fresh)
                .and_then(|r| r.exhaustive_max_pair_x_m)
                .unwrap_or(f64::NAN)
        };
        let reading = format!(
            "Exhaustively, Carter–Wegman (p = {}, m = {}) puts no pair of distinct keys in one bucket under more than {} × 1/m of its functions, multiply-shift (w = {}, m = {}) under {} × 1/m (its bound is 2/m). Pairs crafted against a function the attacker knows (about {} × m keys tried per pair) meet a freshly drawn function at {} × 1/m at worst, the rate of random pairs; under the constant function they collide at {} or more, whatever the family, SipHash included. Pigeonhole {}: the attacker's function puts at least |U|/m of the universe's keys in one bucket in every row..",
            CW_SMALL.0,
            CW_SMALL.1,
            sig(exhaustive(Family::CarterWegman), 4),
            MS_SMALL.0,
            MS_SMALL.1,
            sig(exhaustive(Family::MultiplyShift), 4),
            sig(
                f(Family::CarterWegman, Draws::Fresh)
                    .map_or(f64::NAN, |r| r.search_tries_per_pair_over_m),
                3
            ),
            sig(worst_fresh, 3),
            sig(constant_min, 3),
            if loads_ok { "holds" } else { "FAILS" },
        );
        Section { table, reading }
    }
}
