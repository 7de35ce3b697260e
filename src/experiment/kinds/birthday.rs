//! `birthday`: keys drawn until the first collision of a hash truncated to
//! `bits`, repeated over independent key sets; and `birthday_bound`: the
//! essay's lost table of the bound by hash width, as computed rows.

use super::common::{self, KEYS};
use super::{Kind, KindInfo, Section};
use crate::experiment::params::{Def, HASH, HASH_SEED, PType, ParamDef, Params};
use crate::experiment::table::{Metrics, Table};
use crate::export::markdown::sig;
use crate::hashing::KeyHasher;
use crate::metrics::{Proportion, Z95};
use crate::plot::{Chart, Point, Series, Style};
use crate::structures::birthday as bd;
use crate::workload::KeyGen;
use std::collections::HashSet;

pub struct Birthday;
pub struct BirthdayBound;

static PARAMS: [ParamDef; 5] = [
    HASH,
    HASH_SEED,
    ParamDef::new(
        "bits",
        PType::Int { min: 8, max: 40 },
        Def::Int(32),
        "keep the low `bits` bits of the hash",
    ),
    common::count(
        "searches",
        Def::Int(200),
        "independent key sets, each drawn until its first collision",
    ),
    KEYS,
];

/// P(collision) is reported at these multiples of √N.
const AT: [(&str, f64); 7] = [
    ("0_25", 0.25),
    ("0_5", 0.5),
    ("1", 1.0),
    ("1_177", 1.177_410_022_515_474_6),
    ("1_5", 1.5),
    ("2", 2.0),
    ("3", 3.0),
];

static METRICS: [&str; 44] = [
    "n_values",
    "first_collision_median",
    "first_collision_median_lo",
    "first_collision_median_hi",
    "median_theory",
    "first_collision_mean",
    "first_collision_mean_lo",
    "first_collision_mean_hi",
    "mean_theory",
    "log2_median",
    "half_bits",
    "tb_of_1mb_files_at_median",
    "p_at_0_25",
    "p_at_0_25_lo",
    "p_at_0_25_hi",
    "p_at_0_25_theory",
    "p_at_0_5",
    "p_at_0_5_lo",
    "p_at_0_5_hi",
    "p_at_0_5_theory",
    "p_at_1",
    "p_at_1_lo",
    "p_at_1_hi",
    "p_at_1_theory",
    "p_at_1_177",
    "p_at_1_177_lo",
    "p_at_1_177_hi",
    "p_at_1_177_theory",
    "p_at_1_5",
    "p_at_1_5_lo",
    "p_at_1_5_hi",
    "p_at_1_5_theory",
    "p_at_2",
    "p_at_2_lo",
    "p_at_2_hi",
    "p_at_2_theory",
    "p_at_3",
    "p_at_3_lo",
    "p_at_3_hi",
    "p_at_3_theory",
    "pairs_at_median",
    "searches_done",
    "keys_hashed",
    "width",
];

static INFO: KindInfo = KindInfo {
    name: "birthday",
    about: "keys until the first collision of a hash truncated to n bits, vs the birthday bound",
    params: &PARAMS,
    metrics: &METRICS,
};

static BOUND_INFO: KindInfo = KindInfo {
    name: "birthday_bound",
    about: "the birthday bound by hash width: items for 1-in-a-million, 50%, one expected collision",
    params: &BOUND_PARAMS,
    metrics: &BOUND_METRICS,
};

impl Kind for Birthday {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn run(&self, p: &Params, seed: u64) -> anyhow::Result<Metrics> {
        let h = p.hasher(seed);
        let bits = p.u64("bits") as u32;
        let mask: u128 = (1u128 << bits) - 1;
        let n = 2f64.powi(bits as i32);
        let searches = p.u64("searches");
        let mut counts: Vec<u64> = Vec::with_capacity(searches as usize);
        let mut seen: HashSet<u64> = HashSet::with_capacity((4.0 * n.sqrt()) as usize);
        let mut hashed = 0u64;
        for s in 0..searches {
            let mut keys = KeyGen::new(p.keys("keys"), p.salt(seed, 1000 + s));
            seen.clear();
            let mut id = 0u64;
            loop {
                id += 1;
                // ids are distinct, so keys are distinct: a repeat is a hash collision
                if !seen.insert((h.native(keys.key(id)) & mask) as u64) {
                    break;
                }
            }
            hashed += id;
            counts.push(id);
        }
        counts.sort_unstable();
        let k = counts.len();
        let median = if k % 2 == 1 {
            counts[k / 2] as f64
        } else {
            (counts[k / 2 - 1] + counts[k / 2]) as f64 / 2.0
        };
        // Distribution-free 95% interval for the median: order statistics at k/2 ± 1.96·√k/2.
        let half = Z95 * (k as f64).sqrt() / 2.0;
        let lo_i = ((k as f64 / 2.0 - half).floor().max(0.0)) as usize;
        let hi_i = ((k as f64 / 2.0 + half).ceil() as usize).min(k - 1);
        let mean = counts.iter().sum::<u64>() as f64 / k as f64;
        let var = counts
            .iter()
            .map(|&c| (c as f64 - mean).powi(2))
            .sum::<f64>()
            / (k.max(2) - 1) as f64;
        let se = (var / k as f64).sqrt();
        let mut m = Metrics::new(&METRICS);
        m.set("n_values", n)
            .set("first_collision_median", median)
            .set("first_collision_median_lo", counts[lo_i] as f64)
            .set("first_collision_median_hi", counts[hi_i] as f64)
            .set("median_theory", bd::median_first_collision(n))
            .set("first_collision_mean", mean)
            .set("first_collision_mean_lo", mean - Z95 * se)
            .set("first_collision_mean_hi", mean + Z95 * se)
            .set("mean_theory", bd::mean_first_collision(n))
            .set("log2_median", median.log2())
            .set("half_bits", bits as f64 / 2.0)
            .set("tb_of_1mb_files_at_median", median * 1e6 / 1e12)
            .set("pairs_at_median", median * (median - 1.0) / 2.0)
            .set("searches_done", k)
            .set("keys_hashed", hashed)
            .set("width", h.width());
        for (label, q) in AT {
            let at = q * n.sqrt();
            // a search that stopped at c keys has a collision among the first `at` keys iff c <= at
            let hit = counts.partition_point(|&c| (c as f64) <= at) as u64;
            let prop = Proportion::new(hit, k as u64);
            m.set_proportion(&format!("p_at_{label}"), &prop);
            m.set(
                &format!("p_at_{label}_theory"),
                bd::p_collision_approx(at, n),
            );
        }
        Ok(m)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let theory: Vec<Point> = (0..=60)
            .map(|i| i as f64 * 0.05)
            .map(|q| Point::new(q, bd::p_collision_approx(q, 1.0)))
            .collect();
        let mut c = Chart::new(
            "p_collision",
            "P(first collision within m keys) vs m/√N",
            "m / √N",
            "P(collision)",
        )
        .series(Series::new("1 - e^(-m²/2N)", Style::Line, theory))
        .vline(1.177_410_022_515_474_6, "m = 1.177·√N (50%)");
        let mut med = Chart::new(
            "first_collision",
            "Keys at the first collision (median, 95% CI)",
            "hash (index in table)",
            "keys",
        )
        .hline(77_163.0, "1.177·√2^32 = 77,163");
        for (i, r) in t.rows.iter().enumerate() {
            let label = format!("{} @{} bits", t.str(r, "hash"), t.str(r, "bits"));
            let pts: Vec<Point> = AT
                .iter()
                .filter_map(|(l, q)| {
                    let y = t.f64(r, &format!("p_at_{l}"))?;
                    Some(Point::with_interval(
                        *q,
                        y,
                        t.f64(r, &format!("p_at_{l}_lo"))?,
                        t.f64(r, &format!("p_at_{l}_hi"))?,
                    ))
                })
                .collect();
            c = c.series(Series::new(label.clone(), Style::Points, pts));
            if let (Some(y), Some(lo), Some(hi)) = (
                t.f64(r, "first_collision_median"),
                t.f64(r, "first_collision_median_lo"),
                t.f64(r, "first_collision_median_hi"),
            ) {
                med = med.series(Series::new(
                    label,
                    Style::Points,
                    vec![Point::with_interval(i as f64 + 1.0, y, lo, hi)],
                ));
            }
        }
        vec![c, med]
    }

    fn section(&self, t: &Table) -> Section {
        let table = t.project(
            &[
                "hash",
                "bits",
                "searches",
                "first_collision_median",
                "first_collision_median_lo",
                "first_collision_median_hi",
                "median_theory",
                "first_collision_mean",
                "mean_theory",
                "log2_median",
                "p_at_0_25",
                "p_at_0_25_theory",
            ],
            |_| true,
        );
        let meds: Vec<String> = t
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    t.str(r, "hash"),
                    sig(t.f64(r, "first_collision_median").unwrap_or(f64::NAN), 5)
                )
            })
            .collect();
        Section {
            table,
            reading: format!(
                "Median keys at the first collision: {} (theory √(2N ln 2) = {} for 32 bits): the truncation width sets the bound, whatever the function.",
                meds.join(", "),
                sig(bd::median_first_collision(2f64.powi(32)), 5)
            ),
        }
    }
}

static BOUND_PARAMS: [ParamDef; 3] = [
    ParamDef::new(
        "bits",
        PType::Float {
            min: 0.0,
            max: 256.0,
            min_open: true,
            max_open: false,
        },
        Def::Required,
        "log2 of the number of equally likely values (8.5117 = 365 days)",
    ),
    ParamDef::new(
        "m",
        PType::Int {
            min: 0,
            max: 100_000_000,
        },
        Def::Int(0),
        "items for the exact probability and pair count (0: none)",
    ),
    ParamDef::new(
        "rate",
        PType::Float {
            min: 0.0,
            max: f64::INFINITY,
            min_open: true,
            max_open: true,
        },
        Def::Float(1e9),
        "items generated per second, for the waiting times",
    ),
];

static BOUND_METRICS: [&str; 12] = [
    "n_values",
    "sqrt_n",
    "m_one_in_a_million",
    "m_50pct",
    "m_50pct_over_sqrt_n",
    "m_one_expected",
    "years_to_sqrt_n",
    "years_to_50pct",
    "pairs_at_m",
    "p_exact_at_m",
    "p_approx_at_m",
    "p_pairs_at_m",
];

impl Kind for BirthdayBound {
    fn info(&self) -> &'static KindInfo {
        &BOUND_INFO
    }

    fn run(&self, p: &Params, _seed: u64) -> anyhow::Result<Metrics> {
        let n = 2f64.powf(p.float("bits"));
        let m_items = p.u64("m");
        let year = 365.25 * 86_400.0;
        let rate = p.float("rate");
        let mut r = Metrics::new(&BOUND_METRICS);
        r.set("n_values", n)
            .set("sqrt_n", n.sqrt())
            .set("m_one_in_a_million", bd::items_for_probability(1e-6, n))
            .set("m_50pct", bd::items_for_probability(0.5, n))
            .set(
                "m_50pct_over_sqrt_n",
                bd::items_for_probability(0.5, n) / n.sqrt(),
            )
            .set("m_one_expected", bd::items_for_one_expected(n))
            .set("years_to_sqrt_n", n.sqrt() / rate / year)
            .set(
                "years_to_50pct",
                bd::items_for_probability(0.5, n) / rate / year,
            );
        if m_items > 0 {
            let mf = m_items as f64;
            r.set("pairs_at_m", mf * (mf - 1.0) / 2.0)
                .set("p_exact_at_m", bd::p_collision_exact(m_items, n))
                .set("p_approx_at_m", bd::p_collision_approx(mf, n))
                .set("p_pairs_at_m", bd::expected_pairs(mf, n));
        }
        Ok(r)
    }

    fn charts(&self, t: &Table) -> Vec<Chart> {
        let rows: Vec<_> = t.rows.iter().collect();
        vec![
            Chart::new(
                "bound_by_width",
                "Items before a collision, by hash width",
                "hash width (bits)",
                "items",
            )
            .log_y()
            .series(Series::new(
                "1 in a million",
                Style::LinePoints,
                common::points(t, &rows, "bits", "m_one_in_a_million"),
            ))
            .series(Series::new(
                "50%",
                Style::LinePoints,
                common::points(t, &rows, "bits", "m_50pct"),
            ))
            .series(Series::new(
                "one expected collision",
                Style::LinePoints,
                common::points(t, &rows, "bits", "m_one_expected"),
            )),
        ]
    }

    fn section(&self, t: &Table) -> Section {
        let table = t.project(
            &[
                "bits",
                "n_values",
                "m_one_in_a_million",
                "m_50pct",
                "m_one_expected",
                "sqrt_n",
                "years_to_sqrt_n",
                "m",
                "pairs_at_m",
                "p_exact_at_m",
                "p_approx_at_m",
            ],
            |_| true,
        );
        Section {
            table,
            reading: "Each extra bit of hash width multiplies every column by √2: an n-bit hash collides after about 2^(n/2) items, and the waiting time at a fixed rate grows the same way.".into(),
        }
    }
}
