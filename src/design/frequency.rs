//! `sketchlab design frequency`: Count-Min's shape from
//! `count_min::theory`, the counter width the stream needs, and the
//! overshoot measured on a simulated Zipf stream through that very shape
//! (plain and conservative update).

use super::figures;
use super::{Review, finite, open_unit, seed_advice, sourced, within};
use crate::design::render::frequency::{
    FrequencyArgs, FrequencyReview, Measured, Shape, ShapeRow, TrustRow,
};
use crate::error::Result;
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::plot::{Chart, Point, Series, Style};
use crate::structures::count_min::{CountMin, theory};
use crate::workload::zipf::ZipfStream;
use std::path::Path;

/// Updates simulated (a shorter stream is simulated whole).
const SIMULATED_UPDATES: f64 = 2e6;
/// Keys of the simulated stream: updates / 20, within these bounds.
const UNIVERSE: (f64, f64) = (1e3, 1e5);
/// Cells above which the sketch is not simulated here (800 MB of u64).
const SIMULATED_CELLS_MAX: u64 = 100_000_000;
const SEED: u64 = 0x5eed_c0de;

/// The inputs, checked: one line naming the first bad one.
pub fn check(i: &FrequencyArgs) -> Result<()> {
    const KIND: &str = "frequency:";
    finite(
        KIND,
        &[
            ("--epsilon", i.epsilon),
            ("--delta", i.delta),
            ("--stream-length", i.stream_length),
            ("--merge-nodes", i.merge_nodes),
            ("--zipf-s", i.zipf_s),
        ],
    )?;
    open_unit(KIND, "--epsilon", i.epsilon)?;
    // w = ⌈e/ε⌉ counters per row must be a size a machine can hold
    within(KIND, "--epsilon", i.epsilon, 1e-9, 1.0)?;
    open_unit(KIND, "--delta", i.delta)?;
    within(KIND, "--delta", i.delta, 1e-300, 1.0)?;
    within(KIND, "--stream-length", i.stream_length, 1.0, 1.8e19)?;
    within(KIND, "--merge-nodes", i.merge_nodes, 1.0, 1e6)?;
    within(KIND, "--zipf-s", i.zipf_s, 0.01, 10.0)?;
    Ok(())
}

/// The overshoot of a Zipf(s) stream of `updates` updates through a w × d
/// sketch (plain and conservative), with the exceedance curve at x = 0,
/// 0.05, …, 2 (multiples of ε·updates).
fn simulate(w: u64, d: u64, eps: f64, updates: u64, s: f64) -> Measured {
    let universe = (updates as f64 / 20.0).clamp(UNIVERSE.0, UNIVERSE.1) as u64;
    let h = || HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(SEED));
    let mut plain = CountMin::<u64, _>::new(w, d, h()).expect("w, d ≥ 1");
    let mut cons = CountMin::<u64, _>::new(w, d, h()).expect("w, d ≥ 1");
    let mut truth = vec![0u64; universe as usize];
    let mut stream = ZipfStream::new(universe, s, SEED).expect("s checked");
    for _ in 0..updates {
        let id = stream.next_id();
        truth[id as usize] += 1;
        let k = id.to_le_bytes();
        plain.update(&k, 1);
        cons.update_conservative(&k, 1);
    }
    let bound = eps * updates as f64;
    let (mut over, mut cover, mut under, mut seen) = (0u64, 0u64, 0u64, 0u64);
    let (mut row_sum, mut max_over) = (0.0, 0.0f64);
    let mut overs = Vec::new();
    let mut covers = Vec::new();
    for (id, &t) in truth.iter().enumerate().filter(|(_, t)| **t > 0) {
        let k = (id as u64).to_le_bytes();
        seen += 1;
        let e = plain.estimate(&k);
        if e < t {
            under += 1;
        }
        let o = e.saturating_sub(t) as f64;
        over += u64::from(o > bound);
        max_over = max_over.max(o);
        row_sum += plain.cells_of(&k).map(|c| (c - t) as f64).sum::<f64>();
        let co = cons.estimate(&k).saturating_sub(t) as f64;
        cover += u64::from(co > bound);
        overs.push(o);
        covers.push(co);
    }
    let p = crate::stats::Proportion::new(over, seen);
    let exceedance = (0..=40)
        .map(|j| {
            let x = j as f64 / 20.0;
            let share =
                |v: &[f64]| v.iter().filter(|o| **o > x * bound).count() as f64 / seen as f64;
            (x, share(&overs), share(&covers))
        })
        .collect();
    Measured {
        updates,
        universe,
        keys_seen: seen,
        share_over_eps_n: p.rate,
        share_over_eps_n_lo: p.lo,
        share_over_eps_n_hi: p.hi,
        conservative_share_over_eps_n: cover as f64 / seen as f64,
        mean_row_overshoot_over_n_over_w: row_sum / (seen * d) as f64 / (updates as f64 / w as f64),
        max_overshoot_over_eps_n: max_over / bound,
        underestimates: under,
        exceedance,
    }
}

/// Computes the review (no file is written).
pub fn frequency(i: &FrequencyArgs, reference: &Path) -> Result<FrequencyReview> {
    check(i)?;
    let (eps, delta, n) = (i.epsilon, i.delta, i.stream_length);
    let (w, d) = (theory::width(eps), theory::depth(delta).max(1));
    let bits = (n + 1.0).log2().ceil() as u32;
    let fits_u32 = n <= u32::MAX as f64;
    let counter_bytes = if fits_u32 { 4 } else { 8 };
    let size = |w: u64, d: u64, b: u64| (w as f64) * (d as f64) * b as f64;
    let shape = Shape {
        w,
        d,
        eps_guaranteed: theory::eps_of_width(w),
        delta_guaranteed: theory::delta_of_depth(d),
        eps_n: eps * n,
        counter_bits_needed: bits,
        counter: if fits_u32 { "u32" } else { "u64" }.into(),
        bytes_u32: size(w, d, 4),
        bytes_u64: size(w, d, 8),
        bytes: size(w, d, counter_bytes),
        u32_headroom: u32::MAX as f64 / n,
    };
    let trust = [1.0, 10.0, 100.0, 1000.0]
        .iter()
        .map(|f| f * eps)
        .filter(|share| *share <= 1.0)
        .map(|share| TrustRow {
            share,
            count: share * n,
            relative_bound: eps / share,
        })
        .collect();
    let measured = (w.saturating_mul(d) <= SIMULATED_CELLS_MAX)
        .then(|| simulate(w, d, eps, n.min(SIMULATED_UPDATES) as u64, i.zipf_s));
    let reference_rows = sourced(
        reference,
        &[
            figures::CM_UNBOUNDED_STREAM_U32,
            figures::CM_EPS_N_WITH_PROBABILITY_DELTA,
            figures::CM_RARE_ITEMS_SWAMPED,
            figures::CM_ROWS_FALL_EXPONENTIALLY_DOUBLE_D6,
        ],
    );
    let mut next_digit: Vec<ShapeRow> = Vec::new();
    for (e, dl) in [
        (eps, delta),
        (eps / 10.0, delta),
        (eps, delta / 10.0),
        (eps / 10.0, delta / 10.0),
    ] {
        let (wr, dr) = (theory::width(e), theory::depth(dl).max(1));
        next_digit.push(ShapeRow {
            epsilon: e,
            delta: dl,
            w: wr,
            d: dr,
            bytes: size(wr, dr, counter_bytes),
            ratio: size(wr, dr, counter_bytes) / shape.bytes,
        });
    }
    let provenance = format!(
        "Formulas (the theory functions the studies test): w, d, the guarantees, εN, counter bits, memory. Measured on this machine: the overshoot of {} (XXH3, fixed seed, u64 counters). From the reference run `{}`: the saturation, row-hashing and attack results.",
        measured
            .as_ref()
            .map(|m| format!(
                "a simulated Zipf(s = {}) stream of {} updates through this w × d",
                i.zipf_s,
                crate::design::render::count(m.updates as f64)
            ))
            .unwrap_or_else(|| "nothing (w·d too large to simulate)".into()),
        reference.display()
    );
    let answer = frequency_answer(i, &shape, measured.as_ref());
    Ok(FrequencyReview {
        answer,
        inputs: i.clone(),
        direction: "Count-Min errs one way: an estimate is never below the true count while no counter saturates, and above it by at most εN with probability 1 − δ. Nothing behind the sketch catches the overshoot: a query returns count + collisions. That is safe for finding heavy hitters and for rate limits that may over-count; it is not a count to bill on.".into(),
        shape,
        trust,
        measured,
        reference: reference_rows,
        bytes_to_coordinator: i.merge_nodes * size(w, d, counter_bytes),
        next_digit,
        seed: seed_advice(
            i.common.seed_policy,
            reference,
            &[
                figures::COUNT_MIN_BOUND_UNDER_ATTACK,
                figures::COUNT_MIN_KEYED_RESISTS_COVER,
            ],
        ),
        charts: Vec::new(),
        provenance,
    })
}

/// Memory against ε at the review's d (u32 and u64 counters).
fn memory_chart(r: &FrequencyReview) -> Chart {
    let (eps, d) = (r.inputs.epsilon, r.shape.d);
    let (lo, hi) = ((eps / 100.0).max(1e-9), (eps * 100.0).min(0.5));
    let xs: Vec<f64> = (0..=80)
        .map(|j| lo * (hi / lo).powf(j as f64 / 80.0))
        .collect();
    let line = |b: u64| {
        xs.iter()
            .map(|&e| Point::new(e, theory::bytes(theory::width(e), d, b) as f64))
            .collect()
    };
    Chart::new(
        "memory_vs_epsilon",
        &format!("Count-Min memory vs ε at d = {d}"),
        "ε (additive error ÷ N)",
        "bytes",
    )
    .log_x()
    .log_y()
    .series(Series::new("u32 counters", Style::Line, line(4)))
    .series(Series::new("u64 counters", Style::Line, line(8)))
    .vline(eps, "your ε")
}

/// The measured exceedance curve: the share of keys whose overshoot
/// exceeds x·ε·updates, plain and conservative, against δ.
fn exceedance_chart(r: &FrequencyReview, m: &Measured) -> Chart {
    let pts = |f: fn(&(f64, f64, f64)) -> f64| {
        m.exceedance
            .iter()
            .filter(|c| f(c) > 0.0)
            .map(|c| Point::new(c.0, f(c)))
            .collect()
    };
    Chart::new(
        "overshoot_exceedance",
        "Share of keys whose overshoot exceeds x·εN (simulated stream)",
        "x (overshoot ÷ εN)",
        "share of keys",
    )
    .log_y()
    .series(Series::new("plain update", Style::LinePoints, pts(|c| c.1)))
    .series(Series::new(
        "conservative update",
        Style::LinePoints,
        pts(|c| c.2),
    ))
    .hline(r.inputs.delta, "δ")
    .vline(1.0, "εN")
}

impl Review for FrequencyReview {
    const NAME: &'static str = "frequency";
    const TITLE: &'static str = "Frequency design review";
    fn answer(&self) -> &str {
        &self.answer
    }
    fn markdown(&self) -> String {
        crate::design::render::frequency::frequency_markdown(self)
    }
    fn charts(&self) -> Vec<Chart> {
        let mut charts = vec![memory_chart(self)];
        charts.extend(self.measured.as_ref().map(|m| exceedance_chart(self, m)));
        charts
    }
    fn set_charts(&mut self, files: Vec<String>) {
        self.charts = files;
    }
}

/// The answer in one line: the Count-Min shape, its bytes (and what the
/// nodes send), and what was measured of it.
fn frequency_answer(i: &FrequencyArgs, x: &Shape, m: Option<&Measured>) -> String {
    use crate::design::render::{bytes, count};
    use crate::export::markdown::{pct, sig};
    let mut s = format!(
        "Use Count-Min with w = {} counters × d = {} rows of {} counters: {}",
        count(x.w as f64),
        x.d,
        x.counter,
        bytes(x.bytes)
    );
    if i.merge_nodes > 1.0 {
        s += &format!(
            " ({} from {} nodes to a coordinator)",
            bytes(x.bytes * i.merge_nodes),
            count(i.merge_nodes)
        );
    }
    s += &format!(
        ", every count within εN = {} above the truth with probability {}",
        count(x.eps_n),
        pct(1.0 - x.delta_guaranteed, 3)
    );
    match m {
        Some(m) => {
            s += &format!(
                "; measured on a Zipf({}) stream of {} updates: {} of the keys seen overshoot ε·updates [{}, {}] (conservative update {}), the largest overshoot {} × ε·updates",
                sig(i.zipf_s, 3),
                count(m.updates as f64),
                pct(m.share_over_eps_n, 3),
                pct(m.share_over_eps_n_lo, 3),
                pct(m.share_over_eps_n_hi, 3),
                pct(m.conservative_share_over_eps_n, 3),
                sig(m.max_overshoot_over_eps_n, 3)
            )
        }
        None => s += " (not measured here: w·d is too large to simulate)",
    }
    s + ". For the largest counts alone, `design heavy-hitters` compares SpaceSaving and the others."
}

#[cfg(test)]
mod tests {
    use super::*;

    fn essay() -> FrequencyArgs {
        FrequencyArgs {
            epsilon: 0.001,
            delta: 0.01,
            stream_length: 1e9,
            merge_nodes: 1.0,
            zipf_s: 1.1,
            common: crate::design::tests_common(),
        }
    }

    /// ε = 0.1%, δ = 1%: w = ⌈2718.28⌉ = 2,719, d = ⌈4.61⌉ = 5; εN = 10^6
    /// at N = 10^9, which fits u32 (30 bits); 10^10 needs u64 (34 bits).
    #[test]
    fn shape_counters_and_the_bound() {
        let r = frequency(&essay(), Path::new("/nonexistent")).unwrap();
        let x = &r.shape;
        assert_eq!((x.w, x.d), (2719, 5));
        assert_eq!((x.counter_bits_needed, x.counter.as_str()), (30, "u32"));
        assert_eq!(x.bytes, 2719.0 * 5.0 * 4.0);
        assert!((x.eps_n - 1e6).abs() < 1e-6);
        let long = frequency(
            &FrequencyArgs {
                stream_length: 1e10,
                ..essay()
            },
            Path::new("/nonexistent"),
        )
        .unwrap();
        assert_eq!(
            (long.shape.counter_bits_needed, long.shape.counter.as_str()),
            (34, "u64")
        );
        // a tenth of ε is ten times the counters; a tenth of δ, ⌈ln 1000⌉ = 7 rows
        assert_eq!((r.next_digit[1].w, r.next_digit[2].d), (27_183, 7));
        // the measurement: never under (no saturation with u64), and the share
        // beyond εN is within the bound δ by its Wilson interval's lower end
        let m = r.measured.as_ref().unwrap();
        assert_eq!(m.underestimates, 0);
        assert!(m.share_over_eps_n_lo <= x.delta_guaranteed, "{m:?}");
        // conservative update never reads above plain Count-Min
        assert!(m.conservative_share_over_eps_n <= m.share_over_eps_n);
    }

    #[test]
    fn bad_input_is_refused() {
        super::super::assert_refused(
            essay(),
            &[
                |i| i.epsilon = 0.0,
                |i| i.epsilon = 1.0,
                |i| i.epsilon = f64::NAN,
                |i| i.delta = 0.0,
                |i| i.delta = 1.5,
                |i| i.stream_length = -1.0,
                |i| i.stream_length = f64::INFINITY,
                |i| i.merge_nodes = 0.0,
                |i| i.zipf_s = 0.0,
            ],
            check,
        );
    }
}
