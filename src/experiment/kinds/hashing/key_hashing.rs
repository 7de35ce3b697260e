//! `key_hashing`: what one key set does to each hash strategy (what
//! `sketchlab keys check` runs on a user's file): distinct full-width values
//! against the birthday expectation, χ² of the low bits at 2^10, 2^16 and
//! 2^20 buckets and of the top 16 bits, and the longest probe of a
//! linear-probing table at load ½, each beside a random function's control
//! on the same number of keys.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS};
use crate::experiment::params::{Def, HashSeed, Seeds};
use crate::hashing::{KeyHasher, StrategyId};
use crate::workload::check::{self, HashCheck};
use crate::workload::{KeyGen, KeyType};

pub struct KeyHashing;

crate::params! {
    pub struct P {
        keys: KeyType = KEYS,
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        n: u64 [count] = common::int(1, 100_000_000, Def::Int(1 << 20), "keys hashed (a key file: all its distinct keys, up to n)"),
    }
}

crate::row! {
    pub struct R {
        width: u32 [Same, bits],
        keys_hashed: u64 [Same, count],
        distinct_hashes: u64 [count],
        collisions: u64 [count],
        collisions_expected: f64 [Same, count],
        collisions_random: u64 [count],
        chi2_low10_z: f64 [sigmas],
        chi2_low16_z: f64 [sigmas],
        chi2_low20_z: f64 [sigmas],
        chi2_top16_z: f64 [sigmas],
        chi2_low16_z_random: f64 [sigmas],
        max_bucket_16: u32 [count],
        max_bucket_16_random: u32 [count],
        longest_probe: u64 [count],
        longest_probe_random: u64 [count],
        verdict: String,
    }
}

/// The keys a trial hashes: `n`, or all of a smaller key file.
fn keys_hashed(p: &P) -> u64 {
    p.keys.file().map_or(p.n, |f| p.n.min(f.len()))
}

/// In words: `ok` when every measure is within a random function's range;
/// otherwise what broke (collisions beyond the birthday expectation + 4σ,
/// clustered buckets z > 4, a probe over 3× the control's), or `too even`
/// (z < −4, or collisions 4σ under the birthday expectation: the hash maps
/// these keys more evenly than chance, a structured map an adversary can predict).
pub fn verdict(h: &HashCheck, control: &HashCheck) -> String {
    let mut broke = Vec::new();
    let e = h.collisions_expected;
    if h.collisions as f64 > e + 4.0 * e.sqrt() + 4.0 {
        broke.push("collisions");
    }
    if h.low_z.iter().chain([&h.top16_z]).any(|&z| z > 4.0) {
        broke.push("clustered buckets");
    }
    if h.longest_probe > 3 * control.longest_probe.max(1) {
        broke.push("long probes");
    }
    if !broke.is_empty() {
        return broke.join(" + ");
    }
    // far fewer full-width collisions than chance (an injective map of
    // these keys), or buckets more even than chance
    if (e > 16.0 && (h.collisions as f64) < e - 4.0 * e.sqrt())
        || h.low_z.iter().chain([&h.top16_z]).any(|&z| z < -4.0)
    {
        return "too even".into();
    }
    "ok".into()
}

impl Measure for KeyHashing {
    type P = P;
    type R = R;
    const NAME: &'static str = "key_hashing";
    const ABOUT: &'static str = "one key set through each hash: distinct values vs birthday, bucket chi-square at 2^10/2^16/2^20, longest linear probe, beside a random function";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let h = p.hash_seed.hasher(p.hash, seeds);
        let width = h.width();
        let n = keys_hashed(p);
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let values: Vec<u128> = (0..n).map(|id| h.native(keys.key(id))).collect();
        let got = check::check(&values, width);
        drop(values);
        let control = check::check(
            &check::random_values(n, width, seeds.derive("control")),
            width,
        );
        Ok(R {
            width,
            keys_hashed: n,
            distinct_hashes: got.distinct,
            collisions: got.collisions,
            collisions_expected: got.collisions_expected,
            collisions_random: control.collisions,
            chi2_low10_z: got.low_z[0],
            chi2_low16_z: got.low_z[1],
            chi2_low20_z: got.low_z[2],
            chi2_top16_z: got.top16_z,
            chi2_low16_z_random: control.low_z[1],
            max_bucket_16: got.max_bucket_16,
            max_bucket_16_random: control.max_bucket_16,
            longest_probe: got.longest_probe,
            longest_probe_random: control.longest_probe,
            verdict: verdict(&got, &control),
        })
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(keys_hashed(p))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let n = p.n as f64;
        // values (16 B), their sorted copy, the probe table and 2^20 counters
        Some(Footprint::one(
            n * 16.0,
            n * 2.0 * (16.0 + 16.0) + 4.0 * (1 << 20) as f64 + n * 4.0,
        ))
    }
}
