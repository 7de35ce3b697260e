//! The ledger's counts: verdicts by reading (intended, caveats) and by
//! ground (a run's, by arithmetic, by citation), as REPORT.md, LEDGER.md,
//! index.html and README state them.

use super::ledger::{self, Basis, LedgerRow, Reading, Verdict};

/// How a row's verdict was reached, the three counted apart: measured or
/// counted by a run, by arithmetic (basis `computed`: a formula, a
/// document's own numbers, a construction), by citation (basis `reference`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Ground {
    Run,
    Arithmetic,
    Citation,
}

impl Ground {
    pub const ALL: [Ground; 3] = [Ground::Run, Ground::Arithmetic, Ground::Citation];

    pub fn of(basis: Basis) -> Ground {
        match basis {
            Basis::Measured | Basis::Counted => Ground::Run,
            Basis::Computed => Ground::Arithmetic,
            Basis::Reference => Ground::Citation,
        }
    }

    /// The label before a group's counts ("" for a run's).
    pub fn label(self) -> &'static str {
        match self {
            Ground::Run => "",
            Ground::Arithmetic => "by arithmetic",
            Ground::Citation => "by citation",
        }
    }

    /// A verdict's plural in this group: `not-measured` is "unverified" by
    /// citation (no reference decides the sentence).
    pub fn plural(self, v: Verdict) -> &'static str {
        match (self, v) {
            (Ground::Citation, Verdict::NotMeasured) => "unverified",
            (_, v) => v.plural(),
        }
    }
}

/// Joins groups of counts: "3 hold, 1 do not hold; by arithmetic: 2 hold;
/// by citation: 1 unverified" (empty groups left out).
pub fn join_grounds(groups: &[(Ground, Vec<String>)]) -> String {
    let parts: Vec<String> = groups
        .iter()
        .filter(|(_, g)| !g.is_empty())
        .map(|(ground, g)| match ground.label() {
            "" => g.join(", "),
            label => format!("{label}: {}", g.join(", ")),
        })
        .collect();
    parts.join("; ")
}

/// "3 hold, 1 do not hold, …" for a set of ledger rows (zero counts left
/// out), the verdicts by arithmetic (basis `computed`) and by citation (basis
/// `reference`) counted apart: "…; by arithmetic: 4 hold; by citation: 2
/// hold, 1 unverified".
pub fn verdict_counts<'a>(rows: impl IntoIterator<Item = &'a LedgerRow>) -> String {
    let mut n = [[0usize; ledger::VERDICTS.len()]; 3];
    for r in rows {
        let g = Ground::ALL
            .iter()
            .position(|g| *g == Ground::of(r.basis))
            .expect("every ground is listed");
        n[g][verdict_rank(r.verdict)] += 1;
    }
    let groups: Vec<(Ground, Vec<String>)> = Ground::ALL
        .iter()
        .zip(n)
        .map(|(g, n)| {
            let list = n
                .iter()
                .zip(ledger::VERDICTS)
                .filter(|(k, _)| **k > 0)
                .map(|(k, v)| format!("{k} {}", g.plural(v)))
                .collect();
            (*g, list)
        })
        .collect();
    join_grounds(&groups)
}

/// A verdict by citation's plural: `not-measured` is "unverified" there
/// (no reference decides the sentence).
pub fn cited_plural(v: Verdict) -> &'static str {
    Ground::Citation.plural(v)
}

/// "intended: 150 hold, 9 do not hold, …; caveats: 30 (12 hold, 18 do not hold)".
pub fn reading_counts(rows: &[LedgerRow]) -> String {
    let intended: Vec<&LedgerRow> = rows
        .iter()
        .filter(|r| r.reading == Reading::Intended)
        .collect();
    let caveats: Vec<&LedgerRow> = rows
        .iter()
        .filter(|r| r.reading == Reading::Caveat)
        .collect();
    let mut s = format!(
        "{} claims as meant: {}",
        intended.len(),
        verdict_counts(intended.iter().copied())
    );
    if !caveats.is_empty() {
        s += &format!(
            "; {} caveats (literal or edge readings, counted apart): {}",
            caveats.len(),
            verdict_counts(caveats.iter().copied())
        );
    }
    s
}

/// "5 claims: 4 hold, 1 do not hold; 2 caveats" (the caveats counted apart).
pub fn section_counts(rows: &[&LedgerRow]) -> String {
    let intended: Vec<&LedgerRow> = rows
        .iter()
        .copied()
        .filter(|r| r.reading == Reading::Intended)
        .collect();
    let caveats = rows.len() - intended.len();
    let mut s = format!(
        "{} claims: {}",
        intended.len(),
        verdict_counts(intended.iter().copied())
    );
    if caveats > 0 {
        s += &format!("; {caveats} caveat{}", if caveats == 1 { "" } else { "s" });
    }
    s
}

pub(crate) fn verdict_rank(v: Verdict) -> usize {
    ledger::VERDICTS
        .iter()
        .position(|x| *x == v)
        .expect("every verdict is listed")
}
