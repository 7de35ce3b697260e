//! "Which structure for which need": the decision a report opens with, read
//! from the filter frontier's measured rows (every structure configured as
//! its implementation sizes it, built at n and queried), never from a
//! formula: per need and target FPR, the structure with the fewest measured
//! bits per key among those that offer the need and whose measured FPR is
//! not above the target beyond the rate margin.

use super::{RunInfo, StudyResult};
use crate::export::markdown::sig;
use crate::table::{Table, Value};

/// One line of the decision table.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub need: &'static str,
    pub fpr: f64,
    pub structure: String,
    pub config: String,
    pub bits_per_key: f64,
    pub fpr_measured: f64,
    pub fpr_lo: f64,
    pub fpr_hi: f64,
    /// The runner-up by bits per key (structure, bits per key).
    pub runner_up: Option<(String, f64)>,
}

/// The needs a filter may have, and the column that says a structure offers
/// it ("" for a set built once and only queried: every structure).
pub const NEEDS: [(&str, &str); 4] = [
    ("a set built once, then queried", ""),
    ("inserts after the build", "inserts_after_build"),
    ("deletes", "deletes"),
    ("merging two filters", "merges"),
];

/// The targets the table shows.
pub const TARGETS: [f64; 2] = [0.01, 0.001];

/// The rate margin a measured FPR may exceed its target by (the materiality
/// table's `rate`, ±10%) before a structure is passed over.
const RATE_MARGIN: f64 = 0.10;

/// The frontier's columns the table reads.
const COLUMNS: [&str; 10] = [
    "structure",
    "config",
    "fpr",
    "n",
    "keys",
    "bits_per_key",
    "fpr_measured",
    "inserts_after_build",
    "deletes",
    "merges",
];

impl Choice {
    /// The figures as printed: target %, bits per key, measured FPR %, its
    /// 95% interval's ends (%).
    pub fn figures(&self) -> [String; 5] {
        [
            sig(100.0 * self.fpr, 3),
            sig(self.bits_per_key, 4),
            sig(100.0 * self.fpr_measured, 3),
            sig(100.0 * self.fpr_lo, 3),
            sig(100.0 * self.fpr_hi, 3),
        ]
    }
}

/// The decision table from the filter frontier's results (u64 keys, the
/// smallest n it measured); `None` when the table lacks what it needs.
pub fn filters(t: &Table) -> Option<(u64, Vec<Choice>)> {
    // at the study's largest n, the n of its frontier chart
    for c in COLUMNS {
        if !t.has(c) {
            return None;
        }
    }
    let n = t
        .rows
        .iter()
        .filter_map(|r| t.f64(r, "n"))
        .fold(f64::NEG_INFINITY, f64::max);
    if !n.is_finite() {
        return None;
    }
    let yes =
        |r: &[Value], col: &str| col.is_empty() || matches!(t.cell(r, col), Value::Bool(true));
    let mut out = Vec::new();
    for (need, col) in NEEDS {
        for target in TARGETS {
            let mut fit: Vec<&Vec<Value>> = t
                .rows
                .iter()
                .filter(|r| {
                    t.f64(r, "n") == Some(n)
                        && t.str(r, "keys") == "u64"
                        && t.f64(r, "fpr")
                            .is_some_and(|f| (f - target).abs() < target * 1e-9)
                        && yes(r, col)
                        && t.f64(r, "bits_per_key").is_some()
                        && t.interval(r, "fpr_measured")
                            .or_else(|| t.f64(r, "fpr_measured").map(crate::table::Interval::exact))
                            .is_some_and(|i| i.lo <= target * (1.0 + RATE_MARGIN))
                })
                .collect();
            fit.sort_by(|a, b| {
                let bits = |r: &Vec<Value>| t.f64(r, "bits_per_key").unwrap_or(f64::INFINITY);
                bits(a).total_cmp(&bits(b))
            });
            let Some(best) = fit.first() else { continue };
            let i = t.interval(best, "fpr_measured").unwrap_or_else(|| {
                crate::table::Interval::exact(t.f64(best, "fpr_measured").unwrap_or(f64::NAN))
            });
            out.push(Choice {
                need,
                fpr: target,
                structure: t.str(best, "structure"),
                config: t.str(best, "config"),
                bits_per_key: t.f64(best, "bits_per_key").unwrap_or(f64::NAN),
                fpr_measured: i.value,
                fpr_lo: i.lo,
                fpr_hi: i.hi,
                runner_up: fit.get(1).map(|r| {
                    (
                        t.str(r, "structure"),
                        t.f64(r, "bits_per_key").unwrap_or(f64::NAN),
                    )
                }),
            });
        }
    }
    Some((n as u64, out))
}

/// The decision table as Markdown.
pub fn markdown(n: u64, choices: &[Choice]) -> String {
    let mut s = format!(
        "Measured at n = {} u64 keys (the filter frontier study): per need and target, the structure with the fewest bits per key among those that offer the need and whose measured FPR is not above the target beyond the rate margin (±10%).\n\n| need | target FPR | smallest structure, as configured | bits per key | measured FPR [95%] | runner-up |\n|---|---|---|---|---|---|\n",
        group(n)
    );
    for c in choices {
        let [target, bits, fpr, lo, hi] = c.figures();
        s += &format!(
            "| {} | {target}% | `{}` ({}) | {bits} | {fpr}% [{lo}, {hi}] | {} |\n",
            c.need,
            c.structure,
            c.config.replace('|', "\\|"),
            c.runner_up
                .as_ref()
                .map(|(s, b)| format!("`{s}` ({} bits)", sig(*b, 4)))
                .unwrap_or_else(|| "—".into()),
        );
    }
    s
}

/// The decision the report opens with: the frontier charts and "which
/// structure for which need" (empty when the run has neither).
pub fn decide(studies: &[StudyResult<'_>], info: &RunInfo) -> String {
    let charts = frontier_charts(studies);
    if charts.is_empty() && info.decision.is_none() {
        return String::new();
    }
    let mut s = String::from("## Which structure\n\n");
    for (study, file, what) in &charts {
        s += &format!("![{what}]({study}/{file})\n\n");
    }
    if let Some((n, choices)) = &info.decision {
        s += &markdown(*n, choices);
        s += "\n`sketchlab design filter` measures the same candidates at your n, key size and needs.\n\n";
    }
    s
}

/// The frontier charts a report opens with, when the run drew them: (study,
/// file, what it shows).
pub fn frontier_charts<'a>(studies: &[StudyResult<'a>]) -> Vec<(&'a str, String, &'static str)> {
    const WANTED: [(&str, &str, &str); 2] = [
        (
            "filter_frontier",
            "filter_frontier_u64.svg",
            "bytes per key against measured FPR, every filter as configured",
        ),
        (
            "cardinality_frontier",
            "cardinality_mvp.svg",
            "memory-variance product of every distinct-count sketch",
        ),
    ];
    let mut out = Vec::new();
    for (name, file, what) in WANTED {
        if let Some(st) = studies.iter().find(|s| s.name == name)
            && st
                .plots
                .iter()
                .any(|p| p.file_name().is_some_and(|f| f == file))
        {
            out.push((st.name, file.to_string(), what));
        }
    }
    out
}

/// 1000000 → "1,000,000".
pub(crate) fn group(n: u64) -> String {
    let d = n.to_string();
    let mut out = String::new();
    for (i, ch) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{ColType, Column};

    fn table(rows: &[(&str, f64, f64, f64, bool, bool, bool)]) -> Table {
        // COLUMNS in order, with the FPR's interval after it
        let mut names: Vec<&str> = COLUMNS[..7].to_vec();
        names.extend(["fpr_measured_lo", "fpr_measured_hi"]);
        names.extend(&COLUMNS[7..]);
        Table {
            columns: names
                .iter()
                .map(|n| Column::new(*n, ColType::Str))
                .collect(),
            rows: rows
                .iter()
                .map(|&(s, fpr, bits, measured, ins, del, mer)| {
                    vec![
                        Value::Str(s.into()),
                        Value::Str(format!("{s} config")),
                        Value::Float(fpr),
                        Value::Int(1_000_000),
                        Value::Str("u64".into()),
                        Value::Float(bits),
                        Value::Float(measured),
                        Value::Float(measured * 0.98),
                        Value::Float(measured * 1.02),
                        Value::Bool(ins),
                        Value::Bool(del),
                        Value::Bool(mer),
                    ]
                })
                .collect(),
        }
    }

    #[test]
    fn each_need_takes_the_smallest_structure_that_offers_it_and_meets_the_target() {
        let t = table(&[
            ("bloom", 0.01, 9.6, 0.01, true, false, true),
            ("cuckoo", 0.01, 12.6, 0.009, true, true, false),
            ("xor", 0.01, 9.8, 0.0039, false, false, false),
            // the smallest, but its FPR lies far above the target
            ("broken", 0.01, 2.0, 0.05, true, true, true),
        ]);
        let (n, c) = filters(&t).unwrap();
        assert_eq!(n, 1_000_000);
        let pick = |need: &str| c.iter().find(|c| c.need == need && c.fpr == 0.01).unwrap();
        assert_eq!(pick(NEEDS[0].0).structure, "bloom");
        assert_eq!(pick(NEEDS[0].0).runner_up.as_ref().unwrap().0, "xor");
        assert_eq!(pick(NEEDS[1].0).structure, "bloom");
        assert_eq!(pick(NEEDS[2].0).structure, "cuckoo");
        assert_eq!(pick(NEEDS[3].0).structure, "bloom");
        assert!(c.iter().all(|c| c.structure != "broken"));
        // no row at 0.1%: that target is left out, not invented
        assert!(c.iter().all(|c| c.fpr == 0.01));
        let md = markdown(n, &c);
        assert!(
            md.contains("n = 1,000,000") && md.contains("| deletes | 1% | `cuckoo`"),
            "{md}"
        );
    }
}
