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
/// The committed specs' paths, sorted.
fn spec_paths() -> Vec<std::path::PathBuf> {
    let mut specs: Vec<_> = std::fs::read_dir("experiments")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    specs
}

fn all_claims() -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for path in &spec_paths() {
        let spec = sketchlab::experiment::Spec::load(path).unwrap();
        for c in &spec.claims {
            out.push((
                c.id.clone(),
                c.document.id().to_string(),
                c.quote.clone(),
                path.display().to_string(),
            ));
        }
    }
    for r in sketchlab::report::references::rows().unwrap() {
        out.push((
            r.claim_id,
            r.document.id().to_string(),
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

/// Every caveat qualifies an intended claim that exists (in any study), and
/// every claim a correction names exists: a typo would otherwise only show
/// as a note in the report.
#[test]
fn every_caveat_and_correction_names_a_claim_of_the_ledger() {
    let claims: Vec<sketchlab::report::ledger::Claim> = spec_paths()
        .iter()
        .flat_map(|p| sketchlab::experiment::Spec::load(p).unwrap().claims)
        .collect();
    // a reference row (a verdict by citation) is an intended claim too
    let cited: Vec<String> = sketchlab::report::references::rows()
        .unwrap()
        .into_iter()
        .map(|r| r.claim_id)
        .collect();
    let intended: std::collections::HashSet<&str> = claims
        .iter()
        .filter(|c| c.reading == sketchlab::report::ledger::Reading::Intended)
        .map(|c| c.id.as_str())
        .chain(cited.iter().map(String::as_str))
        .collect();
    let all: std::collections::HashSet<&str> = claims.iter().map(|c| c.id.as_str()).collect();
    let mut caveats = 0;
    for c in &claims {
        if let Some(p) = &c.caveat_of {
            caveats += 1;
            assert!(
                intended.contains(p.as_str()),
                "{}: caveat_of {p} is no intended claim",
                c.id
            );
        }
        if let Some(text) = &c.correction {
            for name in text
                .split('{')
                .skip(1)
                .filter_map(|t| t.split_once('}'))
                .map(|t| t.0)
            {
                assert!(
                    ["measured", "interval", "theory"].contains(&name) || all.contains(name),
                    "{}: correction names {{{name}}}",
                    c.id
                );
            }
        }
    }
    assert!(caveats >= 20, "{caveats} caveats");
}

/// The committed reference run: every claim that is wrong as meant carries
/// the corrected statement a reader should use, the counts REPORT.md and
/// README state come from this file, and every interval of a rate lies
/// inside [0, 1].
#[test]
fn the_reference_ledger_corrects_every_claim_wrong_as_meant() {
    let text = std::fs::read_to_string("reports/claims.csv").unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let h: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        h,
        sketchlab::report::ledger::CSV_HEADER,
        "reports/claims.csv is from an older ledger: rebuild it"
    );
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (id, verdict, reading, correction, unit) = (
        col("claim_id"),
        col("verdict"),
        col("reading"),
        col("correction"),
        col("unit"),
    );
    let (lo, hi) = (col("interval_lo"), col("interval_hi"));
    let mut wrong = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        if &rec[verdict] == "does-not-hold" && &rec[reading] == "intended" {
            wrong += 1;
            assert!(
                !rec[correction].is_empty(),
                "{} is wrong as meant but has no correction",
                &rec[id]
            );
            assert!(
                !rec[correction].contains('{'),
                "{}: {}",
                &rec[id],
                &rec[correction]
            );
        }
        let u = &rec[unit];
        // a rate's unit names it; a ratio of two (÷, "ratio", " / ") is not one
        let ratio = u.contains('÷') || u.contains("ratio") || u.contains(" / ");
        let rate = !ratio
            && (u == "fraction"
                || u.starts_with("share of")
                || u.starts_with("P(")
                || u.starts_with("FPR"));
        if rate && !rec[lo].is_empty() {
            let (a, b): (f64, f64) = (rec[lo].parse().unwrap(), rec[hi].parse().unwrap());
            assert!(
                (0.0..=1.0).contains(&a) && (0.0..=1.0).contains(&b),
                "{}: [{a}, {b}]",
                &rec[id]
            );
        }
    }
    assert!(wrong > 0);
}

/// README states the reference's counts as the reference's ledger states
/// them: the count sentence opening `reports/LEDGER.md` appears in README
/// word for word (a reference regenerated without README updated fails).
#[test]
fn readme_states_the_reference_ledgers_counts() {
    let ledger = std::fs::read_to_string("reports/LEDGER.md").unwrap();
    let line = ledger
        .lines()
        .find(|l| l.contains(" claims as meant: "))
        .expect("LEDGER.md states its counts");
    let counts = line.split(". The rule").next().unwrap();
    let readme = std::fs::read_to_string("README.md").unwrap();
    // README wraps its lines: compare with whitespace collapsed
    let flat = |s: &str| {
        s.replace("**", "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(
        flat(&readme).contains(&flat(counts)),
        "README.md does not state the reference's counts: {counts}"
    );
    // and the number of studies the reference ran
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("reports/run.json").unwrap()).unwrap();
    let studies = run["studies"].as_array().unwrap().len();
    assert!(
        flat(&readme).contains(&format!("runs {studies} studies")),
        "README.md does not say the reference runs {studies} studies"
    );
    // and the n of the frontier chart it shows (the study's largest n)
    let spec = std::fs::read_to_string("reports/filter_frontier/spec.toml").unwrap();
    let grid: toml::Table = toml::from_str(&spec).unwrap();
    let n = grid["grid"]["n"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_integer().unwrap())
        .max()
        .unwrap();
    let power = (n as f64).log10().round() as i32;
    assert_eq!(10i64.pow(power as u32), n);
    assert!(
        flat(&readme).contains(&format!("for every filter at 10^{power} keys")),
        "README.md does not give the frontier chart's n = 10^{power}"
    );
}

/// Every claim `data/findings.toml` groups is a claim of the reference
/// ledger, wrong as meant: a group never hides a row that holds.
#[test]
fn findings_group_only_claims_wrong_as_meant() {
    let text = std::fs::read_to_string("reports/claims.csv").unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let verdicts: std::collections::HashMap<String, (String, String)> = r
        .records()
        .map(|x| {
            let x = x.unwrap();
            (x[0].to_string(), (x[7].to_string(), x[11].to_string()))
        })
        .collect();
    for g in sketchlab::report::findings::groups().unwrap() {
        for c in &g.claims {
            let (v, reading) = verdicts
                .get(c)
                .unwrap_or_else(|| panic!("{}: {c} is not in the ledger", g.id));
            assert_eq!(
                (v.as_str(), reading.as_str()),
                ("does-not-hold", "intended"),
                "{}: {c}",
                g.id
            );
        }
    }
}

/// A claim's note states the margin its spec applies: every "±N%" in the
/// note of a claim judged on a relative margin is that margin, unless it
/// speaks of an interval ("interval" in the 40 characters before it).
/// Exact claims (whose ± figures are the printed precision) are left out.
#[test]
fn notes_state_the_margin_their_spec_applies() {
    use sketchlab::report::ledger::Scale;
    let mut wrong = Vec::new();
    for path in &spec_paths() {
        let spec = sketchlab::experiment::Spec::load(path).unwrap();
        for c in &spec.claims {
            let (m, scale, _) = c.margin();
            let Some(note) = &c.note else { continue };
            if scale != Scale::Relative
                || m == 0.0
                || c.quantity == sketchlab::experiment::spec::Quantity::Exact
            {
                continue;
            }
            let want = m * 100.0;
            for (at, _) in note.match_indices('±') {
                let rest = note[at + '±'.len_utf8()..].trim_start();
                let digits: String = rest
                    .chars()
                    .take_while(|ch| ch.is_ascii_digit() || *ch == '.')
                    .collect();
                if !rest[digits.len()..].starts_with('%') {
                    continue;
                }
                let before: String = note[..at].chars().rev().take(40).collect();
                if before.contains(&"interval".chars().rev().collect::<String>()) {
                    continue;
                }
                let stated: f64 = digits.parse().unwrap_or(f64::NAN);
                if (stated - want).abs() > 1e-9 {
                    wrong.push(format!(
                        "{}: note says ±{stated}%, spec applies ±{want}%",
                        c.id
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A "holds" that cannot fail is not a verdict. Every claim of the reference
/// run decided by measurement or count (basis `measured` or `counted`) that
/// holds is judged again with its documented figure moved (÷1000 … ×1000,
/// and far past the measured value either way): some move must change the
/// verdict, or the check passes whatever
/// the document says (a claim that "it can happen" for any probability). A
/// measured value equal to its documented figure to the last bit, a
/// non-integer, is the documented figure computed again, not a measurement.
/// Each such row names the column it rests on.
#[test]
fn no_measured_holds_cannot_fail() {
    use sketchlab::report::ledger::{Basis, Check, Verdict, evaluate};
    // the committed reference; another run's folder with SKETCHLAB_REFERENCE
    let root = std::env::var("SKETCHLAB_REFERENCE").unwrap_or_else(|_| "reports".into());
    let root = std::path::Path::new(&root);
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("run.json")).unwrap()).unwrap();
    let mut bad = Vec::new();
    let mut checked = 0;
    for name in run["studies"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        let dir = root.join(name);
        let (spec, tables) = sketchlab::experiment::report_stage::read_study(&dir).unwrap();
        for claim in &spec.claims {
            if !matches!(claim.basis, Basis::Measured | Basis::Counted)
                || claim.check == Check::Report
            {
                continue;
            }
            let row = evaluate(claim, name, &tables);
            if row.verdict != Verdict::Holds {
                continue;
            }
            checked += 1;
            assert!(
                row.rests_on.contains(&claim.metric),
                "{}: {}",
                claim.id,
                row.rests_on
            );
            if let Some(v) = row.measured
                && v == claim.documented
                && v.fract() != 0.0
            {
                bad.push(format!(
                    "{}: measured {v} is the documented figure to the bit",
                    claim.id
                ));
            }
            // the documented figure moved by factors, and far past the
            // measured value either way
            let mut moved: Vec<f64> = if claim.documented == 0.0 {
                vec![-100.0, -10.0, -1.0, 1.0, 10.0, 100.0]
            } else {
                [1e-3, 1.0 / 32.0, 0.25, 0.5, 2.0, 4.0, 32.0, 1e3]
                    .iter()
                    .map(|f| claim.documented * f)
                    .collect()
            };
            match row.measured {
                Some(m) if m != 0.0 => moved.extend([m * 1e-3, m * 1e3, -m]),
                _ => moved.extend([-1.0, 1.0]),
            }
            let can_fail = moved.iter().any(|&d| {
                let mut c = claim.clone();
                let scale = if claim.documented == 0.0 {
                    1.0
                } else {
                    d / claim.documented
                };
                c.documented = d;
                c.documented_high = claim.documented_high.map(|h| {
                    if claim.documented == 0.0 {
                        h + d
                    } else {
                        h * scale
                    }
                });
                evaluate(&c, name, &tables).verdict != Verdict::Holds
            });
            if !can_fail {
                bad.push(format!(
                    "{} ({name}, {}): holds whatever the documented figure",
                    claim.id, row.rests_on
                ));
            }
        }
    }
    assert!(checked > 50, "only {checked} measured holds");
    assert!(bad.is_empty(), "{} rows:\n{}", bad.len(), bad.join("\n"));
}
