//! `crc32_forgery`: CRC32 as a content address. A second input with the
//! same CRC32 as a given file (the licence corpus) is solved for, not
//! searched (four appended bytes; CRC is affine over GF(2)); next to it, how
//! many random inputs it takes before two share a CRC32 by chance.

use crate::attack::crc32;
use crate::experiment::kinds::common;
use crate::experiment::kinds::{Footprint, Study, Tables};
use crate::experiment::params::{Def, Seeds};
use crate::plot::{Chart, Point, Series, Style};
use crate::report::Section;
use crate::report::SeedRow;
use crate::stats;
use crate::table::Interval;
use rand::RngExt;

pub struct Crc32Forgery;

/// The given file: the licence corpus the MinHash study reads.
const FILE: &[u8] = include_bytes!("../../../../data/licenses.txt");
const FORGED_PREFIX: &[u8] = b"sketchlab: not the file you asked for, with the same CRC32\n";

crate::params! {
    pub struct P {
        searches: u64 = common::int(1, 10_000, Def::Int(50), "random-input searches for a chance CRC32 collision"),
    }
}

crate::row! {
    pub struct R {
        file_bytes: usize [Same],
        file_crc32: String [Same],
        forged_bytes: usize [Same],
        forged_crc32: String [Same],
        forged_matches: bool [Same],
        /// CRC32 evaluations the forgery took (one per unknown bit, plus one).
        forge_evaluations: u64 [Same],
        /// Random 16-byte inputs drawn until two shared a CRC32 (median over searches, 95% interval).
        birthday_inputs_median: Interval,
        birthday_inputs_mean: f64,
        birthday_median_theory: f64 [Same],
    }
}

fn forged() -> Vec<u8> {
    crc32::forge(FORGED_PREFIX, crc32::crc32(FILE))
}

impl Study for Crc32Forgery {
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

    fn charts(&self, t: &Tables) -> Vec<Chart> {
        let t = &t.results;
        let pts: Vec<Point> = t
            .rows
            .iter()
            .filter_map(|r| {
                let i = t.interval(r, "birthday_inputs_median")?;
                Some(Point::with_interval(
                    t.f64(r, "searches")?,
                    i.value,
                    i.lo,
                    i.hi,
                ))
            })
            .collect();
        let theory: Vec<Point> = pts
            .iter()
            .map(|p| Point::new(p.x, crc32::birthday_median()))
            .collect();
        vec![
            Chart::new(
                "birthday_inputs",
                "Random inputs until two share a CRC32 (a forgery takes 33 CRC evaluations)",
                "searches",
                "inputs (median)",
            )
            .log_y()
            .series(Series::new("measured median", Style::Points, pts))
            .series(Series::new(
                "sqrt(2 ln 2 · 2^32) = 77,163",
                Style::Line,
                theory,
            )),
        ]
    }

    fn seed_rows(&self, t: &Tables) -> Vec<SeedRow> {
        let t = &t.results;
        let r = t.rows.last();
        vec![SeedRow {
            structure: "CRC32 content address".into(),
            attack: "second input with a file's CRC32".into(),
            designed: super::cell(r.and_then(|r| t.f64(r, "birthday_median_theory")), |x| {
                format!(
                    "chance collision after ~{} inputs",
                    crate::export::markdown::sig(x, 3)
                )
            }),
            constant_seed: super::cell(r.and_then(|r| t.f64(r, "forge_evaluations")), |x| {
                format!("forged in {x} CRC evaluations (CRC has no seed)")
            }),
            random_seed: "—".into(),
            keyed: "—".into(),
        }]
    }

    fn section(&self, t: &Tables) -> Section {
        let tab = &t.results;
        let table = tab.project(
            &[
                "searches",
                "file_bytes",
                "file_crc32",
                "forged_crc32",
                "forged_matches",
                "forge_evaluations",
                "birthday_inputs_median",
                "birthday_inputs_median_lo",
                "birthday_inputs_median_hi",
                "birthday_median_theory",
            ],
            |_| true,
        );
        let reading = match tab.rows.last() {
            Some(r) => format!(
                "The forged input ({} bytes) has the file's CRC32 {}: {}, after {} CRC evaluations and no search. By chance, random inputs first share a CRC32 after a median of {} draws (theory {}).",
                tab.str(r, "forged_bytes"),
                tab.str(r, "file_crc32"),
                if tab.str(r, "forged_matches") == "true" {
                    "equal"
                } else {
                    "NOT equal"
                },
                tab.str(r, "forge_evaluations"),
                crate::export::markdown::sig(
                    tab.f64(r, "birthday_inputs_median").unwrap_or(f64::NAN),
                    4
                ),
                crate::export::markdown::sig(crc32::birthday_median(), 5),
            ),
            None => String::new(),
        };
        Section { table, reading }
    }
}
