//! `hash_in_structures`: does a strategy keep a structure's guarantee on
//! structured keys? A Bloom filter's FPR (n keys, rate p) and the
//! HyperLogLog leading-zero estimate (2^hll_p registers over the same keys),
//! per strategy and keyset, each next to its theory.

use super::common;
use super::{Kind, KindInfo, Section};
use crate::experiment::params::{Def, HASH, HASH_SEED, PType, ParamDef, Params};
use crate::experiment::table::{Cell, Metrics, Table};
use crate::export::markdown::pct;
use crate::hashing::KeyHasher;
use crate::metrics::Proportion;
use crate::plot::{Chart, Point, Series, Style};
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::keysets::{Keyset, KeysetGen};
use std::collections::HashSet;

pub struct HashInStructures;

static PARAMS: [ParamDef; 7] = [
    HASH,
    HASH_SEED,
    ParamDef::new(
        "keyset",
        PType::Choice(Keyset::NAMES),
        Def::Required,
        "structured keys",
    ),
    common::count(
        "n",
        Def::Int(100_000),
        "keys inserted (words: at most half the dictionary; the other half is queried)",
    ),
    common::rate("p", Def::Float(0.01), "Bloom design rate"),
    common::count(
        "queries",
        Def::Int(1_000_000),
        "keys of the same keyset never inserted",
    ),
    ParamDef::new(
        "hll_p",
        PType::Int { min: 4, max: 18 },
        Def::Int(14),
        "HyperLogLog index bits (2^hll_p registers)",
    ),
];

static METRICS: [&str; 19] = [
    "width",
    "n_inserted",
    "queries_done",
    "m",
    "k",
    "false_negatives",
    "fpr_measured",
    "fpr_measured_lo",
    "fpr_measured_hi",
    "fpr_theory",
    "fpr_z",
    "fpr_width_floor",
    "fpr_theory_with_width",
    "fpr_z_with_width",
    "hll_estimate",
    "hll_rel_error",
    "hll_theory_se",
    "hll_z",
    "full_width_collisions",
];

/// The HyperLogLog estimate over 64-bit words: index = top `p` bits, rank =
/// leading zeros of the remaining `wbits − p` bits + 1; raw estimate
/// α·m²/Σ2^(−M), switched to linear counting below 2.5·m (doc 002; Flajolet
/// et al. 2007). The HyperLogLog structure itself is a later issue; this is
/// the statistic, to test hashes.
fn hll_estimate(words: impl Iterator<Item = u64>, wbits: u32, p: u32) -> f64 {
    let m = 1usize << p;
    let mut reg = vec![0u8; m];
    let rest = wbits - p;
    for w in words {
        let idx = (w >> (wbits - p)) as usize & (m - 1);
        let tail = if rest == 64 {
            w
        } else {
            w & ((1u64 << rest) - 1)
        };
        let rank = if tail == 0 {
            rest + 1
        } else {
            tail.leading_zeros() - (64 - rest) + 1
        };
        reg[idx] = reg[idx].max(rank as u8);
    }
    let mf = m as f64;
    let alpha = 0.7213 / (1.0 + 1.079 / mf);
    let sum: f64 = reg.iter().map(|&r| 2f64.powi(-(r as i32))).sum();
    let raw = alpha * mf * mf / sum;
    let zeros = reg.iter().filter(|&&r| r == 0).count();
    if raw <= 2.5 * mf && zeros > 0 {
        mf * (mf / zeros as f64).ln()
    } else {
        raw
    }
}

static INFO: KindInfo = KindInfo {
    name: "hash_in_structures",
    about: "Bloom FPR and the HyperLogLog leading-zero estimate per hash on structured keysets, vs theory",
    params: &PARAMS,
    metrics: &METRICS,
};

impl Kind for HashInStructures {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics> {
        let h = p.hasher(seed);
        let set = Keyset::from_name(p.str("keyset")).expect("validated keyset");
        let max = set.max_ids();
        let n = p.u64("n").min(max / 2);
        let queries = p.u64("queries").min(max - n);
        let mut g = KeysetGen::new(set, p.salt(seed, 1));
        let mut f = BloomFilter::with_rate(n, p.float("p"), h.clone())?;
        let width = h.width();
        let mut words = Vec::with_capacity(n as usize);
        let mut distinct: HashSet<u128> = HashSet::with_capacity(n as usize);
        for id in 0..n {
            let key = g.key(id);
            let v = h.native(key);
            f.insert_hash(crate::hashing::halves(v, width));
            distinct.insert(v);
            words.push(if width == 128 {
                (v >> 64) as u64
            } else {
                v as u64
            });
        }
        let fneg = (0..n).filter(|&id| !f.contains(g.key(id))).count() as u64;
        let fp = (n..n + queries).filter(|&id| f.contains(g.key(id))).count() as u64;
        let prop = Proportion::new(fp, queries);
        let th = theory::fpr(n as f64, f.m() as f64, f.k() as f64);
        // A query whose full-width hash equals an inserted key's gets the same
        // probes: a false positive whatever m and k are. With w-bit outputs
        // that floor is 1 - (1 - 2^-w)^n ≈ n/2^w.
        let floor = if width >= 128 {
            0.0
        } else {
            -((n as f64) * (-(2f64.powi(-(width as i32)))).ln_1p()).exp_m1()
        };
        let th_w = 1.0 - (1.0 - th) * (1.0 - floor);
        let hp = p.u64("hll_p") as u32;
        let est = hll_estimate(words.into_iter(), width.min(64), hp);
        let se = 1.04 / 2f64.powi(hp as i32).sqrt();
        let rel = est / n as f64 - 1.0;
        let mut m = Metrics::new(&METRICS);
        m.set("width", width)
            .set("n_inserted", n)
            .set("queries_done", queries)
            .set("m", f.m())
            .set("k", f.k())
            .set("false_negatives", fneg)
            .set_proportion("fpr_measured", &prop)
            .set("fpr_theory", th)
            .set(
                "fpr_z",
                (prop.rate - th) / (th * (1.0 - th) / queries as f64).sqrt(),
            )
            .set("fpr_width_floor", floor)
            .set("fpr_theory_with_width", th_w)
            .set(
                "fpr_z_with_width",
                (prop.rate - th_w) / (th_w * (1.0 - th_w) / queries as f64).sqrt(),
            )
            .set("hll_estimate", est)
            .set("hll_rel_error", rel)
            .set("hll_theory_se", se)
            .set("hll_z", rel / se)
            .set("full_width_collisions", n - distinct.len() as u64);
        Ok(m)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let label = "keyset (1 = sequential, 2 = high_bits, 3 = url_prefix, 4 = words, 5 = random)";
        let mut fpr = Chart::new(
            "bloom_fpr_by_keyset",
            "Bloom FPR by hash and keyset (design 1%)",
            label,
            "false-positive rate",
        )
        .log_y();
        let mut hll = Chart::new(
            "hll_error_by_keyset",
            "HyperLogLog relative error by hash and keyset",
            label,
            "|estimate / n - 1|",
        )
        .log_y();
        if let Some(r) = t.rows.first() {
            fpr = fpr.hline(t.f64(r, "fpr_theory").unwrap_or(0.01), "theory");
            hll = hll.hline(
                t.f64(r, "hll_theory_se").unwrap_or(0.01),
                "1.04/√m (one standard error)",
            );
        }
        for name in common::names(t, "hash") {
            let at = |col: &str, abs: bool| -> Vec<Point> {
                Keyset::NAMES
                    .iter()
                    .enumerate()
                    .filter_map(|(i, s)| {
                        let r = t
                            .rows
                            .iter()
                            .find(|r| t.str(r, "hash") == name && t.str(r, "keyset") == *s)?;
                        let y = t.f64(r, col)?;
                        let y = if abs { y.abs().max(1e-5) } else { y };
                        Some(
                            match (
                                t.f64(r, &format!("{col}_lo")),
                                t.f64(r, &format!("{col}_hi")),
                            ) {
                                (Some(lo), Some(hi)) => {
                                    Point::with_interval(i as f64 + 1.0, y, lo, hi)
                                }
                                _ => Point::new(i as f64 + 1.0, y),
                            },
                        )
                    })
                    .collect()
            };
            fpr = fpr.series(Series::new(
                name.clone(),
                Style::LinePoints,
                at("fpr_measured", false),
            ));
            hll = hll.series(Series::new(
                name.clone(),
                Style::LinePoints,
                at("hll_rel_error", true),
            ));
        }
        let ps = common::levels(t, "p");
        if ps.len() < 2 {
            return vec![fpr, hll];
        }
        // Several design rates: FPR vs p per hash, with the width floor.
        let mut by_p = Chart::new(
            "fpr_vs_p_width_floor",
            "Bloom FPR vs design rate: the hash width sets a floor",
            "design p",
            "false-positive rate",
        )
        .log_x()
        .log_y();
        for (i, name) in common::names(t, "hash").iter().enumerate() {
            let rows: Vec<_> = t.where_str("hash", name).collect();
            if i == 0 {
                by_p = by_p.series(Series::new(
                    "theory (1-e^(-kn/m))^k",
                    Style::Line,
                    common::points(t, &rows, "p", "fpr_theory"),
                ));
            }
            let w = rows.first().and_then(|r| t.f64(r, "width")).unwrap_or(0.0);
            if w < 128.0 {
                by_p = by_p.series(Series::new(
                    format!("theory + n/2^{w}, {name}"),
                    Style::Line,
                    common::points(t, &rows, "p", "fpr_theory_with_width"),
                ));
            }
            by_p = by_p.series(Series::new(
                format!("measured, {name} ({w} bits)"),
                Style::Points,
                common::points(t, &rows, "p", "fpr_measured"),
            ));
        }
        vec![by_p, fpr, hll]
    }

    fn section(&self, t: &Table) -> Section {
        let mut table = Table {
            columns: vec!["hash".into(), "width".into()],
            rows: vec![],
        };
        for s in Keyset::NAMES {
            table.columns.push(format!("FPR {s}"));
        }
        for s in Keyset::NAMES {
            table.columns.push(format!("HLL err {s}"));
        }
        let mut broken = Vec::new();
        for name in common::names(t, "hash") {
            let rows: Vec<_> = t.where_str("hash", &name).collect();
            let mut row: Vec<Cell> = vec![
                name.clone().into(),
                rows.first()
                    .map(|r| t.cell(r, "width").clone())
                    .unwrap_or(Cell::Empty),
            ];
            for col in ["fpr_measured", "hll_rel_error"] {
                for s in Keyset::NAMES {
                    row.push(
                        rows.iter()
                            .find(|r| t.str(r, "keyset") == *s)
                            .and_then(|r| t.f64(r, col))
                            .into(),
                    );
                }
            }
            table.rows.push(row);
            for r in &rows {
                let fz = t.f64(r, "fpr_z_with_width").unwrap_or(0.0);
                let hz = t.f64(r, "hll_z").unwrap_or(0.0);
                if fz.abs() > 4.5 || hz.abs() > 4.5 {
                    broken.push(format!(
                        "{name} on {} (FPR {}, HLL error {})",
                        t.str(r, "keyset"),
                        pct(t.f64(r, "fpr_measured").unwrap_or(f64::NAN), 3),
                        pct(t.f64(r, "hll_rel_error").unwrap_or(f64::NAN), 3)
                    ));
                }
            }
        }
        Section {
            table,
            reading: format!(
                "Outside 4.5 standard errors of theory (FPR against its binomial error, with the n/2^w floor a w-bit hash adds; HLL against 1.04/√m): {}.",
                if broken.is_empty() {
                    "none".to_string()
                } else {
                    broken.join("; ")
                }
            ),
        }
    }
}
