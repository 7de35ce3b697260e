//! Sequential sampling (`[sequential]` in a spec): which trials a run needs,
//! given the trials it has.
//!
//! Trials are expanded up to the budget, settings in grid order with each
//! setting's replicates together. A setting starts with the grid's
//! replicates; when they are all done, each named claim is judged on the
//! setting's rows alone (the ledger's own rule, on a summary built as the
//! report builds it). While one is inconclusive and the budget allows, the
//! setting needs `batch` more replicates. The answer depends only on the
//! setting's rows, which depend only on (spec, seed), so a run stops at the
//! same replicate at any thread count, after `--resume`, and in a shard
//! (shards place a sequential setting's replicates together); `merge` checks
//! the shards against the same rule.

use super::grid::Trial;
use super::journal::Record;
use super::spec::Spec;
use crate::error::Result;
use crate::report::ledger;
use crate::report::verdict::Verdict;
use crate::table::Tables;
use std::collections::HashMap;

/// Per trial: whether the run needs it, given `done` (records by trial
/// index). Every trial when the spec is not sequential.
pub fn wanted(
    spec: &Spec,
    quick: bool,
    trials: &[Trial],
    done: &HashMap<usize, Record>,
) -> Result<Vec<bool>> {
    let Some(seq) = &spec.sequential else {
        return Ok(vec![true; trials.len()]);
    };
    let per = spec.max_replicates(quick) as usize;
    let start = spec.replicates(quick) as usize;
    let mut out = vec![false; trials.len()];
    for first in (0..trials.len()).step_by(per.max(1)) {
        let mut r = start.min(per);
        loop {
            let have: Option<Vec<&Record>> = (first..first + r).map(|i| done.get(&i)).collect();
            let decided = match have {
                // this round is not complete: it is what the setting needs next
                None => true,
                Some(records) => r >= per || settled(spec, seq.claims.as_slice(), &records, per)?,
            };
            if decided {
                out[first..first + r].iter_mut().for_each(|w| *w = true);
                break;
            }
            r = (r + seq.batch as usize).min(per);
        }
    }
    Ok(out)
}

/// The settings whose sampling stopped short of the budget, and how many
/// replicates each took, as a sentence for the manifest.
pub fn describe(spec: &Spec, quick: bool, wanted: &[bool]) -> Option<String> {
    let seq = spec.sequential.as_ref()?;
    let per = spec.max_replicates(quick) as usize;
    let taken: Vec<usize> = wanted
        .chunks(per.max(1))
        .map(|c| c.iter().filter(|w| **w).count())
        .collect();
    let (lo, hi) = (
        taken.iter().min().copied().unwrap_or(0),
        taken.iter().max().copied().unwrap_or(0),
    );
    Some(format!(
        "{} settings took {lo}..={hi} replicates ({} to start, {} more per round while {} undecided, at most {per}); {} trials in all",
        taken.len(),
        spec.replicates(quick),
        seq.batch,
        seq.claims.join(", "),
        taken.iter().sum::<usize>()
    ))
}

/// Whether every named claim is decided (or does not apply) on one
/// setting's records, or cannot be decided within `budget` replicates.
fn settled(spec: &Spec, ids: &[String], records: &[&Record], budget: usize) -> Result<bool> {
    let owned: Vec<Record> = records.iter().map(|r| (*r).clone()).collect();
    // the rows and their summary as the report reads them: through their
    // CSV text (measured floats to ten digits)
    let results = super::records::to_table(spec, &owned)?;
    let results = crate::export::csv::parse(
        &crate::export::csv::to_bytes(&results)?,
        &spec.kind.columns(),
    )?;
    let summary = super::summary::summarise(
        &results,
        &spec.kind.param_columns(),
        &spec.kind.fields(),
        crate::stats::PLOT_CONFIDENCE,
    )?;
    let bytes = crate::export::csv::to_bytes(&summary)?;
    let summary = crate::export::csv::parse(&bytes, &spec.kind.summary_columns())?;
    let tables = Tables {
        results,
        summary: Some(summary),
    };
    Ok(spec.claims.iter().filter(|c| ids.contains(&c.id)).all(|c| {
        let row = ledger::evaluate(c, &spec.name, &tables);
        row.verdict != Verdict::Inconclusive || futile(c, &row, records.len(), budget)
    }))
}

/// Futility: an undecided claim whose projected size
/// ([`ledger::projected_size`]) exceeds the budget stops now; more
/// replicates would cost time and space without a decision.
fn futile(claim: &ledger::Claim, row: &ledger::LedgerRow, n: usize, budget: usize) -> bool {
    ledger::projected_size(claim, row, n).is_some_and(|need| need > budget as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::runner::{RunOptions, run_trials};
    use std::path::Path;

    /// 1,000-key filters: at 10 bits per key the FPR formula needs a few
    /// dozen filters to be decided at ±10%; at 4 bits "0.5" is refuted at once.
    const SPEC: &str = r#"name = "seq"
kind = "double_hashing"
description = "sequential sampling"
seed = 7

[grid]
n = 1000
bits_per_key = [4, 10]
k = 7
scheme = "independent"
queries = 20000
replicates = 2

[sequential]
claims = ["formula", "half"]
batch = 6
budget = 62

[[claim]]
id = "formula"
document = "000"
quote = "q"
documented = 0.00819
unit = "FPR"
select = { bits_per_key = 10 }
metric = "fpr_measured"
table = "summary"
basis = "measured"
type = "approximation"
quantity = "approx"

[[claim]]
id = "half"
document = "000"
quote = "q"
documented = 0.5
unit = "FPR"
select = { bits_per_key = 4 }
metric = "fpr_measured"
table = "summary"
basis = "measured"
type = "approximation"
quantity = "approx"
"#;

    fn replicates_by_setting(t: &crate::table::Table) -> Vec<(String, usize)> {
        let (b, r) = (t.col("bits_per_key"), t.col("replicate"));
        let mut out: Vec<(String, usize)> = Vec::new();
        for row in &t.rows {
            let key = row[b].to_string();
            assert_eq!(row[r].to_string().parse::<usize>().unwrap(), {
                match out.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => {
                        *n += 1;
                        *n - 1
                    }
                    None => {
                        out.push((key, 1));
                        0
                    }
                }
            });
        }
        out
    }

    #[test]
    fn sequential_sampling_stops_deterministically() {
        let spec = Spec::parse(Path::new("seq.toml"), SPEC).unwrap();
        let opts = RunOptions {
            out: "unused".into(),
            quick: false,
            threads: 1,
            seed: None,
            resume: false,
            shard: None,
        };
        let pool = |n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        };
        let one = run_trials(&spec, &opts, &pool(1)).unwrap();
        let two = run_trials(&spec, &opts, &pool(2)).unwrap();
        assert_eq!(
            crate::export::csv::to_bytes(&one).unwrap(),
            crate::export::csv::to_bytes(&two).unwrap()
        );
        let taken = replicates_by_setting(&one);
        // the refuted setting stops after its first round; the other grows
        // in rounds of 6 and stops before (or at) the budget
        assert_eq!(taken[0], ("4".to_string(), 2), "{taken:?}");
        let (bits, n) = &taken[1];
        assert_eq!(bits, "10");
        assert!(*n > 2 && *n <= 62 && (n - 2) % 6 == 0, "{taken:?}");
        // the rows are the rule's fixed point: no trial more, none fewer
        let trials = crate::experiment::runner::trials(&spec, &opts);
        assert_eq!(trials.len(), 2 * 62);
        let per = 62;
        let mut done = HashMap::new();
        for (s, (_, n)) in taken.iter().enumerate() {
            for rep in 0..*n {
                let t = &trials[s * per + rep];
                let rows: Vec<Vec<String>> = one
                    .rows
                    .iter()
                    .filter(|r| r[one.col("trial_id")].to_string() == format!("{:016x}", t.id))
                    .map(|r| r.iter().map(|v| v.to_string()).collect())
                    .collect();
                done.insert(
                    t.index,
                    Record {
                        index: t.index,
                        id: t.id,
                        key: None,
                        rows,
                    },
                );
            }
        }
        let want = wanted(&spec, false, &trials, &done).unwrap();
        assert_eq!(
            want.iter().filter(|w| **w).count(),
            done.len(),
            "the rule asks for exactly the trials run"
        );
        assert!(done.keys().all(|&i| want[i]));
        // with the first round only, the rule asks for the undecided setting's next batch
        let first: HashMap<usize, Record> = done
            .iter()
            .filter(|(i, _)| (**i % per) < 2)
            .map(|(i, r)| (*i, r.clone()))
            .collect();
        let next = wanted(&spec, false, &trials, &first).unwrap();
        assert_eq!(next.iter().filter(|w| **w).count(), 2 + 8);
    }

    #[test]
    fn futility_stops_a_claim_the_budget_cannot_decide() {
        let spec = Spec::parse(Path::new("seq.toml"), SPEC).unwrap();
        let claim = &spec.claims[0];
        // the band is 0.00819 ± 10% = [0.007371, 0.009009]
        let mut row = ledger::evaluate(
            claim,
            "seq",
            &Tables {
                results: crate::table::Table::new(vec![]),
                summary: None,
            },
        );
        (row.measured, row.interval) = (Some(0.0089), Some((0.0085, 0.0093)));
        // half-width 0.0004 against 0.000109 to the edge: 13.5 times the size
        let need = ledger::projected_size(claim, &row, 10).unwrap();
        assert!(
            (need / 10.0 - (0.0004f64 / 0.000109).powi(2)).abs() < 0.1,
            "{need}"
        );
        assert!(!futile(claim, &row, 2, 62) && futile(claim, &row, 10, 62));
        // on the edge itself no size decides
        (row.measured, row.interval) = (Some(0.009009), Some((0.0086, 0.0094)));
        assert!(futile(claim, &row, 2, 100_000));
        // an interval inside the band has no edge to cross: not futile
        (row.measured, row.interval) = (Some(0.0082), Some((0.0080, 0.0084)));
        assert_eq!(ledger::projected_size(claim, &row, 2), None);
    }

    #[test]
    fn sequential_specs_are_validated() {
        for (from, to, needle) in [
            ("batch = 6", "batch = 0", "sequential.batch"),
            ("budget = 62", "budget = 1", "sequential.budget"),
            ("\"formula\", \"half\"", "\"nope\"", "sequential.claims[0]"),
            ("\"formula\", \"half\"", "\"half\", \"half\"", "named twice"),
            (
                "budget = 62",
                "budget = 62\nquick_budget = 63",
                "quick_budget",
            ),
            ("replicates = 2", "replicates = 1", "replicates >= 2"),
        ] {
            let text = SPEC.replacen(from, to, 1);
            let err = Spec::parse(Path::new("seq.toml"), &text).unwrap_err();
            assert!(format!("{err}").contains(needle), "{needle}: {err}");
        }
    }
}
