//! `crc32_forgery`: CRC32 as a content address. A second input with the
//! same CRC32 as a given file (the licence corpus) is solved for, not
//! searched (four appended bytes; CRC is affine over GF(2)); next to it, how
//! many random inputs it takes before two share a CRC32 by chance.

use crate::attack::crc32;
use crate::experiment::kinds::common;
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, Seeds};
use crate::stats;
use crate::table::Interval;
use rand::RngExt;

pub struct Crc32Forgery;

/// The given file: the licence corpus the MinHash study reads.
const FILE: &[u8] = include_bytes!("../../../../data/licenses.txt");
const FORGED_PREFIX: &[u8] = b"sketchlab: not the file you asked for, with the same CRC32\n";

crate::params! {
    pub struct P {
        searches: u64 [count] = common::int(1, 10_000, Def::Int(50), "random-input searches for a chance CRC32 collision"),
    }
}

crate::row! {
    pub struct R {
        file_bytes: usize [Same, bytes],
        file_crc32: String [Same],
        forged_bytes: usize [Same, bytes],
        forged_crc32: String [Same],
        forged_matches: bool [Same],
        /// CRC32 evaluations the forgery took (one per unknown bit, plus one).
        forge_evaluations: u64 [Same, count],
        /// Random 16-byte inputs drawn until two shared a CRC32 (median over searches, 95% interval).
        birthday_inputs_median: Interval [count],
        birthday_inputs_mean: f64 [count],
        birthday_median_theory: f64 [Same, count],
    }
}

fn forged() -> Vec<u8> {
    crc32::forge(FORGED_PREFIX, crc32::crc32(FILE))
}

impl Measure for Crc32Forgery {
    type P = P;
    type R = R;
    const NAME: &'static str = "crc32_forgery";
    const ABOUT: &'static str =
        "CRC32 content addressing: a solved second preimage vs the birthday bound";

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let f = forged();
        let mut rng = seeds.rng("inputs");
        let mut counts = Vec::with_capacity(p.searches as usize);
        let mut seen = std::collections::HashSet::with_capacity(200_000);
        for _ in 0..p.searches {
            seen.clear();
            let mut n = 0u64;
            loop {
                n += 1;
                let x: [u8; 16] = rng.random();
                if !seen.insert(crc32::crc32(&x)) {
                    break;
                }
            }
            counts.push(n as f64);
        }
        counts.sort_by(f64::total_cmp);
        let median = stats::median_interval(&counts, stats::PLOT_CONFIDENCE);
        Ok(R {
            file_bytes: FILE.len(),
            file_crc32: format!("{:08x}", crc32::crc32(FILE)),
            forged_bytes: f.len(),
            forged_crc32: format!("{:08x}", crc32::crc32(&f)),
            forged_matches: crc32::crc32(&f) == crc32::crc32(FILE),
            forge_evaluations: 33,
            birthday_inputs_median: median,
            birthday_inputs_mean: counts.iter().sum::<f64>() / counts.len() as f64,
            birthday_median_theory: crc32::birthday_median(),
        })
    }

    fn keys(&self, _p: &P, _seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        Ok(Some(vec![forged()]))
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        Some(Footprint::one(
            crate::experiment::kinds::footprint::table(200_000.0, 4.0),
            p.searches as f64 * crc32::birthday_mean() * 2.0,
        ))
    }
}
