//! `birthday_bound`: the essay's lost table of the birthday bound by hash
//! width, as computed rows (formulas, no sampling).

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common;
use crate::experiment::params::{Def, Seeds};
use crate::structures::birthday as bd;

pub struct BirthdayBound;

crate::params! {
    pub struct P {
        bits: f64 [bits] = common::positive(256.0, Def::Required, "log2 of the number of equally likely values (8.5117 = 365 days)"),
        m: u64 [count] = common::int(0, 100_000_000, Def::Int(0), "items for the exact probability and pair count (0: none)"),
        rate: f64 [per_second] = common::positive(f64::INFINITY, Def::Float(1e9), "items generated per second, for the waiting times"),
    }
}

crate::row! {
    pub struct R {
        n_values: f64 [Same, count],
        sqrt_n: f64 [Same, count],
        m_one_in_a_million: f64 [Same, count],
        m_50pct: f64 [Same, count],
        m_50pct_over_sqrt_n: f64 [Same, ratio],
        m_one_expected: f64 [Same, count],
        years_to_sqrt_n: f64 [Same, years],
        years_to_50pct: f64 [Same, years],
        pairs_at_m: Option<f64> [Same, count],
        p_exact_at_m: Option<f64> [Same, fraction],
        p_approx_at_m: Option<f64> [Same, fraction],
        p_pairs_at_m: Option<f64> [Same, fraction],
    }
}

impl Measure for BirthdayBound {
    type P = P;
    type R = R;
    const NAME: &'static str = "birthday_bound";
    const ABOUT: &'static str =
        "the birthday bound by hash width: items for 1-in-a-million, 50%, one expected collision";

    fn run(&self, p: &P, _seeds: Seeds) -> anyhow::Result<R> {
        let n = 2f64.powf(p.bits);
        let year = 365.25 * 86_400.0;
        let half = bd::items_for_probability(0.5, n);
        let at_m = (p.m > 0).then_some(p.m as f64);
        Ok(R {
            n_values: n,
            sqrt_n: n.sqrt(),
            m_one_in_a_million: bd::items_for_probability(1e-6, n),
            m_50pct: half,
            m_50pct_over_sqrt_n: half / n.sqrt(),
            m_one_expected: bd::items_for_one_expected(n),
            years_to_sqrt_n: n.sqrt() / p.rate / year,
            years_to_50pct: half / p.rate / year,
            pairs_at_m: at_m.map(|mf| mf * (mf - 1.0) / 2.0),
            p_exact_at_m: at_m.map(|_| bd::p_collision_exact(p.m, n)),
            p_approx_at_m: at_m.map(|mf| bd::p_collision_approx(mf, n)),
            p_pairs_at_m: at_m.map(|mf| bd::expected_pairs(mf, n)),
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        Some(Footprint::one(0.0, p.m as f64))
    }
}
