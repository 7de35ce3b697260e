//! `double_hashing`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::bloom::double_hashing::*;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::Section;
use crate::stats;

const VIEW: &str = include_str!("double_hashing.toml");

/// The view registered for [`DoubleHashing`] (see [`crate::experiment::view::VIEWS`]).
pub struct DoubleHashingView;

impl View for DoubleHashingView {
    fn kind(&self) -> &'static str {
        DoubleHashing::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        Section {
            table,
            reading: reading(&summary_rows::<DoubleHashing, Rs>(t.summary())),
        }
    }
}

/// Pairs each double/enhanced row with its independent twin: the ratio's
/// interval, and whether the excess theory explains the measured loss.
fn reading(rows: &[(P, Rs)]) -> String {
    let same = |a: &P, b: &P| {
        a.n == b.n
            && a.bits_per_key == b.bits_per_key
            && a.k == b.k
            && a.hash == b.hash
            && a.keys == b.keys
    };
    let of = |scheme: Probing| rows.iter().filter(move |(p, _)| p.scheme == scheme);
    let mut out = Vec::new();
    for scheme in [Probing::Double, Probing::Enhanced] {
        let (mut pairs, mut within, mut worst) = (0, 0, (1.0f64, String::new()));
        for (p, r) in of(scheme) {
            let Some((_, o)) = of(Probing::Independent).find(|(q, _)| same(p, q)) else {
                continue;
            };
            let (Some(a), Some(b)) = (r.fpr_measured.interval(), o.fpr_measured.interval()) else {
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
                        p.n,
                        p.bits_per_key,
                        r.fpr_theory_double
                            .value
                            .zip(r.fpr_theory.value)
                            .map_or("none".into(), |(d, i)| sig(d / i, 3))
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
    let misses: Vec<String> = of(Probing::Independent)
        .filter_map(|(p, r)| {
            let i = r.fpr_measured.interval()?;
            let th = r.fpr_theory.value?;
            (!i.contains(th)).then(|| {
                format!(
                    "n = {}, {} bits/key: {} vs theory {}",
                    p.n,
                    p.bits_per_key,
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
