//! `count_min_cover`: the cover attack on a Count-Min sketch. The sketch
//! counts an honest Zipf stream; the attacker, modelling it with xxh3 and
//! seed 0 (a public hash with a constant seed), searches offline for a few
//! keys that together hit a target key's cell in every row and inserts only
//! those. The target is never inserted; its estimate is compared with εN.
//! Against a sketch keyed with SipHash-1-3 the same keys land at random.

use crate::attack::count_min::{self, Cover};
use crate::experiment::kinds::common;
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
use crate::stats::Proportion;
use crate::structures::count_min::{CountMin, theory};
use crate::workload::zipf::ZipfStream;
use crate::workload::{KeyGen, KeyType};
use rand::RngExt;

pub struct CountMinCover;

crate::closed_set! {
    /// The values of `target`.
    pub enum Target {
        Public = "public",
        Sip13 = "sip13",
    }
}

crate::params! {
    pub struct P {
        target: Target = common::choice(Target::NAMES, Def::Required, "public: the sketch hashes with xxh3, seed 0 (the attacker's model); sip13: keyed with a key the attacker never sees"),
        eps: f64 [fraction] = common::rate(Def::Float(0.001), "w = ceil(e/eps)"),
        depth: u64 [count] = common::int(1, 16, Def::Int(5), "d rows"),
        honest_updates: u64 [count] = common::count(Def::Int(1_000_000), "honest Zipf updates (s = 1.1 over 100,000 keys)"),
        attack_updates: u64 [count] = common::count(Def::Int(100_000), "updates the attacker sends, split evenly over all cover keys"),
        targets: u64 [count] = common::int(1, 1000, Def::Int(20), "never-inserted target keys, each with its own cover"),
        want_cover: u64 [count] = common::int(1, 16, Def::Int(3), "a target's search stops at a cover of this many keys"),
        max_tries: u64 [count] = common::int(1, 1 << 40, Def::Int(100_000_000), "the most candidates the search hashes (a per-trial cap)"),
        probes: u64 [count] = common::count(Def::Int(10_000), "random never-inserted keys queried, for the honest rate beyond εN"),
    }
}

crate::row! {
    pub struct R {
        w: u64 [Same, count],
        d: u64 [Same, count],
        cover_keys: u64 [count],
        /// The fewest rows any target's cover hits on the attacker's model (d: complete).
        rows_covered_min: u64 [count],
        hashes_tried: u64 [count],
        tries_per_target: f64 [count],
        search_capped: bool,
        total_n: u64 [Same, count],
        eps_n: f64 [Same, count],
        /// Targets (true count 0) whose estimate exceeds εN; the bound says at most δ.
        targets_over_eps_n: Proportion [fraction],
        target_error_over_eps_n_min: f64 [ratio],
        target_error_over_eps_n_max: f64 [ratio],
        /// Random never-inserted keys whose estimate exceeds εN (the bound: ≤ δ).
        probes_over_eps_n: Proportion [fraction],
        delta: f64 [Same, fraction],
    }
}

fn target_key(i: u64) -> Vec<u8> {
    format!("sketchlab:count-min-target-{i}").into_bytes()
}

fn model(p: &P) -> anyhow::Result<CountMin<u64, HashStrategy>> {
    Ok(CountMin::new(
        theory::width(p.eps),
        p.depth,
        HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(0)),
    )?)
}

/// One cover per target, each searched with its own candidate stream.
fn search(p: &P, seeds: Seeds) -> anyhow::Result<Vec<Cover>> {
    let m = model(p)?;
    Ok((0..p.targets)
        .map(|i| {
            let target: Vec<usize> = m.columns(&target_key(i)).collect();
            let mut rng = seeds.rng(&format!("candidates {i}"));
            count_min::cover(
                |k| m.columns(k),
                &target,
                || rng.random::<[u8; 16]>(),
                p.want_cover as usize,
                p.max_tries,
            )
        })
        .collect())
}

impl Measure for CountMinCover {
    type P = P;
    type R = R;
    const NAME: &'static str = "count_min_cover";
    const ABOUT: &'static str =
        "Count-Min cover attack: a never-inserted key inflated past εN (public hash vs keyed)";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let covers = search(p, seeds)?;
        let hasher = match p.target {
            Target::Public => HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(0)),
            _ => HashSeed::Trial.hasher(StrategyId::Sip13, seeds),
        };
        let mut cm: CountMin<u64, _> = CountMin::new(theory::width(p.eps), p.depth, hasher)?;
        let mut zipf =
            ZipfStream::new(100_000, 1.1, seeds.derive("stream")).map_err(anyhow::Error::msg)?;
        let mut keys = KeyGen::new(KeyType::U64, seeds.derive("keys"));
        for _ in 0..p.honest_updates {
            cm.update(keys.key(zipf.next_id()), 1);
        }
        let attack: Vec<&Vec<u8>> = covers
            .iter()
            .flat_map(|c| c.keys.iter().map(|(k, _)| k))
            .collect();
        let c = attack.len() as u64;
        for (i, k) in attack.iter().enumerate() {
            // split evenly; the first keys take the remainder
            let share = p.attack_updates / c + u64::from((i as u64) < p.attack_updates % c);
            cm.update(k, share);
        }
        let eps_n = std::f64::consts::E / cm.width() as f64 * cm.total() as f64;
        let errs: Vec<f64> = (0..p.targets)
            .map(|i| cm.estimate(&target_key(i)) as f64 / eps_n)
            .collect();
        let mut q = seeds.rng("probes");
        let over = (0..p.probes)
            .filter(|_| cm.estimate(&q.random::<[u8; 16]>()) as f64 > eps_n)
            .count() as u64;
        let tries: u64 = covers.iter().map(|c| c.tries).sum();
        Ok(R {
            w: cm.width(),
            d: cm.depth(),
            cover_keys: c,
            rows_covered_min: covers
                .iter()
                .map(|c| c.keys.iter().fold(0u64, |m, (_, r)| m | r).count_ones() as u64)
                .min()
                .unwrap_or(0),
            hashes_tried: tries,
            tries_per_target: tries as f64 / p.targets as f64,
            search_capped: covers.iter().any(|c| c.capped),
            total_n: cm.total(),
            eps_n,
            targets_over_eps_n: Proportion::new(
                errs.iter().filter(|&&e| e > 1.0).count() as u64,
                p.targets,
            ),
            target_error_over_eps_n_min: errs.iter().copied().fold(f64::INFINITY, f64::min),
            target_error_over_eps_n_max: errs.iter().copied().fold(0.0, f64::max),
            probes_over_eps_n: Proportion::new(over, p.probes),
            delta: (-(p.depth as f64)).exp(),
        })
    }

    fn keys(&self, p: &P, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        // per target: the target key, then its cover keys
        let mut keys = Vec::new();
        for (i, c) in search(p, seeds)?.into_iter().enumerate() {
            keys.push(target_key(i as u64));
            keys.extend(c.keys.into_iter().map(|(k, _)| k));
        }
        Ok(Some(keys))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let cells = theory::width(p.eps) as f64 * p.depth as f64 * 8.0;
        let w = theory::width(p.eps) as f64;
        // rows are (h1 + i·s) mod w: one key matching the target's (h1, s)
        // covers every row, about w(w−1) tries per target
        let tries = (w * w).min(p.max_tries as f64) * p.targets as f64;
        Some(
            Footprint::one(cells, p.honest_updates as f64 + tries + p.probes as f64)
                .plus(cells + 800_000.0),
        )
    }
}
