//! `redis_hll`: sketchlab's Redis-compatible HyperLogLog beside a real
//! redis-server's PFCOUNT on the same elements (PFADD), along one stream per
//! trial, from Redis's sparse encoding (small n) to its dense one. The server
//! is `--redis-url`, or one started per trial on a free loopback port; when
//! neither is possible the Redis columns are empty and the reading says why.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common;
use crate::experiment::kinds::footprint::{chunk, table};
use crate::experiment::params::{Def, Seeds};
use crate::peer::redis;
use crate::structures::hyperloglog::redis::RedisHll;
use rand::RngExt;

pub struct RedisHllStudy;

crate::closed_set! {
    /// The values of `elements`.
    pub enum Elements {
        RandomBytes = "random_bytes",
        Sequential = "sequential",
        U64 = "u64",
    }
}

crate::params! {
    pub struct P {
        elements: Elements = common::choice(Elements::NAMES, Def::Required, "random_bytes: 1..40 random bytes; sequential: decimal strings from a seeded start, as `seq | redis-cli` sends; u64: 8 random bytes"),
        max_n: u64 [count] = common::count(Def::Int(1_000_000), "the last checkpoint (elements added)"),
        per_decade: u32 [count] = common::int(1, 100, Def::Int(3), "log-spaced checkpoints per decade"),
    }
}

crate::row! {
    pub struct R {
        n: u64 [Key, count],
        /// Distinct elements among the n (short random byte strings repeat).
        distinct: u64 [Mean, count],
        sketchlab: u64 [Mean, count],
        /// PFCOUNT (empty when no server is reachable).
        redis: Option<u64> [Mean, count],
        equal: Option<bool> [Mean],
        /// (sketchlab − distinct)/distinct.
        err_sketchlab_vs_distinct: f64 [relative_error],
        /// The server's version, or why there is none.
        server: String [Same],
    }
}

impl Measure for RedisHllStudy {
    type P = P;
    type R = R;
    const NAME: &'static str = "redis_hll";
    const ABOUT: &'static str = "sketchlab's Redis-compatible HyperLogLog vs a real redis-server's PFCOUNT on the same PFADDs";

    fn run_rows(&self, p: &P, seeds: Seeds) -> anyhow::Result<Vec<R>> {
        let mut rng = seeds.rng("elements");
        let start = rng.random_range(0..1_000_000_000u64);
        let mut element = |i: u64| -> Vec<u8> {
            match p.elements {
                Elements::RandomBytes => {
                    let len = rng.random_range(1..40);
                    (0..len).map(|_| rng.random::<u8>()).collect()
                }
                Elements::Sequential => (start + i).to_string().into_bytes(),
                _ => rng.random::<u64>().to_le_bytes().to_vec(),
            }
        };
        let mut conn = redis::reach();
        let (server, key) = match &mut conn {
            Ok((c, _)) => (
                format!("redis {}", c.version().map_err(anyhow::Error::msg)?),
                format!("sketchlab:{:016x}", seeds.derive("key")),
            ),
            Err(why) => (format!("none reachable: {why}"), String::new()),
        };
        if let Ok((c, _)) = &mut conn {
            c.del(&key).map_err(anyhow::Error::msg)?;
        }
        let mut h = RedisHll::new();
        let mut seen = std::collections::HashSet::new();
        let mut added = 0u64;
        let mut rows = Vec::new();
        for n in super::hll_range::checkpoints(p.max_n, p.per_decade) {
            let batch: Vec<Vec<u8>> = (added..n).map(&mut element).collect();
            added = n;
            for e in &batch {
                h.add(e);
                seen.insert(e.clone());
            }
            let redis = match &mut conn {
                Ok((c, _)) => {
                    c.pfadd(&key, &batch).map_err(anyhow::Error::msg)?;
                    Some(c.pfcount(&key).map_err(anyhow::Error::msg)?)
                }
                Err(_) => None,
            };
            let ours = h.count();
            let distinct = seen.len() as u64;
            rows.push(R {
                n,
                distinct,
                sketchlab: ours,
                redis,
                equal: redis.map(|r| r == ours),
                err_sketchlab_vs_distinct: ours as f64 / distinct as f64 - 1.0,
                server: server.clone(),
            });
        }
        if let Ok((c, _)) = &mut conn {
            c.del(&key).map_err(anyhow::Error::msg)?;
        }
        Ok(rows)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        // the sketch, and the exact set of elements sent (up to 40 bytes each)
        let n = p.max_n as f64;
        Some(Footprint::one(12_304.0, 2.0 * n).plus(table(n, 24.0) + n * chunk(40.0)))
    }
}
