//! Claims that need no study: dates, venues, theorems and deployments that no
//! harness can measure. They live in `data/claims_without_study.toml`
//! (compiled in, so every rebuilt ledger carries them) and enter the ledger
//! with basis `reference` and a verdict by citation, counted apart from the
//! measured ones: `holds` or `does-not-hold` (with its correction) when the
//! named reference decides the sentence, `not-measured` (printed
//! "unverified") when none can; each with the reference a reader checks it
//! against and, for a theorem, the study that demonstrates it.

use super::ledger::{Basis, LedgerRow, Reading, Verdict};
use crate::error::Error;
use serde::Deserialize;

/// The file, as committed.
pub const SOURCE: &str = include_str!("../../data/claims_without_study.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    claim: Vec<Raw>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    id: String,
    document: crate::vocab::Document,
    quote: String,
    /// What the sentence states (a year, a count, a name), as text.
    documented: String,
    unit: String,
    /// The verdict the reference gives.
    cited: Cited,
    /// For `does-not-hold`: the statement the reference supports.
    #[serde(default)]
    correction: Option<String>,
    /// Where a reader checks it: authors, title, venue, year (or the
    /// maintainer's documentation for a deployment).
    reference: String,
    /// For a theorem: the study (and claim) of this ledger that shows it at
    /// work, where a demonstration is possible.
    #[serde(default)]
    demonstration: Option<String>,
    /// What the reference says where it differs from the sentence, and how
    /// the sentence is read.
    #[serde(default)]
    note: Option<String>,
}

/// A verdict by citation.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum Cited {
    Holds,
    DoesNotHold,
    Unverified,
}

/// The ledger rows of the claims without a study (study = "references").
pub fn rows() -> crate::error::Result<Vec<LedgerRow>> {
    rows_from(SOURCE)
}

fn rows_from(text: &str) -> crate::error::Result<Vec<LedgerRow>> {
    let file: File = toml::from_str(text)
        .map_err(|e| Error::input(format!("data/claims_without_study.toml: {e}")))?;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for c in file.claim {
        if !seen.insert(c.id.clone()) {
            return Err(Error::input(format!(
                "claims_without_study.toml: duplicate id {}",
                c.id
            )));
        }
        if c.reference.trim().is_empty() {
            return Err(Error::input(format!(
                "{}: a claim without a study needs its reference",
                c.id
            )));
        }
        if (c.cited == Cited::DoesNotHold) != c.correction.is_some() {
            return Err(Error::input(format!(
                "{}: a correction goes with cited = \"does-not-hold\", and only with it",
                c.id
            )));
        }
        let mut note = c.note.unwrap_or_default();
        for (label, text) in [
            ("Demonstration", c.demonstration.as_deref()),
            ("Reference", Some(c.reference.as_str())),
        ] {
            if let Some(t) = text {
                if !note.is_empty() {
                    note.push(' ');
                }
                note += &format!("{label}: {}.", t.trim_end_matches('.'));
            }
        }
        out.push(
            LedgerRow {
                claim_id: c.id,
                document: c.document,
                quote: c.quote,
                documented: c.documented,
                theory: None,
                measured: None,
                unit: c.unit,
                verdict: match c.cited {
                    Cited::Holds => Verdict::Holds,
                    Cited::DoesNotHold => Verdict::DoesNotHold,
                    Cited::Unverified => Verdict::NotMeasured,
                },
                basis: Basis::Reference,
                study: "references".into(),
                interval: None,
                note,
                section: String::new(),
                place: (0, 0),
                reading: Reading::Intended,
                caveat_of: None,
                ty: None,
                margin: String::new(),
                correction: c.correction.unwrap_or_default(),
                rests_on: String::new(),
            }
            .placed(),
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_file_parses_and_every_row_is_placed_and_referenced() {
        let rows = rows().unwrap();
        assert!(rows.len() > 10, "{}", rows.len());
        for r in &rows {
            assert!(!r.section.is_empty(), "{}: quote not found", r.claim_id);
            assert!(r.note.contains("Reference: "), "{}", r.claim_id);
            assert_eq!(
                r.verdict == Verdict::DoesNotHold,
                !r.correction.is_empty(),
                "{}",
                r.claim_id
            );
        }
        // the contradictions the references name are verdicts, not notes
        let verdict = |id: &str| rows.iter().find(|r| r.claim_id == id).unwrap().verdict;
        for id in [
            "bloom_paper_two_pages",
            "minhash_google_dedup",
            "bloom_web_caching",
            "tdigest_deployments",
            "every_production_implementation_double_hashes",
        ] {
            assert_eq!(verdict(id), Verdict::DoesNotHold, "{id}");
        }
        assert_eq!(
            verdict("hll_essentially_every_system"),
            Verdict::NotMeasured
        );
    }

    #[test]
    fn a_claim_without_its_reference_or_with_an_unknown_field_is_refused() {
        let base = "[[claim]]\nid = \"a\"\ndocument = \"000\"\nquote = \"q\"\ndocumented = \"1970\"\nunit = \"year\"\ncited = \"holds\"\n";
        assert!(rows_from(&format!("{base}reference = \" \"\n")).is_err());
        assert!(rows_from(&format!("{base}reference = \"r\"\nverdict = \"holds\"\n")).is_err());
        assert!(
            rows_from(&format!(
                "{base}reference = \"r\"\n{base}reference = \"r\"\n"
            ))
            .is_err()
        );
        assert!(rows_from(&format!("{base}reference = \"r\"\n")).is_ok());
        // a does-not-hold without its correction, a holds with one
        let dnh = base.replace("holds", "does-not-hold");
        assert!(rows_from(&format!("{dnh}reference = \"r\"\n")).is_err());
        assert!(rows_from(&format!("{base}reference = \"r\"\ncorrection = \"c\"\n")).is_err());
        assert!(rows_from(&format!("{dnh}reference = \"r\"\ncorrection = \"c\"\n")).is_ok());
        assert!(rows_from(&base.replace("holds", "maybe")).is_err());
    }
}
