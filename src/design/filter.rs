//! `sketchlab design filter`: the figures of a filter design review, from
//! the theory functions the studies test (`bloom::theory`,
//! `cuckoo::theory`), an exact hash set measured here with the counting
//! allocator, and the attack studies' results from a reference run.

use super::figures;
use super::{Review, bad, finite, open_unit, retained, seed_advice, within};
use crate::design::measure;
use crate::design::render::{FilterArgs, FilterReview, MaxN, MemoryRow, Traffic};
use crate::error::Result;
use crate::plot::{Chart, Point, Series, Style};
use crate::structures::bloom::theory as bloom;
use crate::structures::menu::Filter;
use std::collections::HashSet;
use std::path::Path;

/// Keys measured in the exact hash set (the figure is scaled to n-max).
const MEASURED_KEYS: u64 = 1_000_000;
/// Seed of the measured candidates' keys and hash.
const MEASURE_SEED: u64 = 20_261_205;

/// The inputs, checked: one line naming the first bad one.
pub fn check(i: &FilterArgs) -> Result<()> {
    const KIND: &str = "filter:";
    finite(
        KIND,
        &[
            ("--n-expected", i.n_expected),
            ("--n-max", i.n_max),
            ("--fpr", i.fpr),
            ("--hit-rate", i.hit_rate.unwrap_or(0.0)),
            ("--qps", i.qps.unwrap_or(0.0)),
            ("--measure-seconds", i.measure_seconds),
        ],
    )?;
    within(KIND, "--measure-seconds", i.measure_seconds, 0.01, 3600.0)?;
    within(KIND, "--n-expected", i.n_expected, 1.0, 1e15)?;
    if i.n_max < i.n_expected || i.n_max > 1e15 {
        return bad(
            KIND,
            format!(
                "--n-max = {}: must be at least --n-expected ({}) and at most 1e15",
                i.n_max, i.n_expected
            ),
        );
    }
    open_unit(KIND, "--fpr", i.fpr)?;
    if let Some(h) = i.hit_rate {
        within(KIND, "--hit-rate", h, 0.0, 1.0)?;
    }
    if let Some(q) = i.qps.filter(|&q| q < 0.0) {
        return bad(KIND, format!("--qps = {q}: must not be negative"));
    }
    within(
        KIND,
        "--key-bytes",
        i.key_bytes.unwrap_or(100) as f64,
        1.0,
        (1u64 << 20) as f64,
    )?;
    Ok(())
}

/// Bytes a `HashSet<Vec<u8>>` of `n` distinct `width`-byte keys retains
/// (counting allocator; `None` when it is not the global allocator).
fn hash_set_bytes(n: u64, width: usize) -> Option<u64> {
    retained(|| {
        (0..n)
            .map(|id| {
                let mut k = id.to_le_bytes().to_vec();
                k.resize(width.max(8), 0x5a);
                k.truncate(width);
                k
            })
            .collect::<HashSet<Vec<u8>>>()
    })
}

/// Lookups per second assumed without `--qps`.
const DEFAULT_QPS: f64 = 10_000.0;

/// The lookups per second: `--qps`, or [`DEFAULT_QPS`].
fn qps(i: &FilterArgs) -> f64 {
    i.qps.unwrap_or(DEFAULT_QPS)
}

/// Computes the review (no file is written).
pub fn filter(i: &FilterArgs, reference: &Path) -> Result<FilterReview> {
    check(i)?;
    // the user's keys, read (size-bounded, a regular file only) before any work
    let key_file = match &i.keys {
        Some(path) => {
            let format = crate::workload::file::Format::from_name(&i.keys_format)
                .unwrap_or(crate::workload::file::Format::Lines);
            let k = crate::workload::file::KeyFile::load(&path.to_string_lossy(), format)
                .map_err(|e| crate::error::Error::Input(format!("design filter: --keys {e}")))?;
            if k.is_empty() {
                return bad("filter:", format!("--keys {}: no keys", path.display()));
            }
            Some(k)
        }
        None => None,
    };
    let (n, nmax, p) = (i.n_expected, i.n_max, i.fpr);
    let q = qps(i);
    let m = bloom::optimal_m(n as u64, p);
    let k = bloom::optimal_k_int(m, n as u64);
    let at = |keys: f64| bloom::fpr(keys, m as f64, k as f64);
    let traffic = |fp: f64| i.hit_rate.map(|h| q * bloom::store_traffic(h, fp));
    let m_max = bloom::optimal_m(nmax as u64, p);
    // every menu structure configured for n-max at the target and the next
    // two decades, as its implementation sizes it
    let mut rows = Vec::new();
    for target in [p, p / 10.0, p / 100.0] {
        for f in Filter::ALL {
            let Ok(c) = f.configure(nmax as u64, target) else {
                continue;
            };
            // a load the rule allows that 4-slot buckets do not reach here
            let unbuildable = match c.shape {
                crate::structures::menu::Shape::Cuckoo { buckets, f, .. } => {
                    let (_, median) = super::capacity::cuckoo_fill_limit(buckets, f, MEASURE_SEED);
                    c.load
                        .filter(|&l| l > median)
                        .map(|l| format!("; load {l:.3} is past the {median:.3} its 4-slot buckets fill to (measured here): the build fails and its user must double the table"))
                }
                _ => None,
            };
            rows.push(MemoryRow {
                structure: format!("{} ({})", f.name(), c.words()),
                target_fpr: Some(target),
                fpr: c.fpr_theory,
                bytes: c.bytes as f64,
                bits_per_key: c.bits_per_key(),
                source: format!(
                    "configured (its implementation's sizing rule; FPR: its theory){}",
                    unbuildable.unwrap_or_default()
                ),
            });
        }
    }
    let measured = MEASURED_KEYS.min(nmax as u64);
    // the keys' own length when the user gave keys and no --key-bytes
    let key_bytes = i.key_bytes.unwrap_or_else(|| {
        key_file
            .as_ref()
            .map_or(100, |k| (k.mean_len().ceil() as u64).max(1))
    });
    if let Some(b) = hash_set_bytes(measured, key_bytes as usize) {
        let scaled = b as f64 * nmax / measured as f64;
        rows.push(MemoryRow {
            structure: format!("exact HashSet<Vec<u8>> of {key_bytes}-byte keys"),
            target_fpr: None,
            fpr: 0.0,
            bytes: scaled,
            bits_per_key: 8.0 * scaled / nmax,
            source: format!("measured ({measured} keys, scaled)"),
        });
    }
    let provenance = format!(
        "Formulas (the theory functions the studies test): the FPR, m, k and store-traffic figures of questions 2 and 3. Configured by each implementation's own sizing rule: question 4's memory rows. Measured on this machine: the recommendation (every candidate built at n-max = {} keys, or a scaled instance where it says so, its FPR from {} absent queries and its query times), and the exact hash set ({} keys through the counting allocator, scaled linearly to n-max). From the reference run `{}`: the attack results under question 5{}.",
        crate::design::render::count(nmax),
        crate::design::render::count(measure::queries_for(p) as f64),
        crate::design::render::count(measured as f64),
        reference.display(),
        if reference.is_file() {
            ""
        } else {
            " (not found: those results are left out)"
        }
    );
    let recommendation = super::advice::recommend(
        nmax as u64,
        p,
        &i.needs.iter().map(String::as_str).collect::<Vec<_>>(),
        measure::Budget::machine(i.measure_seconds),
        i.common.prefer,
        &measure::Keys::new(key_file.as_ref(), MEASURE_SEED),
        MEASURE_SEED,
    );
    Ok(FilterReview {
        answer: recommendation.answer(),
        inputs: i.clone(),
        key_bytes,
        direction: "A filter errs one way only: a \"no\" is always right (no false negatives); a \"maybe\" is wrong with probability p, and the authoritative store behind it resolves every maybe. Without that store a maybe cannot be resolved, and the filter cannot be used alone.".into(),
        traffic: i.hit_rate.map(|h| {
            let removed = 1.0 - bloom::store_traffic(h, at(n));
            let verdict = if removed >= 0.5 {
                "build"
            } else if removed >= 0.1 {
                "marginal"
            } else {
                "don't"
            };
            Traffic {
                without_filter_per_s: q,
                hits_per_s: q * h,
                false_positives_per_s: q * (1.0 - h) * at(n),
                with_filter_per_s: q * bloom::store_traffic(h, at(n)),
                fraction_removed: removed,
                verdict: verdict.into(),
                rule: "build when the filter removes at least half of the store's lookups (traffic close to h), don't when it removes less than one in ten, marginal between".into(),
                assumed: if i.qps.is_none() {
                    format!("no --qps: lookups per second assumed {}", DEFAULT_QPS)
                } else {
                    String::new()
                },
            }
        }),
        max_n: MaxN {
            m_bits: m,
            k,
            bytes: m as f64 / 8.0,
            fpr_at_expected: at(n),
            fpr_at_max: at(nmax),
            traffic_at_expected_per_s: traffic(at(n)),
            traffic_at_max_per_s: traffic(at(nmax)),
            m_bits_for_max: m_max,
            k_for_max: bloom::optimal_k_int(m_max, nmax as u64),
            bytes_for_max: m_max as f64 / 8.0,
        },
        bits_per_key_per_decade: bloom::bits_per_decade(),
        next_digit: rows,
        recommendation,
        seed: seed_advice(
            i.common.seed_policy,
            reference,
            &[
                figures::ATTACKER_DECIDES_THE_FPR,
                figures::RANDOM_SEED_MURMUR_TWINS,
                figures::KEYED_FILTER_KEEPS_DESIGN_RATE,
            ],
        ),
        charts: Vec::new(),
        provenance,
    })
}

/// The review's two charts: store traffic vs hit rate (the user's h marked)
/// and the overfill curve of the filter sized for n-expected.
fn filter_charts(r: &FilterReview) -> Vec<Chart> {
    let i = &r.inputs;
    let fp = r.max_n.fpr_at_expected;
    let traffic: Vec<Point> = (0..=100)
        .map(|j| {
            let h = j as f64 / 100.0;
            Point::new(h, qps(i) * bloom::store_traffic(h, fp))
        })
        .collect();
    let (m, k) = (r.max_n.m_bits as f64, r.max_n.k as f64);
    let lo = (i.n_expected / 10.0).max(1.0);
    let hi = 3.0 * i.n_max;
    let overfill: Vec<Point> = (0..=120)
        .map(|j| {
            let n = lo * (hi / lo).powf(j as f64 / 120.0);
            Point::new(n, bloom::fpr(n, m, k))
        })
        .collect();
    let mut charts = Vec::new();
    if let Some(h) = i.hit_rate {
        charts.push(
            Chart::new(
                "traffic_vs_hit_rate",
                "Store lookups per second behind the filter vs the hit rate",
                "hit rate h",
                "store lookups per second",
            )
            .series(Series::new(
                "with the filter: qps·(h + (1 − h)p)",
                Style::Line,
                traffic,
            ))
            .hline(qps(i), "without a filter")
            .vline(h, "your h"),
        );
    }
    charts.push(
        Chart::new(
            "overfill",
            "FPR of the filter sized for n-expected as it fills",
            "keys inserted",
            "false-positive rate",
        )
        .log_x()
        .log_y()
        .series(Series::new("(1 − e^(−kn/m))^k", Style::Line, overfill))
        .vline(i.n_expected, "n-expected")
        .vline(i.n_max, "n-max")
        .hline(i.fpr, "target"),
    );
    charts
}

impl Review for FilterReview {
    const NAME: &'static str = "filter";
    const TITLE: &'static str = "Filter design review";
    fn answer(&self) -> &str {
        &self.answer
    }
    fn markdown(&self) -> String {
        crate::design::render::filter::filter_markdown(self)
    }
    fn charts(&self) -> Vec<Chart> {
        filter_charts(self)
    }
    fn set_charts(&mut self, files: Vec<String>) {
        self.charts = files;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn essay() -> FilterArgs {
        FilterArgs {
            n_expected: 1e6,
            n_max: 3e6,
            fpr: 0.01,
            hit_rate: Some(0.02),
            qps: Some(10_000.0),
            key_bytes: Some(100),
            needs: Vec::new(),
            measure_seconds: 2.0,
            keys: None,
            keys_format: "lines".into(),
            common: crate::design::tests_common(),
        }
    }

    /// The essay's case: 298 lookups per second at design size, ~4,470 at
    /// 3M keys, where the FPR is 43.6%.
    #[test]
    fn the_essays_numbers() {
        let r = filter(&essay(), Path::new("/nonexistent")).unwrap();
        let t = r.traffic.as_ref().unwrap();
        assert_eq!(t.with_filter_per_s.round(), 298.0);
        assert_eq!(t.verdict, "build");
        assert!(
            (r.max_n.fpr_at_max - 0.436).abs() < 0.0005,
            "{}",
            r.max_n.fpr_at_max
        );
        assert!((r.max_n.traffic_at_max_per_s.unwrap() - 4470.0).abs() < 10.0);
        assert_eq!((r.max_n.m_bits, r.max_n.k), (9_585_059, 7));
        // a Bloom filter pays 4.79 bits per key per decade
        let bloom: Vec<&MemoryRow> = r
            .next_digit
            .iter()
            .filter(|m| m.structure.starts_with("bloom ("))
            .collect();
        let per_decade = (
            bloom[1].bits_per_key - bloom[0].bits_per_key,
            bloom[2].bits_per_key - bloom[1].bits_per_key,
        );
        assert!((per_decade.0 - 4.79).abs() < 0.01 && (per_decade.1 - 4.79).abs() < 0.01);
        // the blocked filter needs more bits for the same rate, and meets it
        let blocked: Vec<&MemoryRow> = r
            .next_digit
            .iter()
            .filter(|m| m.structure.starts_with("blocked"))
            .collect();
        for (b, s) in blocked.iter().zip(&bloom) {
            assert!(b.bytes > s.bytes && b.fpr <= b.target_fpr.unwrap());
        }
        // every candidate was measured at n-max or says why not
        let rec = &r.recommendation;
        assert_eq!(rec.measured.len() + rec.left_out.len(), Filter::ALL.len());
        assert!(rec.choice.smallest.is_some());
    }

    #[test]
    fn bad_input_is_refused() {
        super::super::assert_refused(
            essay(),
            &[
                |i| i.fpr = 0.0,
                |i| i.fpr = 1.0,
                |i| i.fpr = f64::NAN,
                |i| i.n_max = 5e5,
                |i| i.hit_rate = Some(1.5),
                |i| i.hit_rate = Some(-0.1),
                |i| i.qps = Some(-1.0),
                |i| i.n_expected = f64::NAN,
                |i| i.measure_seconds = 0.0,
            ],
            check,
        );
    }
}
