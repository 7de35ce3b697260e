//! The measurements of `design heavy-hitters`: each structure built at a
//! knob (SpaceSaving's counters, frequent items' map size, Count-Min's
//! width beside a top list), its bytes measured on a saturated build (what
//! it takes once the stream has more distinct keys than it holds), and its
//! answer on the stream read against the exact counts.

use crate::design::ladder;
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::stats::Proportion;
use crate::structures::count_min::top::TopList;
use crate::structures::count_min::{CountMin, Counter};
use crate::structures::space_saving::{self, SpaceSaving};
use datasketches::frequencies::{ErrorType, FrequentItemsSketch};
use foldhash::HashMap;
use serde::Serialize;
use std::time::Instant;

/// Count-Min rows beside the top list: d = 4, δ = e^−4 ≈ 1.8%.
pub const DEPTH: u64 = 4;
const SEED: u64 = 0x4865_6176_7948;

crate::closed_set! {
    /// The structures measured.
    pub enum Hitter {
        SpaceSaving = "space_saving",
        FrequentItems = "frequent_items",
        CountMinTop = "count_min_top",
        CountMinConservativeTop = "count_min_conservative_top",
    }
}

impl Hitter {
    /// The knob's range: at least `list` keys held, up to what the
    /// implementation accepts (frequent items: a map of 2^3 … 2^30 slots).
    pub fn range(self, list: u64) -> (u64, u64) {
        match self {
            Hitter::SpaceSaving => (list.max(1), 1 << 28),
            // a map holds 0.75 of its slots
            Hitter::FrequentItems => (ladder::pow2((list * 4).div_ceil(3)).max(8), 1 << 30),
            _ => (16, 1 << 28),
        }
    }

    pub fn norm(self, k: u64) -> u64 {
        match self {
            Hitter::FrequentItems => ladder::pow2(k),
            _ => k,
        }
    }

    /// The knob the structure's own bound gives for an error share `e`:
    /// SpaceSaving N/k, frequent items 3.5·N/M, Count-Min e·N/w.
    pub fn theory_knob(self, e: f64) -> u64 {
        match self {
            Hitter::SpaceSaving => (1.0 / e).ceil() as u64,
            Hitter::FrequentItems => (3.5 / e).ceil() as u64,
            _ => (std::f64::consts::E / e).ceil() as u64,
        }
    }

    /// The bound on a count's error ÷ N at this knob, and its rule.
    pub fn bound(self, knob: u64) -> (f64, &'static str) {
        match self {
            Hitter::SpaceSaving => (
                space_saving::theory::overestimate_share(knob),
                "N/k (SpaceSaving)",
            ),
            Hitter::FrequentItems => (3.5 / knob as f64, "3.5·N/M (DataSketches)"),
            _ => (
                std::f64::consts::E / knob as f64,
                "e·N/w with probability 1 − e^−4 (Count-Min)",
            ),
        }
    }

    pub fn config(self, knob: u64, list: u64) -> String {
        use crate::design::render::count;
        match self {
            Hitter::SpaceSaving => format!("k = {} counters", count(knob as f64)),
            Hitter::FrequentItems => format!("map of 2^{} slots", knob.ilog2()),
            _ => format!(
                "w = {} × d = {DEPTH}, top list of {}",
                count(knob as f64),
                count(list as f64)
            ),
        }
    }
}

/// Count-Min's counters: u32 while the stream fits them, else u64.
enum Cm {
    U32(CountMin<u32, HashStrategy>),
    U64(CountMin<u64, HashStrategy>),
}

fn cm_update<C: Counter>(cm: &mut CountMin<C, HashStrategy>, k: &[u8], conservative: bool) -> u64 {
    if conservative {
        cm.update_conservative(k, 1);
    } else {
        cm.update(k, 1);
    }
    cm.estimate(k)
}

/// A structure being fed.
enum Built {
    Ss(SpaceSaving),
    Fi(FrequentItemsSketch<u64>),
    Cm(Cm, TopList, bool),
}

impl Built {
    fn new(h: Hitter, knob: u64, list: u64, wide: bool) -> anyhow::Result<Built> {
        let hasher = || HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(SEED));
        Ok(match h {
            Hitter::SpaceSaving => Built::Ss(SpaceSaving::new(knob as usize)?),
            Hitter::FrequentItems => Built::Fi(FrequentItemsSketch::new(knob as usize)?),
            _ => {
                let cm = if wide {
                    Cm::U64(CountMin::new(knob, DEPTH, hasher())?)
                } else {
                    Cm::U32(CountMin::new(knob, DEPTH, hasher())?)
                };
                Built::Cm(
                    cm,
                    TopList::new(list as usize),
                    h == Hitter::CountMinConservativeTop,
                )
            }
        })
    }

    #[inline]
    fn update(&mut self, key: u64) {
        match self {
            Built::Ss(s) => s.insert(key),
            Built::Fi(f) => f.update(key),
            Built::Cm(cm, list, conservative) => {
                let b = key.to_le_bytes();
                let e = match cm {
                    Cm::U32(c) => cm_update(c, &b, *conservative),
                    Cm::U64(c) => cm_update(c, &b, *conservative),
                };
                list.offer(key, e);
            }
        }
    }

    fn estimate(&self, key: u64) -> u64 {
        match self {
            Built::Ss(s) => s.estimate(key),
            Built::Fi(f) => f.estimate(&key),
            Built::Cm(Cm::U32(c), ..) => c.estimate(&key.to_le_bytes()),
            Built::Cm(Cm::U64(c), ..) => c.estimate(&key.to_le_bytes()),
        }
    }

    /// What it reports: the `top` keys of highest estimate, or (`above`)
    /// every key whose estimate exceeds that count.
    fn report(&self, want: Want) -> Vec<(u64, u64)> {
        let mut rows: Vec<(u64, u64)> = match self {
            Built::Ss(s) => s.top(s.counters()),
            Built::Fi(f) => f
                .frequent_items_with_threshold(ErrorType::NoFalseNegatives, 0)
                .iter()
                .map(|r| (*r.item(), r.estimate()))
                .collect(),
            Built::Cm(_, list, _) => list.rows(),
        };
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        match want {
            Want::Top(k) => rows.truncate(k as usize),
            Want::Above(c) => rows.retain(|r| r.1 as f64 > c),
        }
        rows
    }

    /// The structure's own accounting of its state (without the counting
    /// allocator): SpaceSaving 24 bytes a counter, frequent items'
    /// `estimated_size`, Count-Min's cells and 16 bytes a listed key.
    fn own_bytes(&self, list: u64) -> u64 {
        match self {
            Built::Ss(s) => s.bytes(),
            Built::Fi(f) => f.estimated_size() as u64,
            Built::Cm(Cm::U32(c), ..) => c.bytes() + 16 * list,
            Built::Cm(Cm::U64(c), ..) => c.bytes() + 16 * list,
        }
    }
}

/// What is wanted: the top k keys, or every key above a count.
#[derive(Clone, Copy, Debug)]
pub enum Want {
    Top(u64),
    Above(f64),
}

/// The stream's exact counts and the wanted keys.
pub struct Truth {
    pub counts: HashMap<u64, u64>,
    /// Keys at least as frequent as the k-th (ties kept), or above φ·m.
    pub wanted: HashMap<u64, u64>,
    pub want: Want,
}

impl Truth {
    pub fn new(stream: &[u64], top: Option<u64>, phi: Option<f64>) -> Truth {
        let mut counts: HashMap<u64, u64> = HashMap::default();
        stream
            .iter()
            .for_each(|&k| *counts.entry(k).or_default() += 1);
        let (want, cut): (Want, Box<dyn Fn(u64) -> bool>) = match (top, phi) {
            (Some(k), _) => {
                let mut c: Vec<u64> = counts.values().copied().collect();
                c.sort_unstable_by(|a, b| b.cmp(a));
                let at = c.get(k as usize - 1).copied().unwrap_or(1).max(1);
                (Want::Top(k), Box::new(move |x| x >= at))
            }
            (None, phi) => {
                let above = phi.unwrap_or(1.0) * stream.len() as f64;
                (Want::Above(above), Box::new(move |x| x as f64 > above))
            }
        };
        let wanted = counts
            .iter()
            .filter(|&(_, &c)| cut(c))
            .map(|(&k, &c)| (k, c))
            .collect();
        Truth {
            counts,
            wanted,
            want,
        }
    }

    /// How many wanted keys a right answer names: k (or fewer when the
    /// stream has fewer keys), or every key above the count.
    pub fn needed(&self) -> u64 {
        match self.want {
            Want::Top(k) => k.min(self.wanted.len() as u64),
            Want::Above(_) => self.wanted.len() as u64,
        }
    }
}

/// One structure at one knob, measured on the stream.
#[derive(Clone, Debug, Serialize)]
pub struct HitterMeasured {
    pub structure: String,
    pub config: String,
    pub knob: u64,
    /// Bytes of a saturated build (see [`bytes_of`]).
    pub bytes: u64,
    /// Keys reported, and of them the wanted ones.
    pub reported: u64,
    pub found: u64,
    /// found ÷ the keys a right answer names, with its 95% Wilson interval.
    pub recall: f64,
    pub recall_lo: f64,
    pub recall_hi: f64,
    /// found ÷ reported, with its 95% Wilson interval.
    pub precision: f64,
    pub precision_lo: f64,
    pub precision_hi: f64,
    /// The largest |estimate − count| over the wanted keys reported, ÷ the
    /// updates measured.
    pub max_error_share: f64,
    /// Their mean |estimate − count| / count.
    pub mean_relative_error: f64,
    /// The structure's bound on a count's error, ÷ N, and its rule.
    pub bound_share: f64,
    pub bound_rule: String,
    pub ns_per_update: f64,
    /// Whether it meets the error target (None under a memory budget).
    pub meets: Option<bool>,
}

impl crate::design::ladder::Rung for HitterMeasured {
    fn knob(&self) -> u64 {
        self.knob
    }
    fn bytes(&self) -> u64 {
        self.bytes
    }
    fn meets(&self) -> bool {
        self.meets == Some(true)
    }
    fn config(&self) -> &str {
        &self.config
    }
}

/// The bytes a structure takes at this knob once saturated, measured by
/// the counting allocator (`true`) or, without it, by the structure's own
/// accounting (`false`). Saturated: fed 16 times as many distinct keys as
/// it holds in a hash map (SpaceSaving's counters, Count-Min's top list),
/// so the evictions' churn has grown the map to where it stays (a map
/// whose tombstones run out doubles), and twice a frequent-items map's
/// slots (its map is fixed once full: it purges).
pub fn bytes_of(h: Hitter, knob: u64, list: u64, wide: bool) -> anyhow::Result<(u64, bool)> {
    let fill = match h {
        Hitter::SpaceSaving => 16 * knob.max(list),
        Hitter::FrequentItems => 2 * knob,
        _ => 16 * list,
    };
    let build = || -> anyhow::Result<Built> {
        let mut b = Built::new(h, knob, list, wide)?;
        (0..fill).for_each(|i| b.update(crate::hashing::splitmix64(i ^ SEED)));
        Ok(b)
    };
    let (b, measured) = crate::metrics::alloc::measure_retained(build);
    let b = b?;
    Ok(match measured {
        Some(bytes) => (bytes, true),
        None => (b.own_bytes(list), false),
    })
}

/// Feeds `stream` to `h` at `knob` and reads its answer against `truth`;
/// `error` is the target share (None: a memory budget).
/// `bytes`: its saturated bytes when already measured (else measured here).
pub fn measure(
    h: Hitter,
    (knob, bytes): (u64, Option<u64>),
    list: u64,
    stream: &[u64],
    truth: &Truth,
    error: Option<f64>,
) -> anyhow::Result<HitterMeasured> {
    let wide = stream.len() as u64 > u32::MAX as u64;
    let bytes = match bytes {
        Some(b) => b,
        None => bytes_of(h, knob, list, wide)?.0,
    };
    let mut b = Built::new(h, knob, list, wide)?;
    let t = Instant::now();
    for &k in stream {
        b.update(k);
    }
    let ns = t.elapsed().as_nanos() as f64 / stream.len().max(1) as f64;
    let reported = b.report(truth.want);
    let m = stream.len() as f64;
    let (mut found, mut max_err, mut rel) = (0u64, 0.0f64, 0.0);
    for &(k, _) in &reported {
        if let Some(&c) = truth.wanted.get(&k) {
            found += 1;
            let d = (b.estimate(k) as f64 - c as f64).abs();
            max_err = max_err.max(d / m);
            rel += d / c as f64;
        }
    }
    let needed = truth.needed();
    let recall = Proportion::new(found.min(needed), needed);
    let precision = Proportion::new(found, reported.len() as u64);
    // 0 of 0: nothing was wanted and nothing missed (or nothing reported)
    let or_one = |p: &Proportion| {
        if p.trials == 0 {
            (1.0, 1.0, 1.0)
        } else {
            (p.rate, p.lo, p.hi)
        }
    };
    let (r, rl, rh) = or_one(&recall);
    let (p, pl, ph) = or_one(&precision);
    let (bound, rule) = h.bound(knob);
    Ok(HitterMeasured {
        structure: h.as_str().into(),
        config: h.config(knob, list),
        knob,
        bytes,
        reported: reported.len() as u64,
        found,
        recall: r,
        recall_lo: rl,
        recall_hi: rh,
        precision: p,
        precision_lo: pl,
        precision_hi: ph,
        max_error_share: max_err,
        mean_relative_error: rel / found.max(1) as f64,
        bound_share: bound,
        bound_rule: rule.into(),
        ns_per_update: ns,
        meets: error.map(|e| found >= needed && max_err <= e),
    })
}

/// The largest knob whose saturated bytes fit `budget`, with those bytes
/// (Err: not even the smallest fits; its bytes).
pub fn largest_within(
    h: Hitter,
    list: u64,
    budget: f64,
    wide: bool,
) -> anyhow::Result<Result<(u64, u64), u64>> {
    let (lo, hi) = h.range(list);
    let bytes = |k: u64| -> anyhow::Result<u64> { Ok(bytes_of(h, k, list, wide)?.0) };
    let mut ok = (lo, bytes(lo)?);
    if ok.1 as f64 > budget {
        return Ok(Err(ok.1));
    }
    if h == Hitter::FrequentItems {
        while ok.0 * 2 <= hi {
            let b = bytes(ok.0 * 2)?;
            if b as f64 > budget {
                break;
            }
            ok = (ok.0 * 2, b);
        }
        return Ok(Ok(ok));
    }
    // every counter costs at least 4 bytes (Count-Min: d·4 per column)
    let unit = if h == Hitter::SpaceSaving {
        24
    } else {
        4 * DEPTH
    };
    let mut bad = ((budget / unit as f64) as u64 + 1).min(hi + 1);
    while bad - ok.0 > 1.max(ok.0 / 200) {
        let mid = ok.0 + (bad - ok.0) / 2;
        let b = bytes(mid)?;
        if b as f64 <= budget {
            ok = (mid, b);
        } else {
            bad = mid;
        }
    }
    Ok(Ok(ok))
}
