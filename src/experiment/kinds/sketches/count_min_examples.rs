//! `count_min_examples`: the documents' worked Count-Min examples, checked.
//! * `chapter_apple_banana`: d = 3, w = 6; "apple" ×3 at columns (1, 3, 2),
//!   "banana" ×2 at (1, 2, 3) (the chapter's h₀(banana) = 1 and what its
//!   pictured rows imply): do the documented rows and min(5, 3, 3) = 3 follow?
//! * `essay_api_users`: 4 rows × 2,718 counters × 4 bytes, the four cells read
//!   (806, 812, 1,190, 806): bytes, numbers read, the minimum, and whether the
//!   cells are consistent with a never-underestimating sketch.
//! * `essay_80kb`: ε = 0.1% of the total (w = ⌈e/ε⌉) and the essay's four
//!   rows, built: Apache DataSketches' sketch (64-bit counters, which hold a
//!   stream of any length) serialized, beside sketchlab's u64 and u32
//!   layouts (u32 wraps past 2^32 − 1 in total); and the deepest d of u32
//!   counters under 80 KB with the δ = e^−d it gives.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common;
use crate::experiment::params::{Def, Seeds};
use crate::structures::count_min::{CountMin, theory};
use datasketches::countmin::CountMinSketch;
use datasketches::hash::value::raw_bytes;

pub struct CountMinExamples;

crate::closed_set! {
    /// The values of `example`.
    pub enum Example {
        ChapterAppleBanana = "chapter_apple_banana",
        EssayApiUsers = "essay_api_users",
        Essay80kb = "essay_80kb",
    }
}

crate::params! {
    pub struct P {
        example: Example = common::choice(Example::NAMES, Def::Required, "which worked example"),
    }
}

crate::row! {
    pub struct R {
        w: u64 [Same, count],
        d: u64 [Same, count],
        bytes: u64 [Same, bytes],
        /// Numbers a lookup reads (one per row).
        reads: u64 [Same, count],
        estimate: Option<u64> [Same, count],
        consistent: Option<bool> [Same],
        /// essay_80kb: δ = e^−d at the deepest d of u32 counters that fits.
        delta: Option<f64> [Same, fraction],
        /// essay_80kb: the deepest d of u32 counters under 80,000 bytes.
        d_u32_within: Option<u64> [Same, count],
        /// essay_80kb: Apache DataSketches' Count-Min at the w its
        /// `suggest_num_buckets(ε)` picks and d rows, serialized after one
        /// update (64-bit counters).
        bytes_datasketches: Option<u64> [Same, bytes],
        /// essay_80kb: sketchlab's Count-Min with u32 counters at w, d.
        bytes_u32: Option<u64> [Same, bytes],
        detail: String [Same],
    }
}

/// The chapter's pictured rows after "apple" ×3 and "banana" ×2.
const CHAPTER_AFTER: [[u64; 6]; 3] = [[0, 5, 0, 0, 0, 0], [0, 0, 2, 3, 0, 0], [0, 0, 3, 2, 0, 0]];

impl Measure for CountMinExamples {
    type P = P;
    type R = R;
    const NAME: &'static str = "count_min_examples";
    const ABOUT: &'static str =
        "The documents' Count-Min examples: apple/banana, /api/v2/users, 80 KB";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        Ok(match p.example {
            Example::ChapterAppleBanana => {
                let mut rows = [[0u64; 6]; 3];
                for (cols, count) in [([1usize, 3, 2], 3u64), ([1, 2, 3], 2)] {
                    for (r, &c) in cols.iter().enumerate() {
                        rows[r][c] += count;
                    }
                }
                let apple = [1usize, 3, 2]
                    .iter()
                    .enumerate()
                    .map(|(r, &c)| rows[r][c])
                    .min()
                    .unwrap_or(0);
                R {
                    w: 6,
                    d: 3,
                    bytes: theory::bytes(6, 3, 4),
                    reads: 3,
                    estimate: Some(apple),
                    consistent: Some(rows == CHAPTER_AFTER && apple == 3),
                    delta: None,
                    d_u32_within: None,
                    bytes_datasketches: None,
                    bytes_u32: None,
                    detail: format!("rows after: {rows:?}; estimate(apple) = {apple}"),
                }
            }
            Example::EssayApiUsers => {
                let cells = [806u64, 812, 1190, 806];
                let min = *cells.iter().min().expect("four cells");
                // every cell ≥ the true count, so the truth is at most the minimum;
                // two rows at exactly the minimum: no collision there, or equal inflation
                R {
                    w: 2718,
                    d: 4,
                    bytes: theory::bytes(2718, 4, 4),
                    reads: cells.len() as u64,
                    estimate: Some(min),
                    consistent: Some(cells.iter().all(|&c| c >= min)),
                    delta: Some(theory::delta_of_depth(4)),
                    d_u32_within: None,
                    bytes_datasketches: None,
                    bytes_u32: None,
                    detail: format!(
                        "cells {cells:?}, min {min}; w = 2,718 is floor(e/0.001) (ceil gives {})",
                        theory::width(0.001)
                    ),
                }
            }
            _ => {
                // the essay's shape: w = e/ε at ε = 0.1%, four rows
                let (eps, d) = (0.001, 4u64);
                let w = u64::from(CountMinSketch::<u64>::suggest_num_buckets(eps)?);
                let mut ds =
                    CountMinSketch::<u64>::with_seed(d as u8, w as u32, seeds.derive("peer"))?;
                ds.update(raw_bytes::from_slice(b"/api/v2/users"));
                let hasher = crate::experiment::params::HashSeed::Trial
                    .hasher(crate::hashing::StrategyId::Xxh3, seeds);
                let wide = CountMin::<u64, _>::new(w, d, hasher.clone())?;
                let narrow = CountMin::<u32, _>::new(w, d, hasher)?;
                let within = theory::depth_within(80_000, w, 4);
                R {
                    w,
                    d,
                    bytes: wide.bytes(),
                    reads: d,
                    estimate: None,
                    consistent: None,
                    delta: Some(theory::delta_of_depth(within)),
                    d_u32_within: Some(within),
                    bytes_datasketches: Some(ds.serialize().len() as u64),
                    bytes_u32: Some(narrow.bytes()),
                    detail: format!(
                        "w = {w}, d = {d}: u64 counters {} bytes (DataSketches serialized: {}), u32 {}; the deepest u32 sketch under 80,000 bytes has d = {within} ({} bytes)",
                        wide.bytes(),
                        ds.serialize().len(),
                        narrow.bytes(),
                        theory::bytes(w, within, 4)
                    ),
                }
            }
        })
    }

    fn footprint(&self, _p: &P) -> Option<Footprint> {
        Some(Footprint::one(1024.0, 1.0))
    }
}
