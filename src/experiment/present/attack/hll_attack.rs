//! `hll_attack`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::attack::hll_attack::*;
use crate::experiment::present::Present;
use crate::export::markdown::sig;
use crate::report::Section;
use crate::report::SeedRow;

impl Present for HllAttack {
    const VIEW: &'static str = include_str!("hll_attack.toml");

    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let t = &t.results;
        let v = |a: &str, tg: &str, m: &str| super::value(t, &[("attack", a), ("target", tg)], m);
        let err = |x: f64| format!("{:+.1}%", 100.0 * (x - 1.0));
        [
            (
                "deflate_index",
                "deflation: items filtered to 3/4 of the registers",
            ),
            (
                "deflate_rank1",
                "deflation: rank-1 items only, after a preload",
            ),
            ("inflate", "inflation: one constructed key per register"),
        ]
        .into_iter()
        .filter(|(a, _)| v(a, "redis", "distinct").is_some())
        .map(|(a, what)| SeedRow {
            structure: "HyperLogLog (Redis layout, p = 14)".into(),
            attack: what.into(),
            designed: "±0.81% (one standard error)".into(),
            constant_seed: super::cell(v(a, "redis", "estimate_over_truth"), |x| {
                let equal = super::row(t, &[("attack", a), ("target", "redis")])
                    .map(|r| t.str(r, "redis_equal"));
                let pf = match equal.as_deref() {
                    Some("true") => ", PFCOUNT equal",
                    Some("false") => ", PFCOUNT DIFFERS",
                    _ => ", no redis-server reached",
                };
                format!("{} (MurmurHash64A, public seed{pf})", err(x))
            }),
            random_seed: "—".into(),
            keyed: super::cell(v(a, "sip13", "estimate_over_truth"), err),
        })
        .collect()
    }

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let t = &t.results;
        let parts: Vec<String> = t
            .rows
            .iter()
            .map(|r| {
                let pf = t
                    .f64(r, "redis_pfcount")
                    .map(|v| format!(", PFCOUNT {}", sig(v, 4)))
                    .unwrap_or_default();
                format!(
                    "{} on {}: {} distinct items read as {}{pf}",
                    t.str(r, "attack"),
                    t.str(r, "target"),
                    sig(t.f64(r, "distinct").unwrap_or(f64::NAN), 4),
                    sig(t.f64(r, "estimate").unwrap_or(f64::NAN), 4),
                )
            })
            .collect();
        let server = t
            .rows
            .first()
            .map(|r| t.str(r, "server"))
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
