//! "Which structure for which need": the decision a report opens with,
//! rendered from the choices the filter frontier's view reads off its
//! measured rows (`experiment::view::filters::decision`): per need and
//! target FPR, the structure with the fewest measured bits per key among
//! those that offer the need and whose measured FPR is not above the target
//! beyond the rate margin.

use super::{RunInfo, StudyResult};
use crate::export::markdown::sig;

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

/// The targets the table shows.
pub const TARGETS: [f64; 2] = [0.01, 0.001];

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
