//! `hashmap_flood`: `std::collections::HashMap` fed keys crafted against its
//! hasher (FxHash inverted; murmur multicollisions under a seed the attacker
//! never sees), next to std's `RandomState` fed the very same keys, and each
//! hasher fed random keys. Per trial: inserts into an empty map (it grows as
//! a request parser's would), timed, with every key comparison counted, so
//! the quadratic shape is measured without a clock too. A per-trial time cap
//! stops a runaway flood; the row says how many keys made it in.

use crate::attack::flood::{self, Bytes, Counted, OneShot};
use crate::attack::murmur::Target;
use crate::experiment::kinds::common;
use crate::experiment::kinds::footprint::{chunk, table};
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, Seeds};
use crate::hashing::{Murmur3x86_32, Murmur64a, Seed};
use crate::stats;
use crate::table::Interval;
use rand::RngExt;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::time::{Duration, Instant};

pub struct HashmapFlood;

/// FxHash keys: the low word every crafted hash shares.
const FX_LOW: u32 = 0x5eed_f100;

crate::closed_set! {
    /// The values of `attack`.
    pub enum Attack {
        Fx = "fx",
        Murmur3X8632 = "murmur3_x86_32",
        Murmur64a = "murmur64a",
    }
}

crate::closed_set! {
    /// The values of `table`.
    pub enum Map {
        Attacked = "attacked",
        RandomState = "random_state",
    }
}

crate::closed_set! {
    /// The values of `keys`.
    pub enum KeyKind {
        Crafted = "crafted",
        Random = "random",
    }
}

crate::params! {
    pub struct P {
        attack: Attack = common::choice(Attack::NAMES, Def::Required, "the hasher the keys are crafted against: fx (FxHash on u64 keys, no seed), murmur3_x86_32 / murmur64a (byte keys, a random seed the attacker never sees)"),
        table: Map = common::choice(Map::NAMES, Def::Required, "attacked: HashMap with that hasher; random_state: std's default (SipHash-1-3, random key)"),
        keys: KeyKind = common::choice(KeyKind::NAMES, Def::Required, "crafted: the attack's colliding keys; random: random keys of the same type and length"),
        n: u64 [count] = common::int(1, 1 << 25, Def::Required, "keys inserted"),
        reps: u64 [count] = common::int(1, 1000, Def::Int(5), "timed repetitions (each into a new map); the median is reported"),
        max_seconds: f64 [seconds] = common::positive(3600.0, Def::Float(30.0), "per-trial time cap: inserting stops there, and no further repetition starts"),
    }
}

crate::row! {
    pub struct R {
        key_bytes: usize [Same, bytes],
        /// Keys inserted (fewer than n when the cap stopped the first repetition).
        inserted: u64 [count],
        capped: bool,
        reps_done: u64 [count],
        /// Seconds to insert them: the median over repetitions, with their
        /// min and max as the bounds (too few repetitions for an
        /// order-statistic interval; a flood's spread is far below its size).
        seconds: Interval [seconds],
        ns_per_insert: Interval [ns],
        /// Key comparisons the table made per insert (counted, not timed).
        compares_per_insert: f64 [count],
        /// compares_per_insert / inserted: ≈ 0.5 when every insert walks one chain.
        compares_per_insert_over_n: f64 [ratio],
        /// Keys it would take to keep one insert loop busy for 60 s at this
        /// growth (n·√(60/seconds); only where inserts are quadratic).
        keys_for_one_minute: Option<f64> [count],
    }
}

enum Keys {
    U64(Vec<u64>),
    Bytes(Vec<Vec<u8>>),
}

fn target(attack: Attack) -> Option<Target> {
    match attack {
        Attack::Murmur3X8632 => Some(Target::Murmur3x86_32),
        Attack::Murmur64a => Some(Target::Murmur64a),
        Attack::Fx => None,
    }
}

/// The trial's keys: crafted against `attack`, or random of the same shape.
fn make_keys(p: &P, seeds: Seeds) -> Keys {
    let n = p.n as usize;
    let mut rng = seeds.rng("keys");
    match target(p.attack) {
        None if p.keys == KeyKind::Crafted => Keys::U64(flood::fx_colliding(n, FX_LOW)),
        None => Keys::U64((0..n).map(|_| rng.random()).collect()),
        Some(t) => {
            let len = t.unit() * flood::units_for(n).max(1) + 5;
            let base: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            if p.keys == KeyKind::Crafted {
                Keys::Bytes(flood::murmur_family(t, &base, n))
            } else {
                Keys::Bytes(
                    (0..n)
                        .map(|_| (0..len).map(|_| rng.random()).collect())
                        .collect(),
                )
            }
        }
    }
}

struct Timing {
    inserted: usize,
    capped: bool,
    seconds: Vec<f64>,
    compares: u64,
}

/// Repetitions of inserting `keys` into a new map built by `build`, within `cap`.
fn time_inserts<K: Hash + Eq + Clone, S: BuildHasher + Clone>(
    keys: &[K],
    build: S,
    reps: u64,
    cap: Duration,
) -> Timing {
    let start = Instant::now();
    let mut t = Timing {
        inserted: keys.len(),
        capped: false,
        seconds: Vec::new(),
        compares: 0,
    };
    for rep in 0..reps {
        let mut map: HashMap<Counted<K>, u32, S> = HashMap::with_hasher(build.clone());
        let began = Instant::now();
        let mut done = keys.len();
        let compares = flood::count_compares(|| {
            for (i, k) in keys.iter().enumerate() {
                if i % 64 == 63 && start.elapsed() > cap {
                    done = i;
                    break;
                }
                map.insert(Counted(k.clone()), i as u32);
            }
        });
        let secs = began.elapsed().as_secs_f64();
        assert_eq!(map.len(), done, "crafted keys must be distinct");
        drop(map);
        if rep == 0 {
            t.compares = compares;
            t.inserted = done;
        }
        if done < keys.len() {
            // only the first repetition can be cut short: later ones do not start
            t.capped = true;
            if rep == 0 {
                t.seconds.push(secs);
            }
            break;
        }
        t.seconds.push(secs);
        // the next repetition starts only if it can finish within the cap
        if start.elapsed() + Duration::from_secs_f64(secs) > cap {
            break;
        }
    }
    t
}

fn run_table(p: &P, seeds: Seeds, keys: &Keys) -> Timing {
    let cap = Duration::from_secs_f64(p.max_seconds);
    let attacked = p.table == Map::Attacked;
    // a seed the attacker never sees, drawn per trial
    let seed = Seed {
        lo: seeds.derive("hash seed"),
        hi: 0,
    };
    let std_state = std::collections::hash_map::RandomState::new();
    match keys {
        Keys::U64(k) if attacked => time_inserts(k, rustc_hash::FxBuildHasher, p.reps, cap),
        Keys::U64(k) => time_inserts(k, std_state, p.reps, cap),
        Keys::Bytes(b) => {
            let k: Vec<Bytes<'_>> = b.iter().map(|x| Bytes(x)).collect();
            match (attacked, p.attack.as_str()) {
                (true, "murmur3_x86_32") => {
                    time_inserts(&k, OneShot(Murmur3x86_32::new(seed)), p.reps, cap)
                }
                (true, _) => time_inserts(&k, OneShot(Murmur64a::new(seed)), p.reps, cap),
                (false, _) => time_inserts(&k, std_state, p.reps, cap),
            }
        }
    }
}

impl Measure for HashmapFlood {
    type P = P;
    type R = R;
    const NAME: &'static str = "hashmap_flood";
    const ABOUT: &'static str = "std HashMap flooded with keys crafted against FxHash / seeded murmur vs RandomState on the same keys (ns and compares per insert)";
    const TIMING: bool = true;

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let keys = make_keys(p, seeds);
        let key_bytes = match &keys {
            Keys::U64(_) => 8,
            Keys::Bytes(b) => b.first().map_or(0, Vec::len),
        };
        let t = run_table(p, seeds, &keys);
        let mut secs = t.seconds.clone();
        secs.sort_by(f64::total_cmp);
        let median = stats::median_interval(&secs, stats::PLOT_CONFIDENCE).value;
        let seconds = Interval::new(median, secs[0], secs[secs.len() - 1]);
        let n = t.inserted.max(1) as f64;
        let per = |x: f64| x * 1e9 / n;
        let cpi = t.compares as f64 / n;
        Ok(R {
            key_bytes,
            inserted: t.inserted as u64,
            capped: t.capped,
            reps_done: t.seconds.len() as u64,
            seconds,
            ns_per_insert: Interval::new(per(seconds.value), per(seconds.lo), per(seconds.hi)),
            compares_per_insert: cpi,
            compares_per_insert_over_n: cpi / n,
            keys_for_one_minute: (cpi / n > 0.25 && seconds.value > 0.0)
                .then(|| n * (60.0 / seconds.value).sqrt()),
        })
    }

    fn keys(&self, p: &P, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        if p.keys != KeyKind::Crafted || p.table != Map::Attacked {
            return Ok(Some(Vec::new()));
        }
        Ok(Some(match make_keys(p, seeds) {
            Keys::U64(k) => k.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
            Keys::Bytes(b) => b,
        }))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let n = p.n as f64;
        let len = match target(p.attack) {
            None => 8.0,
            Some(t) => (t.unit() * flood::units_for(p.n as usize).max(1) + 5) as f64,
        };
        let keys = if len > 8.0 {
            n * (chunk(len) + 24.0)
        } else {
            n * 8.0
        };
        let quadratic = p.keys == KeyKind::Crafted && p.table == Map::Attacked;
        // a quadratic flood's work is capped by the time limit (~1e9 compares a second)
        let work = if quadratic {
            (n * n / 2.0).min(p.max_seconds * 1e9)
        } else {
            n
        };
        Some(Footprint::one(table(n, 24.0), work * p.reps as f64).plus(keys))
    }
}
