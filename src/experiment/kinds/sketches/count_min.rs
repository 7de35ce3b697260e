//! `count_min`: a Count-Min sketch (w = ⌈e/ε⌉, d rows) over a Zipf stream;
//! every key of the universe is queried afterwards against its exact count.
//! One row per frequency bin of the true counts ("0", "1-9", "10-99", …)
//! plus an "all" row: overshoot, the share of keys beyond εN next to
//! δ = e^−d, underestimates (must be 0 unless a counter saturated), a row's
//! mean overshoot next to N/w, whether "every frequency" stayed within εN, and
//! the Apache DataSketches Count-Min on the same stream.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::params::{Def, HashSeed, PType, ParamDef, Seeds};
use crate::hashing::{KeyHasher, StrategyId};
use crate::stats::Proportion;
use crate::structures::count_min::{CountMin, Counter, Rows, theory};
use crate::table::Interval;
use crate::workload::zipf::ZipfStream;
use crate::workload::{KeyGen, KeyType};
use datasketches::countmin::CountMinSketch;
use datasketches::hash::value::raw_bytes;

pub struct CountMinStudy;

crate::closed_set! {
    /// The values of `counter`.
    pub enum Width {
        U32 = "u32",
        U64 = "u64",
    }
}

crate::params! {
    pub struct P {
        universe: u64 [count] = common::count(Def::Int(1_000_000), "distinct keys the stream draws from"),
        updates: u64 [count] = common::count(Def::Int(10_000_000), "updates in the stream"),
        s: f64 [number] = common::positive(10.0, Def::Float(1.1), "Zipf exponent"),
        eps: f64 [fraction] = common::rate(Def::Float(0.001), "w = ceil(e/eps) counters per row"),
        depth: u64 [count] = common::int(1, 64, Def::Int(4), "d rows (delta = e^-d)"),
        rows: Rows = common::choice(Rows::NAMES, Def::Str("double"), "row columns from one 128-bit hash: (h1 + i·s) mod w, or a different function of it per row"),
        counter: Width = common::choice(Width::NAMES, Def::Str("u32"), "counter width (saturating)"),
        conservative: bool = ParamDef::new("", PType::Bool, Def::Bool(false), "conservative update instead of plain"),
        weight: u64 [count] = common::count(Def::Int(1), "count added by each update (N = updates x weight)"),
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        keys: KeyType = KEYS,
    }
}

crate::row! {
    pub struct R, summary Rs {
        /// Keys by true count: "all", "0", "1-9", "10-99", …
        bin: String [Key],
        w: u64 [Same, count],
        d: u64 [Same, count],
        bytes: u64 [Same, bytes],
        total: u64 [Same, count],
        /// εN with ε = e/w (what the bound promises).
        eps_n: f64 [Same, count],
        /// δ = e^−d.
        delta: f64 [Same, fraction],
        n_over_w: f64 [Same, count],
        keys_in_bin: f64 [count],
        /// Keys whose overshoot exceeds εN.
        over_eps_n: Proportion [fraction],
        underestimates: u64 [Sum, count],
        mean_overshoot: Option<f64> [count],
        /// overshoot / true count (keys with a count ≥ 1).
        mean_rel_error: Option<f64> [relative_error],
        max_overshoot: u64 [Max, count],
        /// "all" only: each row's cell − truth, averaged over keys and rows.
        row_overshoot: Option<f64> [count],
        /// "all" only: (key, row) pairs whose cell exceeds εN (Markov: ≤ 1/e).
        row_exceeds: Option<Proportion> [fraction],
        /// "all" only: the share beyond εN if the d rows were independent,
        /// (row_exceeds)^d.
        all_rows_if_independent: Option<f64> [fraction],
        /// "all" only: over_eps_n ÷ all_rows_if_independent, with over_eps_n's
        /// Wilson interval (1 when the rows act as independent hashes).
        all_rows_vs_independent: Option<Interval> [ratio],
        /// "all" only: no key beyond εN ("every frequency").
        every_within: Option<bool> [Mean],
        saturated: Option<bool> [Mean],
        /// "all", plain update only: two sketches of the even and odd updates,
        /// merged cell-wise, equal this sketch cell for cell.
        merge_exact: Option<bool> [Mean],
        /// DataSketches Count-Min (same w, d, u64 counters, plain update) on the same stream.
        peer_over_eps_n: Option<Proportion> [fraction],
        peer_mean_overshoot: Option<f64> [count],
        peer_underestimates: Option<u64> [Sum, count],
        peer_bytes: Option<u64> [Same, bytes],
    }
}

/// "0", "1-9", "10-99", … for a true count.
fn bin_of(count: u64) -> String {
    if count == 0 {
        return "0".into();
    }
    let lo = 10u64.pow(count.ilog10());
    format!("{lo}-{}", lo * 10 - 1)
}

#[derive(Default, Clone)]
struct Acc {
    keys: u64,
    over: u64,
    under: u64,
    overshoot: f64,
    rel: f64,
    rel_n: u64,
    max: u64,
    peer_over: u64,
    peer_under: u64,
    peer_overshoot: f64,
}

impl CountMinStudy {
    fn measure<C: Counter, H: KeyHasher>(
        &self,
        p: &P,
        seeds: Seeds,
        h: H,
    ) -> anyhow::Result<Vec<R>> {
        let w = theory::width(p.eps);
        let cm_hasher = h.clone();
        let rows = if p.rows == Rows::Independent {
            Rows::Independent
        } else {
            Rows::Double
        };
        let mut cm = CountMin::<C, H>::new(w, p.depth, h)?.with_rows(rows);
        let with_peer = p.counter == Width::U64 && !p.conservative;
        let mut peer = with_peer
            .then(|| {
                CountMinSketch::<u64>::with_seed(p.depth as u8, w as u32, seeds.derive("peer"))
            })
            .transpose()?;
        let mut stream =
            ZipfStream::new(p.universe, p.s, seeds.derive("stream")).map_err(anyhow::Error::msg)?;
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let mut truth = vec![0u64; p.universe as usize];
        let mut halves = (!p.conservative)
            .then(|| -> anyhow::Result<_> {
                Ok([
                    CountMin::<C, H>::new(w, p.depth, cm_hasher.clone())?.with_rows(rows),
                    CountMin::<C, H>::new(w, p.depth, cm_hasher.clone())?.with_rows(rows),
                ])
            })
            .transpose()?;
        for i in 0..p.updates {
            let id = stream.next_id();
            truth[id as usize] += p.weight;
            let key = keys.key(id);
            if p.conservative {
                cm.update_conservative(key, p.weight);
            } else {
                cm.update(key, p.weight);
            }
            if let Some(hs) = halves.as_mut() {
                hs[(i % 2) as usize].update(key, p.weight);
            }
            if let Some(pe) = peer.as_mut() {
                pe.update_with_weight(raw_bytes::from_slice(key), p.weight);
            }
        }
        let merge_exact = match halves {
            Some([mut a, b]) => {
                crate::structures::Mergeable::merge(&mut a, &b)?;
                Some(a.cells() == cm.cells())
            }
            None => None,
        };
        let n = cm.total();
        let eps_n = theory::eps_of_width(w) * n as f64;
        let mut bins: std::collections::BTreeMap<(u64, String), Acc> = Default::default();
        let mut all = Acc::default();
        let (mut row_sum, mut row_exceed) = (0f64, 0u64);
        for id in 0..p.universe {
            let key = keys.key(id);
            let t = truth[id as usize];
            let mut est = u64::MAX;
            for c in cm.cells_of(key) {
                est = est.min(c);
                row_sum += c as f64 - t as f64;
                row_exceed += (c as f64 - t as f64 > eps_n) as u64;
            }
            let order = if t == 0 { 0 } else { t.ilog10() as u64 + 1 };
            // the peer's estimate, once per key (both accumulators take it)
            let pest = peer
                .as_ref()
                .map(|pe| pe.estimate(raw_bytes::from_slice(key)));
            let b = bins.entry((order, bin_of(t))).or_default();
            for acc in [&mut *b, &mut all] {
                acc.keys += 1;
                let over = est.saturating_sub(t);
                acc.under += (est < t) as u64;
                acc.over += (over as f64 > eps_n) as u64;
                acc.overshoot += over as f64;
                acc.max = acc.max.max(over);
                if t > 0 {
                    acc.rel += over as f64 / t as f64;
                    acc.rel_n += 1;
                }
                if let Some(pest) = pest {
                    acc.peer_under += (pest < t) as u64;
                    let po = pest.saturating_sub(t);
                    acc.peer_over += (po as f64 > eps_n) as u64;
                    acc.peer_overshoot += po as f64;
                }
            }
        }
        let independent = (row_exceed as f64 / (p.universe * p.depth) as f64).powi(p.depth as i32);
        let row = |bin: String, a: &Acc, is_all: bool| R {
            bin,
            w,
            d: p.depth,
            bytes: cm.bytes(),
            total: n,
            eps_n,
            delta: theory::delta_of_depth(p.depth),
            n_over_w: n as f64 / w as f64,
            keys_in_bin: a.keys as f64,
            over_eps_n: Proportion::new(a.over, a.keys),
            underestimates: a.under,
            mean_overshoot: Some(a.overshoot / a.keys as f64),
            mean_rel_error: (a.rel_n > 0).then(|| a.rel / a.rel_n as f64),
            max_overshoot: a.max,
            row_overshoot: is_all.then(|| row_sum / (p.universe * p.depth) as f64),
            row_exceeds: is_all.then(|| Proportion::new(row_exceed, p.universe * p.depth)),
            all_rows_if_independent: is_all.then_some(independent),
            all_rows_vs_independent: (is_all && independent > 0.0).then(|| {
                let o = Proportion::new(a.over, a.keys);
                Interval::new(o.rate / independent, o.lo / independent, o.hi / independent)
            }),
            every_within: is_all.then_some(a.over == 0),
            saturated: is_all.then_some(cm.saturated()),
            merge_exact: merge_exact.filter(|_| is_all),
            peer_over_eps_n: with_peer.then(|| Proportion::new(a.peer_over, a.keys)),
            peer_mean_overshoot: with_peer.then(|| a.peer_overshoot / a.keys as f64),
            peer_underestimates: with_peer.then_some(a.peer_under),
            peer_bytes: with_peer.then_some(theory::bytes(w, p.depth, 8)),
        };
        let mut rows = vec![row("all".into(), &all, true)];
        rows.extend(
            bins.iter()
                .map(|((_, name), a)| row(name.clone(), a, false)),
        );
        Ok(rows)
    }
}

impl Measure for CountMinStudy {
    type P = P;
    type R = R;
    const NAME: &'static str = "count_min";
    const ABOUT: &'static str = "Count-Min over Zipf streams: overshoot by true frequency, keys beyond epsN vs delta, underestimates, N/w, saturation, DataSketches beside";
    const MIN_REPLICATES: u32 = 2;

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let h = p.hash_seed.hasher(p.hash, seeds);
        if p.counter == Width::U32 {
            self.measure::<u32, _>(p, seeds, h)
        } else {
            self.measure::<u64, _>(p, seeds, h)
        }
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.universe)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let (w, d) = (crate::structures::count_min::theory::width(p.eps), p.depth);
        let cell = if p.counter == Width::U64 { 8 } else { 4 };
        let sketch = crate::structures::count_min::theory::bytes(w, d, cell) as f64;
        // the exact counts: one u64 per key of the universe
        Some(
            Footprint::one(sketch, p.updates as f64 + p.universe as f64)
                .plus(p.universe as f64 * 8.0),
        )
    }
}
