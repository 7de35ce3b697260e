//! The measurements of `design quantiles`: each sketch built at a knob
//! (compression δ, k, 1/α), fed the stream (split across the nodes and
//! merged when merges are asked for), and its estimate at each quantile
//! asked scored by rank (the exact mid-rank of the estimate against q) and
//! by value (its relative distance from the exact quantile).

use crate::structures::tdigest::TDigest;
use crate::workload::values::{exact, mid_rank};
use datasketches::common::SearchCriteria;
use datasketches::kll::{KllFloat, KllSketch};
use datasketches::req::{RankAccuracy, ReqFloat, ReqSketch};
use datasketches::tdigest::TDigestMut;
use serde::Serialize;
use sketches_ddsketch::{Config as DdConfig, DDSketch};
use std::sync::OnceLock;
use std::time::Instant;

/// DDSketch's bins and smallest value told from zero: the crate's defaults.
pub const DD_MAX_BINS: u32 = 2048;
const DD_MIN_VALUE: f64 = 1e-9;

crate::closed_set! {
    /// The sketches measured.
    pub enum Quant {
        Tdigest = "tdigest",
        DatasketchesTdigest = "datasketches_tdigest",
        Kll = "kll",
        Req = "req",
        Ddsketch = "ddsketch",
    }
}

/// The knobs a constructor accepts, probed once: the smallest and largest
/// it builds (u16 k for DataSketches).
fn probed(ok: impl Fn(u64) -> bool, hi: u64) -> (u64, u64) {
    let lo = (1..=hi).find(|&k| ok(k)).unwrap_or(hi);
    let top = (lo..=hi).rev().find(|&k| ok(k)).unwrap_or(lo);
    (lo, top)
}

impl Quant {
    /// The knob's range, from the implementation: DataSketches' k as its
    /// constructors accept it; sketchlab's δ from 10 to 10^5; DDSketch's
    /// 1/α from 2 (α = 50%) to 10^5.
    pub fn range(self) -> (u64, u64) {
        static DS: OnceLock<[(u64, u64); 3]> = OnceLock::new();
        let ds = DS.get_or_init(|| {
            let max = u16::MAX as u64;
            [
                probed(|k| TDigestMut::new(k as u16).is_ok(), max),
                probed(|k| KllSketch::<KllFloat<f64>>::new(k as u16).is_ok(), max),
                probed(
                    |k| ReqSketch::<ReqFloat<f64>>::new(k as u16, RankAccuracy::HighRank).is_ok(),
                    max,
                ),
            ]
        });
        match self {
            Quant::Tdigest => (10, 100_000),
            Quant::DatasketchesTdigest => ds[0],
            Quant::Kll => ds[1],
            Quant::Req => ds[2],
            Quant::Ddsketch => (2, 100_000),
        }
    }

    pub fn norm(self, k: u64) -> u64 {
        match self {
            Quant::Req => crate::design::ladder::even(k),
            _ => k,
        }
    }

    pub fn config(self, knob: u64) -> String {
        match self {
            Quant::Tdigest | Quant::DatasketchesTdigest => format!("δ = {knob}"),
            Quant::Kll | Quant::Req => format!("k = {knob}"),
            Quant::Ddsketch => format!(
                "α = {}, {DD_MAX_BINS} bins",
                crate::export::markdown::sig(1.0 / knob as f64, 3)
            ),
        }
    }

    /// Where the walk starts: the implementation's own rule for the
    /// target where it has one (KLL: the smallest k whose
    /// `normalized_rank_error` meets a rank target; DDSketch: α = the
    /// relative target), else its default (δ = 100, KLL k = 200, REQ
    /// k = 12, DDSketch α = 1%).
    pub fn start(self, rank_error: Option<f64>, relative_error: Option<f64>) -> u64 {
        match (self, rank_error, relative_error) {
            (Quant::Kll, Some(e), _) => {
                let (lo, hi) = self.range();
                let fits = |k: u64| {
                    KllSketch::<KllFloat<f64>>::new(k as u16)
                        .is_ok_and(|s| s.normalized_rank_error() <= e)
                };
                let (mut a, mut b) = (lo, hi);
                if !fits(b) {
                    return b;
                }
                while b - a > 1 {
                    let mid = a + (b - a) / 2;
                    if fits(mid) { b = mid } else { a = mid }
                }
                b
            }
            (Quant::Ddsketch, _, Some(a)) => (1.0 / a).ceil() as u64,
            (Quant::Ddsketch, ..) => 100,
            (Quant::Kll, ..) => 200,
            (Quant::Req, ..) => 12,
            _ => 100,
        }
    }
}

/// A sketch being fed.
enum Built {
    Td(TDigest),
    Ds(TDigestMut),
    Kll(KllSketch<KllFloat<f64>>),
    Req(ReqSketch<ReqFloat<f64>>),
    Dd(Box<DDSketch>),
}

impl Built {
    fn new(q: Quant, knob: u64, accuracy: RankAccuracy) -> anyhow::Result<Built> {
        Ok(match q {
            Quant::Tdigest => Built::Td(TDigest::new(knob as f64)?),
            Quant::DatasketchesTdigest => Built::Ds(TDigestMut::new(knob as u16)?),
            Quant::Kll => Built::Kll(KllSketch::new(knob as u16)?),
            Quant::Req => Built::Req(ReqSketch::new(knob as u16, accuracy)?),
            Quant::Ddsketch => Built::Dd(Box::new(DDSketch::new(DdConfig::new(
                1.0 / knob as f64,
                DD_MAX_BINS,
                DD_MIN_VALUE,
            )))),
        })
    }

    fn feed(&mut self, values: &[f64]) -> anyhow::Result<()> {
        match self {
            Built::Td(t) => values.iter().for_each(|&x| t.add(x)),
            Built::Ds(t) => values.iter().for_each(|&x| t.update(x)),
            Built::Kll(s) => {
                for &x in values {
                    s.update(KllFloat::<f64>::new(x)?);
                }
            }
            Built::Req(s) => {
                for &x in values {
                    s.update(ReqFloat::<f64>::new(x)?);
                }
            }
            Built::Dd(d) => values.iter().for_each(|&x| d.add(x)),
        }
        Ok(())
    }

    fn merge(&mut self, other: &Built) -> anyhow::Result<()> {
        match (self, other) {
            (Built::Td(a), Built::Td(b)) => a.merge(b),
            (Built::Ds(a), Built::Ds(b)) => a.merge(b),
            (Built::Kll(a), Built::Kll(b)) => a.merge(b)?,
            (Built::Req(a), Built::Req(b)) => a.merge(b)?,
            (Built::Dd(a), Built::Dd(b)) => a.merge(b)?,
            _ => anyhow::bail!("merging two different sketches"),
        }
        Ok(())
    }

    fn quantile(&mut self, q: f64) -> anyhow::Result<Option<f64>> {
        Ok(match self {
            Built::Td(t) => t.quantile(q),
            Built::Ds(t) => t.quantile(q)?,
            Built::Kll(s) => s.quantile(q, SearchCriteria::Inclusive)?.map(|v| *v),
            Built::Req(s) => s.quantile(q, SearchCriteria::Inclusive)?.map(|v| *v),
            Built::Dd(d) => d.quantile(q)?,
        })
    }

    /// Bytes of the serialized state (sketchlab's t-digest: its centroids).
    fn bytes(&mut self) -> u64 {
        (match self {
            Built::Td(t) => t.bytes(),
            Built::Ds(t) => t.serialize().len(),
            Built::Kll(s) => s.serialize().len(),
            Built::Req(s) => s.serialize().len(),
            Built::Dd(d) => d.to_java_bytes().len(),
        }) as u64
    }
}

/// One sketch at one knob, measured.
#[derive(Clone, Debug, Serialize)]
pub struct QuantMeasured {
    pub structure: String,
    pub config: String,
    pub knob: u64,
    /// The largest serialized bytes of the (merged) sketch over the streams.
    pub bytes: u64,
    /// The largest serialized bytes of one node's sketch (merges only).
    pub node_bytes: Option<u64>,
    /// The worst |rank of the estimate − q| over the quantiles and streams,
    /// and at each quantile asked (worst over the streams).
    pub rank_error: f64,
    pub rank_error_at: Vec<f64>,
    /// The worst |estimate − x_q| / |x_q| likewise.
    pub relative_error: f64,
    pub relative_error_at: Vec<f64>,
    pub ns_per_update: f64,
    pub meets: bool,
}

impl crate::design::ladder::Rung for QuantMeasured {
    fn knob(&self) -> u64 {
        self.knob
    }
    fn bytes(&self) -> u64 {
        self.bytes
    }
    fn meets(&self) -> bool {
        self.meets
    }
    fn config(&self) -> &str {
        &self.config
    }
}

/// The streams measured, each sorted once for the exact ranks.
pub struct Streams {
    pub streams: Vec<Vec<f64>>,
    pub sorted: Vec<Vec<f64>>,
}

impl Streams {
    pub fn new(streams: Vec<Vec<f64>>) -> Streams {
        let sorted = streams
            .iter()
            .map(|s| {
                let mut v = s.clone();
                crate::workload::values::sort(&mut v);
                v
            })
            .collect();
        Streams { streams, sorted }
    }
}

/// What the sketch is measured for.
#[derive(Clone, Debug)]
pub struct Target {
    pub quantiles: Vec<f64>,
    pub rank_error: Option<f64>,
    pub relative_error: Option<f64>,
    /// Sketches merged per stream (1: none).
    pub nodes: u64,
    pub accuracy: RankAccuracy,
}

/// Feeds each stream to `q` at `knob` (split across `nodes` sketches and
/// merged) and scores its estimates.
pub fn measure(q: Quant, knob: u64, s: &Streams, t: &Target) -> anyhow::Result<QuantMeasured> {
    let k = t.quantiles.len();
    let (mut rank_at, mut rel_at) = (vec![0.0f64; k], vec![0.0f64; k]);
    let (mut bytes, mut node_bytes, mut ns, mut updates) = (0u64, 0u64, 0.0, 0usize);
    for (values, sorted) in s.streams.iter().zip(&s.sorted) {
        let part = values.len().div_ceil(t.nodes as usize).max(1);
        let start = Instant::now();
        let mut sketches = Vec::new();
        for chunk in values.chunks(part) {
            let mut b = Built::new(q, knob, t.accuracy)?;
            b.feed(chunk)?;
            sketches.push(b);
        }
        ns += start.elapsed().as_nanos() as f64;
        updates += values.len();
        let mut merged = sketches.remove(0);
        if t.nodes > 1 {
            node_bytes = node_bytes.max(merged.bytes());
            for other in &mut sketches {
                node_bytes = node_bytes.max(other.bytes());
                merged.merge(other)?;
            }
        }
        bytes = bytes.max(merged.bytes());
        for (j, &qq) in t.quantiles.iter().enumerate() {
            let (r, v) = match merged.quantile(qq)? {
                Some(x) => {
                    let truth = exact(sorted, qq);
                    let v = if truth == 0.0 {
                        x.abs()
                    } else {
                        (x - truth).abs() / truth.abs()
                    };
                    ((mid_rank(sorted, x) - qq).abs(), v)
                }
                None => (f64::INFINITY, f64::INFINITY),
            };
            rank_at[j] = rank_at[j].max(r);
            rel_at[j] = rel_at[j].max(v);
        }
    }
    let worst = |v: &[f64]| v.iter().copied().fold(0.0f64, f64::max);
    let (rank_error, relative_error) = (worst(&rank_at), worst(&rel_at));
    let meets = match (t.rank_error, t.relative_error) {
        (Some(e), _) => rank_error <= e,
        (_, Some(a)) => relative_error <= a,
        _ => false,
    };
    Ok(QuantMeasured {
        structure: q.as_str().into(),
        config: q.config(knob),
        knob,
        bytes,
        node_bytes: (t.nodes > 1).then_some(node_bytes),
        rank_error,
        rank_error_at: rank_at,
        relative_error,
        relative_error_at: rel_at,
        ns_per_update: ns / updates.max(1) as f64,
        meets,
    })
}
