//! The streams `design heavy-hitters` and `design quantiles` measure on:
//! the shapes a user names (`--stream`) drawn from a fixed seed, or the
//! user's own file, read size-bounded before any work.

use crate::error::{Error, Result};
use crate::vocab::{Dist, ItemStream};
use crate::workload::file::{Format, KeyFile};
use crate::workload::zipf::ZipfStream;
use rand::{RngExt, SeedableRng};
use std::path::Path;

/// A key as the structures take it: a random-looking u64 (a bijective mix
/// of the id, so ids 0, 1, … do not sit in neighbouring cells).
fn key(id: u64) -> u64 {
    crate::hashing::splitmix64(id ^ 0x6865_6176_7931)
}

/// `m` updates of `kind` over `universe` keys (Zipf exponent `s`); `wanted`
/// is how many keys the adversarial stream makes heavy. Every key is a u64.
///
/// * `zipf`: Zipf(s) draws (key 0 the heaviest).
/// * `uniform`: uniform draws: no key is heavier than chance makes it.
/// * `sorted`: the Zipf draws arranged by count, rarest key first and the
///   heaviest last (a counter structure meets its hitters after the churn).
/// * `adversarial`: `wanted` keys share half the stream evenly, interleaved
///   one for one with keys seen once each (the churn that evicts counters
///   and fills Count-Min's cells).
pub fn items(kind: ItemStream, m: u64, universe: u64, s: f64, wanted: u64, seed: u64) -> Vec<u64> {
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    match kind {
        ItemStream::Zipf | ItemStream::Sorted => {
            let mut z = ZipfStream::new(universe, s, seed).expect("universe ≥ 1, s checked");
            let mut ids: Vec<u64> = (0..m).map(|_| z.next_id()).collect();
            if kind == ItemStream::Sorted {
                let mut count = foldhash::HashMap::<u64, u64>::default();
                ids.iter().for_each(|&i| *count.entry(i).or_default() += 1);
                ids.sort_unstable_by_key(|i| (count[i], *i));
            }
            ids.into_iter().map(key).collect()
        }
        ItemStream::Uniform => (0..m).map(|_| key(rng.random_range(0..universe))).collect(),
        ItemStream::Adversarial => {
            let h = wanted.max(1);
            (0..m)
                .map(|i| {
                    if i % 2 == 0 {
                        key((i / 2) % h)
                    } else {
                        // ids past the heavy ones, each used once
                        key(h + i / 2)
                    }
                })
                .collect()
        }
    }
}

/// The user's stream: every record of `path` (duplicates kept), each key
/// hashed to a u64 (XXH3, seeded), at most `max` of them; and the records
/// the file holds.
pub fn items_from_file(path: &Path, format: &str, max: u64, seed: u64) -> Result<(Vec<u64>, u64)> {
    let format = Format::from_name(format).unwrap_or(Format::Lines);
    let f = KeyFile::load_records(&path.to_string_lossy(), format)
        .map_err(|e| Error::Input(format!("design heavy-hitters: --keys {e}")))?;
    if f.is_empty() {
        return Err(Error::Input(format!(
            "design heavy-hitters: --keys {}: no records",
            path.display()
        )));
    }
    let take = f.len().min(max) as usize;
    let keys = (0..take)
        .map(|i| xxhash_rust::xxh3::xxh3_64_with_seed(f.key(i), seed))
        .collect();
    Ok((keys, f.len()))
}

/// `m` values of `dist` from `seed`.
pub fn values(dist: Dist, m: u64, seed: u64) -> Vec<f64> {
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    crate::workload::values::draw(dist, m, &mut rng)
}

/// The user's values: one decimal number per line (blank lines skipped),
/// at most `max` of them, and the lines the file holds. A line that is not
/// a finite number is refused with its line number.
pub fn values_from_file(path: &Path, max: u64) -> Result<(Vec<f64>, u64)> {
    let f = KeyFile::load_records(&path.to_string_lossy(), Format::Lines)
        .map_err(|e| Error::Input(format!("design quantiles: --values {e}")))?;
    let mut v = Vec::with_capacity(f.len().min(max) as usize);
    let mut lines = 0u64;
    for (i, rec) in f.keys().enumerate() {
        let text = std::str::from_utf8(rec).unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        lines += 1;
        let x: f64 = text
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| {
                Error::Input(format!(
                    "design quantiles: --values {} line {}: {:?} is not a finite number",
                    path.display(),
                    i + 1,
                    // Debug-quoted: a control character prints escaped
                    text.chars().take(40).collect::<String>()
                ))
            })?;
        if (v.len() as u64) < max {
            v.push(x);
        }
    }
    if v.is_empty() {
        return Err(Error::Input(format!(
            "design quantiles: --values {}: no numbers",
            path.display()
        )));
    }
    Ok((v, lines))
}
