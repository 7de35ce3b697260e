//! Every claim in the ledger quotes its document verbatim: after collapsing
//! runs of whitespace (line breaks in the documents' prose and code), each
//! quote occurs in its document, or, where it elides with "...", its
//! fragments occur in order. A typo, a paraphrase or an annotation in
//! brackets fails here, so a quote cannot be made up.

use std::path::Path;

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first fragment of `quote` (split at "..." or "…") that does not occur
/// in `doc` after the previous one, if any.
fn missing<'a>(quote: &'a str, doc: &str) -> Option<&'a str> {
    let mut at = 0;
    for frag in quote.split(['…']).flat_map(|p| p.split("...")) {
        let frag = frag.trim();
        if frag.is_empty() {
            continue;
        }
        match doc[at..].find(frag) {
            Some(i) => at += i + frag.len(),
            None => return Some(frag),
        }
    }
    None
}

#[test]
fn every_claim_quotes_its_document_verbatim() {
    let docs: Vec<(String, String)> = ["000", "002"]
        .iter()
        .map(|d| {
            let text =
                std::fs::read_to_string(Path::new("data/documents").join(format!("{d}.txt")))
                    .unwrap();
            (d.to_string(), collapse(&text))
        })
        .collect();
    let mut specs: Vec<_> = std::fs::read_dir("experiments")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    let (mut checked, mut bad) = (0, Vec::new());
    for path in &specs {
        let spec = sketchlab::experiment::Spec::load(path).unwrap();
        for c in &spec.claims {
            checked += 1;
            let doc = &docs
                .iter()
                .find(|(d, _)| *d == c.document)
                .unwrap_or_else(|| panic!("{}: unknown document {}", c.id, c.document))
                .1;
            let quote = collapse(&c.quote);
            assert!(!quote.is_empty(), "{}: empty quote", c.id);
            if let Some(frag) = missing(&quote, doc) {
                bad.push(format!("{} ({}): «{frag}»", c.id, path.display()));
            }
        }
    }
    assert!(checked > 100, "only {checked} claims found");
    assert!(
        bad.is_empty(),
        "quotes not found verbatim:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_check_itself_rejects_what_it_should() {
    let doc =
        collapse("It is never wrong when it says no.\nIt is wrong about one time\n in a hundred.");
    assert_eq!(missing("It is never wrong when it says no.", &doc), None);
    assert_eq!(missing("never wrong ... one time in a hundred", &doc), None);
    assert_eq!(missing("never wrong … one time in a hundred", &doc), None);
    // out of order, a typo, an added annotation
    assert!(missing("one time in a hundred ... never wrong", &doc).is_some());
    assert!(missing("It is never wrong when it say no", &doc).is_some());
    assert!(missing("It is wrong about one time in a hundred [the filter]", &doc).is_some());
}
