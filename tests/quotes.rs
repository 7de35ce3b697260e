//! Every claim in the ledger quotes its document verbatim: after collapsing
//! runs of whitespace (line breaks in the documents' prose and code), each
//! quote occurs in one section of its document, or, where it elides with
//! "...", its fragments occur in order. A typo, a paraphrase or an annotation
//! in brackets fails here, so a quote cannot be made up. The bundled
//! documents are checked to be the ones the sessions were given, and
//! data/inventory.toml, sentence by sentence, to cover both documents and
//! every claim.

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

/// One unit of data/inventory.toml.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Sentence {
    doc: String,
    text: String,
    #[serde(default)]
    claims: Vec<String>,
    none: Option<String>,
    #[serde(default)]
    see: Vec<String>,
}

fn inventory() -> Vec<Sentence> {
    #[derive(serde::Deserialize)]
    struct File {
        sentence: Vec<Sentence>,
    }
    let text = std::fs::read_to_string("data/inventory.toml").unwrap();
    toml::from_str::<File>(&text).unwrap().sentence
}

/// The inventory is both documents, sentence by sentence, in order: joined
/// with spaces, its texts are each document with its whitespace collapsed, so
/// no sentence is skipped, reordered or reworded. Each sentence names the
/// ledger rows whose quotes overlap it, or says why it has none; every
/// ledger row is named by a sentence, and every `see` names a real row.
#[test]
fn the_inventory_covers_every_sentence_and_every_claim() {
    let units = inventory();
    let claims = all_claims();
    let ids: std::collections::HashMap<&str, (&str, &str)> = claims
        .iter()
        .map(|(id, doc, quote, _)| (id.as_str(), (doc.as_str(), quote.as_str())))
        .collect();
    let mut named = std::collections::HashSet::new();
    for d in &DOCUMENTS {
        let whole = collapse(d.text);
        let mine: Vec<&Sentence> = units.iter().filter(|u| u.doc == d.id).collect();
        let joined = mine
            .iter()
            .map(|u| u.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if joined != whole {
            let at = joined
                .bytes()
                .zip(whole.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(joined.len().min(whole.len()));
            let from = whole.floor_char_boundary(at.saturating_sub(40));
            panic!(
                "{}: the inventory departs from the document at «{}»",
                d.id,
                &whole[from..whole.floor_char_boundary(at + 40)]
            );
        }
        let mut start = 0;
        for u in mine {
            let (s, e) = (start, start + u.text.len());
            start = e + 1;
            assert_eq!(
                collapse(&u.text),
                u.text,
                "{}: a text is not collapsed",
                d.id
            );
            assert!(!u.text.is_empty(), "{}: an empty sentence", d.id);
            assert!(
                u.claims.is_empty() != u.none.is_none(),
                "«{}»: give claims or none (exactly one)",
                u.text
            );
            if let Some(why) = &u.none {
                assert!(why.len() > 8, "«{}»: say why no row checks it", u.text);
            }
            for id in &u.see {
                assert!(
                    ids.contains_key(id.as_str()),
                    "«{}»: see {id}: no such claim",
                    u.text
                );
            }
            for id in &u.claims {
                let (doc, quote) = *ids
                    .get(id.as_str())
                    .unwrap_or_else(|| panic!("«{}»: {id}: no such claim", u.text));
                assert_eq!(doc, d.id, "{id} quotes document {doc}");
                let overlaps = documents::fragments(quote).iter().any(|f| {
                    whole
                        .match_indices(f.as_str())
                        .any(|(i, _)| i < e && i + f.len() > s)
                });
                assert!(overlaps, "{id}'s quote does not overlap «{}»", u.text);
                named.insert(id.clone());
            }
        }
    }
    let unnamed: Vec<&str> = claims
        .iter()
        .map(|c| c.0.as_str())
        .filter(|id| !named.contains(*id))
        .collect();
    assert!(
        unnamed.is_empty(),
        "claims no sentence of data/inventory.toml names: {unnamed:?}"
    );
}
