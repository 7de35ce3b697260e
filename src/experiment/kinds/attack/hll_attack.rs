//! `hll_attack`: deflation and inflation of a HyperLogLog on Redis's exact
//! layout (MurmurHash64A, public seed 0xadc83b19, p = 14), checked against a
//! real redis-server's PFCOUNT on the same PFADDs where one is reachable;
//! beside it the same offline attack against a HyperLogLog keyed with
//! SipHash-1-3 (p = 14, Ertl's estimator).
//!
//! - deflate_index: of its distinct items ("item-…" strings), the attacker
//!   sends only those whose register index is below `fraction`·m;
//! - deflate_rank1: after `preload` honest items, it sends only items of rank 1;
//! - inflate: one 8-byte key per register, each constructed (MurmurHash64A
//!   inverted) to have rank `rank`.

use crate::attack::hll::{self, Deflate};
use crate::experiment::kinds::common;
use crate::experiment::kinds::footprint::chunk;
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{HashStrategy, StrategyId};
use crate::peer::redis;
use crate::structures::hyperloglog::HyperLogLog;
use crate::structures::hyperloglog::redis::RedisHll;
use rand::RngExt;

pub struct HllAttack;

crate::closed_set! {
    /// The values of `attack`.
    pub enum Attack {
        DeflateIndex = "deflate_index",
        DeflateRank1 = "deflate_rank1",
        Inflate = "inflate",
    }
}

crate::closed_set! {
    /// The values of `target`.
    pub enum Target {
        Redis = "redis",
        Sip13 = "sip13",
    }
}

crate::params! {
    pub struct P {
        attack: Attack = common::choice(Attack::NAMES, Def::Required, "deflate_index: only items whose register index is below fraction·m; deflate_rank1: only rank-1 items after a preload; inflate: one constructed key per register"),
        target: Target = common::choice(Target::NAMES, Def::Required, "redis: Redis's layout (MurmurHash64A, public seed); sip13: keyed with a key the attacker never sees"),
        n: u64 [count] = common::count(Def::Int(500_000), "deflation: distinct items the attacker sends"),
        fraction: f64 [fraction] = common::rate(Def::Float(0.75), "deflate_index: the share of registers the items may reach"),
        preload: u64 [count] = common::int(0, 1 << 30, Def::Int(10_000), "deflate_rank1: honest distinct items added first"),
        rank: u32 [count] = common::int(1, 51, Def::Int(10), "inflate: the rank each register is given"),
    }
}

crate::row! {
    pub struct R {
        /// Distinct items added (the truth).
        distinct: u64 [count],
        /// Candidates the attacker hashed offline to choose them.
        hashes_tried: u64 [count],
        estimate: u64 [count],
        estimate_over_truth: f64 [ratio],
        /// PFCOUNT after PFADD of the same items (redis rows, when a server is reachable).
        redis_pfcount: Option<u64> [count],
        redis_equal: Option<bool>,
        /// The server's version, or why there is none.
        server: String [Same],
    }
}

/// The items a trial adds, in order, and the candidates hashed to choose them.
fn items(p: &P, seeds: Seeds) -> (Vec<Vec<u8>>, u64) {
    let mut rng = seeds.rng("items");
    let tag: u32 = rng.random();
    let item = |i: u64| format!("item-{tag:08x}-{i}").into_bytes();
    match p.attack {
        Attack::Inflate => (
            hll::inflate(hll::REDIS_SEED, hll::REDIS_P, p.rank, || rng.random()),
            0,
        ),
        Attack::DeflateIndex => hll::deflate(Deflate::Index(p.fraction), p.n as usize, item),
        _ => {
            let mut out: Vec<Vec<u8>> = (0..p.preload)
                .map(|i| format!("honest-{tag:08x}-{i}").into_bytes())
                .collect();
            let (crafted, tries) = hll::deflate(Deflate::Rank1, p.n as usize, item);
            out.extend(crafted);
            (out, tries)
        }
    }
}

impl Measure for HllAttack {
    type P = P;
    type R = R;
    const NAME: &'static str = "hll_attack";
    const ABOUT: &'static str = "HyperLogLog deflation and inflation on Redis's layout (checked against redis-server) vs a sip13-keyed HLL";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if p.attack == Attack::DeflateIndex && p.fraction * 16_384.0 < 1.0 {
            return Err(crate::error::Error::invalid(
                "fraction",
                "at least 1/16384 (one register)",
            ));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (items, tries) = items(p, seeds);
        let distinct = items.len() as u64;
        let (estimate, redis_pfcount, server) = if p.target == Target::Redis {
            let mut h = RedisHll::new();
            for e in &items {
                h.add(e);
            }
            let (pf, server) = match redis::reach() {
                Ok((mut c, _guard)) => {
                    let key = format!("sketchlab:hll-attack:{:016x}", seeds.derive("key"));
                    c.del(&key).map_err(anyhow::Error::msg)?;
                    c.pfadd(&key, &items).map_err(anyhow::Error::msg)?;
                    let n = c.pfcount(&key).map_err(anyhow::Error::msg)?;
                    c.del(&key).map_err(anyhow::Error::msg)?;
                    let v = c.version().map_err(anyhow::Error::msg)?;
                    (Some(n), format!("redis {v}"))
                }
                Err(why) => (None, format!("none reachable: {why}")),
            };
            (h.count(), pf, server)
        } else {
            let hasher: HashStrategy = HashSeed::Trial.hasher(StrategyId::Sip13, seeds);
            let mut h = HyperLogLog::new(hll::REDIS_P, hasher)?;
            for e in &items {
                h.insert(e);
            }
            (
                h.ertl().round() as u64,
                None,
                "not used (keyed sketch)".into(),
            )
        };
        Ok(R {
            distinct,
            hashes_tried: tries,
            estimate,
            estimate_over_truth: estimate as f64 / distinct as f64,
            redis_pfcount,
            redis_equal: redis_pfcount.map(|r| r == estimate),
            server,
        })
    }

    fn keys(&self, p: &P, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        // every item the trial adds, in order (deflate_rank1: the honest
        // preload first), so a replay gives the trial's own estimate
        Ok(Some(items(p, seeds).0))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let n = if p.attack == Attack::Inflate {
            16_384.0
        } else {
            (p.n + p.preload) as f64
        };
        let tries = if p.attack == Attack::DeflateIndex {
            n / p.fraction
        } else {
            2.0 * n
        };
        Some(Footprint::one(12_304.0, tries + 2.0 * n).plus(n * (chunk(24.0) + 24.0)))
    }
}
