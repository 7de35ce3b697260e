//! `bloom_attack`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::attack::bloom_attack::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::report::SeedRow;

const VIEW: &str = include_str!("bloom_attack.toml");

/// The view registered for [`BloomAttack`] (see [`crate::experiment::view::VIEWS`]).
pub struct BloomAttackView;

impl View for BloomAttackView {
    fn kind(&self) -> &'static str {
        BloomAttack::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let rows = typed_rows::<BloomAttack>(&t.results);
        let v = |a: Attack, tg: Target| {
            super::last_where(&rows, |p| p.attack == a && p.target == tg).map(|(_, r)| r)
        };
        let crafted = |a, tg| v(a, tg).and_then(|r| r.fpr_attack_queries.map(|q| q.rate));
        let honest = |a, tg| v(a, tg).map(|r| r.fpr_honest.rate);
        let design = rows.first().map(|(_, r)| r.fpr_design);
        let p = |x: f64| pct(x, 3);
        vec![
            SeedRow {
                structure: "Bloom filter".into(),
                attack: "forgery: crafted non-member queries".into(),
                designed: super::cell(design, |x| format!("{} FPR", pct(x, 2))),
                constant_seed: super::cell(crafted(Attack::Forgery, Target::Chapter), |x| {
                    format!("{} of crafted queries positive (mmh3, seed 0)", p(x))
                }),
                random_seed: "see bloom_twins".into(),
                keyed: super::cell(crafted(Attack::Forgery, Target::Sip13), p),
            },
            SeedRow {
                structure: "Bloom filter".into(),
                attack: "pollution: insertions setting k fresh bits".into(),
                designed: super::cell(design, |x| format!("{} FPR", pct(x, 2))),
                constant_seed: super::cell(honest(Attack::Pollution, Target::Chapter), |x| {
                    format!("{} honest FPR (mmh3, seed 0)", p(x))
                }),
                random_seed: "—".into(),
                keyed: super::cell(honest(Attack::Pollution, Target::Sip13), p),
            },
        ]
    }

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<BloomAttack>(&t.results);
        let reading = rows
            .iter()
            .map(|(p, r)| {
                let crafted = r
                    .fpr_attack_queries
                    .map(|q| format!(", crafted queries {}", pct(q.rate, 3)))
                    .unwrap_or_default();
                format!(
                    "{} on {}: honest FPR {}{crafted} ({} hashes tried per attacker key)",
                    p.attack,
                    p.target,
                    pct(r.fpr_honest.rate, 3),
                    sig(r.tries_per_key, 3)
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        let design = rows.first().map_or(f64::NAN, |(_, r)| r.fpr_design);
        Section {
            table,
            reading: format!(
                "Designed {}. {reading}. With the constant seed the attacker sets the rate; against the keyed filter the same keys are random keys.",
                pct(design, 2)
            ),
        }
    }
}
