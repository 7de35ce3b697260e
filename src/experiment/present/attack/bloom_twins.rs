//! `bloom_twins`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::attack::bloom_twins::*;
use crate::experiment::present::Present;
use crate::report::SeedRow;

impl Present for BloomTwins {
    const VIEW: &'static str = include_str!("bloom_twins.toml");

    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let t = &t.results;
        let v = |h: &str, s: &str, m: &str| super::value(t, &[("hash", h), ("hash_seed", s)], m);
        let p = |x: f64| crate::export::markdown::pct(x, 3);
        vec![SeedRow {
            structure: "Bloom filter".into(),
            attack: "twins of members (seed-independent murmur3_x64_128 differential)".into(),
            designed: super::cell(t.rows.first().and_then(|r| t.f64(r, "p")), |x| {
                format!("{} FPR", crate::export::markdown::pct(x, 2))
            }),
            constant_seed: "same as random: the twins work for every seed".into(),
            random_seed: super::cell(v("murmur3_x64_128", "trial", "fpr_twins"), |x| {
                format!("{} of twins positive (murmur3_x64_128, unseen seed)", p(x))
            }),
            keyed: super::cell(v("sip13", "trial", "fpr_twins"), p),
        }]
    }
}
