//! `bloom_twins`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::attack::bloom_twins::*;
use crate::experiment::present::Present;
use crate::experiment::present::common::{self};
use crate::plot::{Chart, Point, Series, Style};
use crate::report::SeedRow;

impl Present for BloomTwins {
    const VIEW: &'static str = include_str!("bloom_twins.toml");
    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let t = &t.results;
        let mut c = Chart::new(
            "fpr_under_attack",
            "False-positive rate: twins of members vs honest non-members, by hash",
            "hash (0 = first in the spec)",
            "false-positive rate",
        )
        .log_y();
        let hashes = common::names(t, "hash");
        for (metric, label) in [
            ("fpr_twins", "twins of members"),
            ("fpr_honest", "honest non-members"),
        ] {
            let pts: Vec<Point> = hashes
                .iter()
                .enumerate()
                .flat_map(|(i, h)| {
                    let rows: Vec<_> = t.where_str("hash", h).collect();
                    common::points(t, &rows, "n", metric)
                        .into_iter()
                        .map(move |p| Point { x: i as f64, ..p })
                })
                .collect();
            c = c.series(Series::new(label, Style::Points, pts));
        }
        vec![c]
    }

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
