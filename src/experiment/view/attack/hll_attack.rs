//! `hll_attack`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::attack::hll_attack::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::sig;
use crate::report::Section;
use crate::report::SeedRow;

const VIEW: &str = include_str!("hll_attack.toml");

/// The view registered for [`HllAttack`] (see [`crate::experiment::view::VIEWS`]).
pub struct HllAttackView;

impl View for HllAttackView {
    fn kind(&self) -> &'static str {
        HllAttack::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let rows = typed_rows::<HllAttack>(&t.results);
        let v = |a: Attack, tg: Target| {
            super::last_where(&rows, |p| p.attack == a && p.target == tg).map(|(_, r)| r)
        };
        let err = |x: f64| format!("{:+.1}%", 100.0 * (x - 1.0));
        [
            (
                Attack::DeflateIndex,
                "deflation: items filtered to 3/4 of the registers",
            ),
            (
                Attack::DeflateRank1,
                "deflation: rank-1 items only, after a preload",
            ),
            (
                Attack::Inflate,
                "inflation: one constructed key per register",
            ),
        ]
        .into_iter()
        .filter(|(a, _)| v(*a, Target::Redis).is_some())
        .map(|(a, what)| SeedRow {
            structure: "HyperLogLog (Redis layout, p = 14)".into(),
            attack: what.into(),
            designed: "±0.81% (one standard error)".into(),
            constant_seed: super::cell(v(a, Target::Redis).map(|r| r.estimate_over_truth), |x| {
                let pf = match v(a, Target::Redis).and_then(|r| r.redis_equal) {
                    Some(true) => ", PFCOUNT equal",
                    Some(false) => ", PFCOUNT DIFFERS",
                    None => ", no redis-server reached",
                };
                format!("{} (MurmurHash64A, public seed{pf})", err(x))
            }),
            random_seed: "—".into(),
            keyed: super::cell(v(a, Target::Sip13).map(|r| r.estimate_over_truth), err),
        })
        .collect()
    }

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<HllAttack>(&t.results);
        let parts: Vec<String> = rows
            .iter()
            .map(|(p, r)| {
                let pf = r
                    .redis_pfcount
                    .map(|v| format!(", PFCOUNT {}", sig(v as f64, 4)))
                    .unwrap_or_default();
                format!(
                    "{} on {}: {} distinct items read as {}{pf}",
                    p.attack,
                    p.target,
                    sig(r.distinct as f64, 4),
                    sig(r.estimate as f64, 4),
                )
            })
            .collect();
        let server = rows
            .first()
            .map(|(_, r)| r.server.as_str())
            .unwrap_or_default();
        Section {
            table,
            reading: format!(
                "{}. Server: {server}. With the public seed the attacker sets the count; against the keyed sketch its items are ordinary items.",
                parts.join("; ")
            ),
        }
    }
}
