//! Your own filter through sketchlab, end to end: fastbloom's Bloom filter
//! (a crate sketchlab does not contain) wrapped in `Membership`, sized by its
//! own builder for each (n, ε) of a study, and measured by the same pipeline
//! as sketchlab's filters: results.csv with the measured FPR (Wilson
//! interval) beside the target ε, bits per key against the log2(1/ε) limit
//! and a space-optimal Bloom filter, the manifest, and the declared charts.
//!
//! cargo run --release --example own_filter -- [OUT]      (default /tmp/sketchlab-own)

use sketchlab::stats::Proportion;
use sketchlab::structures::{InsertError, Membership};

/// fastbloom's filter, as sketchlab sees it.
struct FastBloom(fastbloom::BloomFilter);

impl Membership for FastBloom {
    fn insert(&mut self, key: &[u8]) -> Result<(), InsertError> {
        self.0.insert(key);
        Ok(())
    }
    fn contains(&self, key: &[u8]) -> bool {
        self.0.contains(key)
    }
    fn fill_ratio(&self) -> f64 {
        self.fill().rate
    }
    fn fill(&self) -> Proportion {
        let ones: u64 = self
            .0
            .as_slice()
            .iter()
            .map(|w| w.count_ones() as u64)
            .sum();
        Proportion::new(ones, self.0.num_bits() as u64)
    }
    fn bytes(&self) -> usize {
        self.0.num_bits() / 8
    }
}

const SPEC: &str = r#"
name = "fastbloom"
kind = "own_filter"
description = "fastbloom 0.17's BloomFilter::with_false_pos(ε).expected_items(n), SipHash-1-3 seeded per trial"
seed = 2026
[grid]
n = [10_000, 100_000]
fpr = [0.1, 0.01, 0.001]
keys = ["u64", "url100"]
queries = 200_000
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/tmp/sketchlab-own".into());
    let measured = sketchlab::experiment::own::measure_filter(
        |n, fpr, seed| {
            FastBloom(
                fastbloom::BloomFilter::with_false_pos(fpr)
                    .seed(&(seed as u128))
                    .expected_items(n as usize),
            )
        },
        SPEC,
        std::path::Path::new(&out),
    )?;
    let section = measured.study.spec.section(&measured.study.tables);
    print!("{}", sketchlab::export::markdown::table(&section.table));
    println!(
        "\n{}\n\nwritten: {}",
        section.reading,
        measured.dir.display()
    );
    Ok(())
}
