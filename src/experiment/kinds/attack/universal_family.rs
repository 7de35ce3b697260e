//! `universal_family`: the essay's "over the random choice of h" made
//! concrete. An attacker who knows one function of a family (the constant
//! seed, or a draw it has learnt) crafts pairs of keys that collide under
//! it by trying keys. The victim then hashes them with a function drawn
//! fresh for every draw, or always with that same function (`function =
//! constant`). A fresh draw meets the crafted pairs at the 1/m of random
//! pairs; the constant function collides on every one. Beside it, an
//! exhaustive check of universality on a small universe, and the pigeonhole
//! bucket of the function the attacker knows.

use crate::attack::universal::{self, CW_SMALL, Family, Function, MS_SMALL};
use crate::experiment::kinds::common;
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, Seeds};
use crate::stats::Proportion;

pub struct UniversalFamily;

crate::closed_set! {
    /// The values of `function`.
    pub enum Draws {
        Fresh = "fresh",
        Constant = "constant",
    }
}

crate::params! {
    pub struct P {
        family: Family = common::choice(Family::NAMES, Def::Required, "carter_wegman ((a·x + b) mod (2^61 − 1)) mod m; multiply_shift (a·x mod 2^64) >> (64 − log2 m); xxh3_64 (random 64-bit seed); sip13 (random 128-bit key)"),
        function: Draws = common::choice(Draws::NAMES, Def::Required, "fresh: the victim draws a new function for every draw; constant: it always uses the function the attacker crafted against"),
        m: u64 [count] = common::int(2, 1 << 20, Def::Required, "buckets (a power of two)"),
        pairs: u64 [count] = common::int(1, 100_000, Def::Int(200), "pairs crafted to collide under the attacker's function"),
        collisions: u64 [count] = common::int(10, 1_000_000, Def::Int(4_000), "collisions expected at the 1/m rate: fresh draws are sized to give this many (pairs · draws = collisions · m)"),
        universe_bits: u64 [bits] = common::int(1, 26, Def::Int(20), "the pigeonhole universe: keys 0 … 2^bits − 1 through the attacker's function"),
    }
}

crate::row! {
    pub struct R {
        /// Keys of the small universe checked exhaustively (every pair, every function).
        exhaustive_universe: Option<u64> [Same, count],
        exhaustive_m: Option<u64> [Same, count],
        exhaustive_functions: Option<u64> [Same, count],
        /// The largest share of the family's functions under which one pair collides, × m (universal: ≤ 1).
        exhaustive_max_pair_x_m: Option<f64> [Same, ratio],
        exhaustive_mean_pair_x_m: Option<f64> [Same, ratio],
        /// Functions the victim draws (1 when constant: one pass over the pairs).
        draws: u64 [Same, count],
        /// Keys tried per crafted pair ÷ m (a random key lands in a chosen bucket with probability 1/m).
        search_tries_per_pair_over_m: f64 [ratio],
        /// Crafted pairs that collide in the victim's draws.
        crafted_collision: Proportion [fraction],
        /// crafted_collision × m, with its 95% Wilson bounds × m.
        crafted_collision_x_m: crate::stats::Estimate [ratio],
        /// Random pairs in the same draws (the 1/m reference).
        random_collision: Proportion [fraction],
        random_collision_x_m: crate::stats::Estimate [ratio],
        universe_keys: u64 [Same, count],
        /// The fullest bucket when every key of the universe goes through the attacker's function.
        max_bucket_load: u64 [count],
        /// ⌈|U|/m⌉: pigeonhole says some bucket holds at least this many.
        pigeonhole_bound: u64 [Same, count],
        /// max(0, pigeonhole_bound − max_bucket_load): 0 whenever pigeonhole holds.
        pigeonhole_shortfall: u64 [count],
    }
}

/// The victim's draws: sized for `collisions` at 1/m when fresh; one pass
/// when the function is constant (repeating it would count the same pairs again).
fn draws(p: &P) -> u64 {
    if p.function == Draws::Fresh {
        (p.collisions * p.m).div_ceil(p.pairs)
    } else {
        1
    }
}

/// The function the attacker knows (the constant seed, or a draw it
/// learnt), the pairs it crafted against it, and the keys it tried.
fn attacker(p: &P, seeds: Seeds) -> (Function, Vec<(u64, u64)>, u64) {
    let mut rng = seeds.rng("attacker");
    let known = p.family.draw(p.m.trailing_zeros(), &mut rng);
    let (pairs, tries) = universal::craft_pairs(&known, p.pairs as usize, &mut rng);
    (known, pairs, tries)
}

fn x_m(p: Proportion, m: f64) -> crate::stats::Estimate {
    crate::stats::Estimate::proportion(p.successes, p.trials).map(|x| x * m)
}

impl Measure for UniversalFamily {
    type P = P;
    type R = R;
    const NAME: &'static str = "universal_family";
    const ABOUT: &'static str = "Universal hashing: crafted pairs under a fresh draw vs a constant seed, an exhaustive universality check and the pigeonhole bucket";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if !p.m.is_power_of_two() {
            return Err(crate::error::Error::invalid("m", "must be a power of two"));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let fam = p.family;
        let bits = p.m.trailing_zeros();
        let mf = p.m as f64;
        let (known, pairs, tries) = attacker(p, seeds);
        let draws = draws(p);
        let mut victim = seeds.rng("victim");
        let mut keys = seeds.rng("random pairs");
        let random: Vec<(u64, u64)> = (0..p.pairs)
            .map(|_| (known.key(&mut keys), known.key(&mut keys)))
            .collect();
        let (mut crafted_hits, mut random_hits) = (0u64, 0u64);
        for _ in 0..draws {
            let fresh;
            let f = if p.function == Draws::Fresh {
                fresh = fam.draw(bits, &mut victim);
                &fresh
            } else {
                &known
            };
            let hits = |ps: &[(u64, u64)]| {
                ps.iter()
                    .filter(|&&(x, y)| f.bucket(x) == f.bucket(y))
                    .count() as u64
            };
            crafted_hits += hits(&pairs);
            random_hits += hits(&random);
        }
        let n = draws * p.pairs;
        let crafted = Proportion::new(crafted_hits, n);
        let random = Proportion::new(random_hits, n);
        let exhaustive = match fam {
            Family::CarterWegman => Some((
                CW_SMALL.0,
                CW_SMALL.1,
                universal::exhaustive(CW_SMALL.0 as usize, universal::cw_small(), CW_SMALL.1),
            )),
            Family::MultiplyShift => Some((
                1u64 << MS_SMALL.0,
                MS_SMALL.1,
                universal::exhaustive(1 << MS_SMALL.0, universal::ms_small(), MS_SMALL.1),
            )),
            Family::Xxh3 | Family::Sip13 => None,
        };
        let universe = 1u64 << p.universe_bits;
        let load = universal::max_load(&known, universe);
        let bound = universe.div_ceil(p.m);
        Ok(R {
            exhaustive_universe: exhaustive.map(|e| e.0),
            exhaustive_m: exhaustive.map(|e| e.1 as u64),
            exhaustive_functions: exhaustive.map(|e| e.2.2),
            exhaustive_max_pair_x_m: exhaustive.map(|e| e.2.0 * e.1 as f64),
            exhaustive_mean_pair_x_m: exhaustive.map(|e| e.2.1 * e.1 as f64),
            draws,
            search_tries_per_pair_over_m: tries as f64 / p.pairs as f64 / mf,
            crafted_collision: crafted,
            crafted_collision_x_m: x_m(crafted, mf),
            random_collision: random,
            random_collision_x_m: x_m(random, mf),
            universe_keys: universe,
            max_bucket_load: load,
            pigeonhole_bound: bound,
            pigeonhole_shortfall: bound.saturating_sub(load),
        })
    }

    fn keys(&self, p: &P, seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        // the crafted pairs, each key as 8 little-endian bytes
        let (_, pairs, _) = attacker(p, seeds);
        Ok(Some(
            pairs
                .into_iter()
                .flat_map(|(x, y)| [x.to_le_bytes().to_vec(), y.to_le_bytes().to_vec()])
                .collect(),
        ))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let draws = draws(p) as f64;
        let exhaustive = (CW_SMALL.0 * CW_SMALL.0) as f64 * 150.0;
        Some(Footprint::one(
            (p.m as f64 * 8.0).max(65_536.0),
            p.pairs as f64 * p.m as f64
                + draws * p.pairs as f64 * 4.0
                + (1u64 << p.universe_bits) as f64
                + exhaustive,
        ))
    }
}
