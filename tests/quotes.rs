//! Every claim in the ledger quotes its document verbatim: after collapsing
//! runs of whitespace (line breaks in the documents' prose and code), each
//! quote occurs in one section of its document, or, where it elides with
//! "...", its fragments occur in order. A typo, a paraphrase or an annotation
//! in brackets fails here, so a quote cannot be made up. The bundled
//! documents are checked to be the ones the sessions were given.

use sketchlab::report::documents::{self, DOCUMENTS, collapse};
use std::path::Path;

/// Every claim: (id, document, quote, where it is declared).
fn all_claims() -> Vec<(String, String, String, String)> {
    let mut specs: Vec<_> = std::fs::read_dir("experiments")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    let mut out = Vec::new();
    for path in &specs {
        let spec = sketchlab::experiment::Spec::load(path).unwrap();
        for c in &spec.claims {
            out.push((
                c.id.clone(),
                c.document.clone(),
                c.quote.clone(),
                path.display().to_string(),
            ));
        }
    }
    for r in sketchlab::report::references::rows().unwrap() {
        out.push((
            r.claim_id,
            r.document,
            r.quote,
            "data/claims_without_study.toml".into(),
        ));
    }
    out
}

#[test]
fn every_claim_quotes_its_document_verbatim() {
    let claims = all_claims();
    assert!(claims.len() > 150, "only {} claims found", claims.len());
    let mut bad = Vec::new();
    for (id, doc, quote, from) in &claims {
        let d = documents::document(doc).unwrap_or_else(|| panic!("{id}: unknown document {doc}"));
        assert!(!collapse(quote).is_empty(), "{id}: empty quote");
        if let Err(frag) = d.locate(quote) {
            bad.push(format!("{id} ({from}): «{frag}»"));
        }
    }
    assert!(
        bad.is_empty(),
        "quotes not found verbatim within one section:\n{}",
        bad.join("\n")
    );
}

#[test]
fn claim_ids_are_unique_across_the_ledger() {
    let mut seen = std::collections::HashMap::new();
    for (id, _, _, from) in all_claims() {
        if let Some(first) = seen.insert(id.clone(), from.clone()) {
            panic!("claim id {id} is declared in {first} and in {from}");
        }
    }
}

#[test]
fn the_bundled_documents_are_the_files_in_data() {
    for d in &DOCUMENTS {
        let on_disk =
            std::fs::read_to_string(Path::new("data/documents").join(format!("{}.txt", d.id)))
                .unwrap();
        assert_eq!(on_disk, d.text, "{}", d.id);
    }
}

#[test]
fn the_check_itself_rejects_what_it_should() {
    let doc =
        collapse("It is never wrong when it says no.\nIt is wrong about one time\n in a hundred.");
    let found = |q: &str| documents::find(q, &doc).is_ok();
    assert!(found("It is never wrong when it says no."));
    assert!(found("never wrong ... one time in a hundred"));
    assert!(found("never wrong … one time in a hundred"));
    // out of order, a typo, an added annotation
    assert!(!found("one time in a hundred ... never wrong"));
    assert!(!found("It is never wrong when it say no"));
    assert!(!found(
        "It is wrong about one time in a hundred [the filter]"
    ));
}
