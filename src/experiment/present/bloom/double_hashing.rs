//! `double_hashing`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::bloom::double_hashing::*;
use crate::experiment::present::Present;
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::stats;
use crate::table::{Table, Value};

impl Present for DoubleHashing {
    const VIEW: &'static str = include_str!("double_hashing.toml");

    const THEORY: &'static [(&'static str, &'static str)] =
        &[("fpr_measured", "fpr_theory_scheme")];

    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::present::declared_table(Self::VIEW, t);
        let t = t.summary();
        Section {
            table,
            reading: reading(t),
        }
    }
}

/// Pairs each double/enhanced row with its independent twin: the ratio's
/// interval, and whether the excess theory explains the measured loss.
fn reading(t: &Table) -> String {
    let same = |a: &[Value], b: &[Value]| {
        ["n", "bits_per_key", "k", "hash", "keys"]
            .iter()
            .all(|c| t.cell(a, c) == t.cell(b, c))
    };
    let mut out = Vec::new();
    for scheme in ["double", "enhanced"] {
        let (mut pairs, mut within, mut worst) = (0, 0, (1.0f64, String::new()));
        for r in t.where_str("scheme", scheme) {
            let Some(o) = t.where_str("scheme", "independent").find(|o| same(r, o)) else {
                continue;
            };
            let (Some(a), Some(b)) = (t.interval(r, "fpr_measured"), t.interval(o, "fpr_measured"))
            else {
                continue;
            };
            if !(a.value > 0.0 && b.value > 0.0) {
                continue;
            }
            pairs += 1;
            let ratio = stats::ratio_interval(a, b, stats::PLOT_CONFIDENCE);
            if ratio.contains(1.0) {
                within += 1;
            }
            if ratio.lo > worst.0 {
                worst = (
                    ratio.lo,
                    format!(
                        "{}× [{}, {}] at n = {}, {} bits/key (theory of the excess: {}×)",
                        sig(ratio.value, 3),
                        sig(ratio.lo, 3),
                        sig(ratio.hi, 3),
                        t.str(r, "n"),
                        t.str(r, "bits_per_key"),
                        sig(
                            t.f64(r, "fpr_theory_double").unwrap_or(f64::NAN)
                                / t.f64(r, "fpr_theory").unwrap_or(f64::NAN),
                            3
                        )
                    ),
                );
            }
        }
        if pairs > 0 {
            out.push(format!(
                "{scheme} / independent: the ratio's 95% interval contains 1 in {within} of {pairs} settings{}",
                if worst.1.is_empty() {
                    String::new()
                } else {
                    format!("; the clearest loss is {}", worst.1)
                }
            ));
        }
    }
    let misses: Vec<String> = t
        .rows
        .iter()
        .filter(|r| t.str(r, "scheme") == "independent")
        .filter_map(|r| {
            let i = t.interval(r, "fpr_measured")?;
            let th = t.f64(r, "fpr_theory")?;
            (!i.contains(th)).then(|| {
                format!(
                    "n = {}, {} bits/key: {} vs theory {}",
                    t.str(r, "n"),
                    t.str(r, "bits_per_key"),
                    pct(i.value, 3),
                    pct(th, 3)
                )
            })
        })
        .collect();
    out.push(if misses.is_empty() {
        "independent hashes match (1 - e^(-kn/m))^k within every interval".into()
    } else {
        format!(
            "independent hashes miss the theory's interval at {}",
            misses.join("; ")
        )
    });
    format!("{}.", out.join(". "))
}
