//! The claims ledger, REPORT.md (the findings first, then the ledger) and
//! each study's page, all computed from result tables.

mod counts;
pub use counts::*;
pub mod decision;
pub mod documents;
pub mod findings;
pub mod html;
pub mod html_study;
pub mod ledger;
pub mod margin;
pub mod print;
pub mod references;
pub mod verdict;

use crate::export::markdown::{self, sig};
use crate::export::text::{markdown as md, markdown_cell as md_cell};
use crate::table::Table;
use ledger::{Basis, LedgerRow, Reading, Verdict};

use std::path::{Path, PathBuf};

/// What a kind contributes to REPORT.md: a regenerated table and a reading of
/// it, both computed from the rows.
#[derive(Clone, Debug, Default)]
pub struct Section {
    pub table: Table,
    pub reading: String,
}

/// One line of "What the seed buys you": a structure's designed error beside
/// what an attack achieved under each seed policy (formatted from the
/// attack study's own rows; "—" where the policy was not attacked).
#[derive(Clone, Debug, Default)]
pub struct SeedRow {
    pub structure: String,
    pub attack: String,
    pub designed: String,
    pub constant_seed: String,
    pub random_seed: String,
    pub keyed: String,
}

/// One study as the report sees it (plain data: the report knows nothing of specs).
pub struct StudyResult<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub kind: &'a str,
    pub spec_path: &'a Path,
    pub trials: usize,
    /// The study's data files (results.csv and summary.csv, or their .gz).
    pub data: Vec<&'a str>,
    pub section: Section,
    pub plots: &'a [PathBuf],
    pub seconds: f64,
    pub seed_rows: Vec<SeedRow>,
    /// The essay's lost table the study's table reconstructs, if any.
    pub reconstructs: Option<String>,
}

/// Header facts for the report.
pub struct RunInfo {
    /// "Which structure for which need", read from the filter frontier's
    /// rows (the n it was measured at, and the choices), when the run has it.
    pub decision: Option<(u64, Vec<decision::Choice>)>,
    pub quick: bool,
    pub threads: usize,
    pub seconds: f64,
    pub finished_utc: String,
    pub git_revision: Option<String>,
}

fn num(x: Option<f64>) -> String {
    x.map(|v| sig(v, 4)).unwrap_or_else(|| "—".into())
}

/// The ledger's rows in reading order: each intended claim followed by its
/// caveats (a caveat without its parent among `rows` stays where it is).
fn with_caveats<'a>(rows: &[&'a LedgerRow]) -> Vec<&'a LedgerRow> {
    let ids: std::collections::HashSet<&str> = rows.iter().map(|r| r.claim_id.as_str()).collect();
    let mut out = Vec::new();
    for r in rows {
        let orphan = r.caveat_of.as_deref().is_some_and(|p| !ids.contains(p));
        if r.reading == Reading::Intended || orphan {
            out.push(*r);
            out.extend(
                rows.iter()
                    .copied()
                    .filter(|c| c.caveat_of.as_deref() == Some(r.claim_id.as_str())),
            );
        }
    }
    out
}

/// The ledger as tables, one per document section in the documents' order
/// (rows arrive sorted by [`ledger::sort`]), each headed by its verdict counts.
fn ledger_by_section(ledger: &[LedgerRow]) -> String {
    let mut s = String::new();
    for d in &documents::DOCUMENTS {
        let rows: Vec<&LedgerRow> = ledger.iter().filter(|r| r.document.id() == d.id).collect();
        if rows.is_empty() {
            continue;
        }
        s += &format!(
            "### Document {}: {}\n\n{}.\n\n",
            d.id,
            d.title,
            section_counts(&rows)
        );
        let mut sections: Vec<&str> = d.headings.to_vec();
        sections.push("");
        for heading in sections {
            let in_section: Vec<&LedgerRow> = rows
                .iter()
                .copied()
                .filter(|r| r.section == heading)
                .collect();
            if in_section.is_empty() {
                continue;
            }
            s += &format!(
                "#### {} · {}\n\n{}.\n\n",
                d.id,
                if heading.is_empty() {
                    "(quote not found)"
                } else {
                    heading
                },
                section_counts(&in_section)
            );
            s += &format!(
                "| claim | quote | documented | theory | value | basis | {}% interval | unit | type, margin | verdict | study |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
                sig(100.0 * ledger::VERDICT_CONFIDENCE, 4)
            );
            for r in with_caveats(&in_section) {
                s += &format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    if r.reading == Reading::Caveat {
                        format!("↳ caveat `{}`", r.claim_id)
                    } else {
                        format!("`{}`", r.claim_id)
                    },
                    md_cell(&r.quote),
                    md_cell(&r.documented),
                    num(r.theory),
                    num(r.measured),
                    r.basis.as_str(),
                    r.interval
                        .map(|(a, b)| format!("[{}, {}]", sig(a, 4), sig(b, 4)))
                        .unwrap_or_default(),
                    md_cell(&r.unit),
                    format!(
                        "{}, {}",
                        r.ty.map_or("", crate::report::verdict::ClaimType::as_str),
                        r.margin
                    )
                    .replace('|', "\\|"),
                    if r.reading == Reading::Caveat {
                        format!("({})", r.verdict.as_str())
                    } else {
                        format!("**{}**", r.verdict.as_str())
                    },
                    if r.rests_on.is_empty() {
                        r.study.clone()
                    } else {
                        format!("{}: `{}`", r.study, r.rests_on)
                    }
                );
            }
            s += "\n";
        }
    }
    s
}

/// The rows "Findings" shows, in the ledger's order.
pub struct Findings<'a> {
    /// Intended readings that do not hold, measured: the documents' errors as meant.
    pub wrong: Vec<&'a LedgerRow>,
    /// Intended readings a cited reference contradicts.
    pub cited: Vec<&'a LedgerRow>,
    /// Caveats that do not hold.
    pub caveats: Vec<&'a LedgerRow>,
    /// Intended readings still inconclusive.
    pub open: Vec<&'a LedgerRow>,
}

impl<'a> Findings<'a> {
    pub fn of(ledger: &'a [LedgerRow]) -> Findings<'a> {
        let pick = |reading: Reading, v: Verdict| -> Vec<&'a LedgerRow> {
            ledger
                .iter()
                .filter(|r| r.reading == reading && r.verdict == v)
                .collect()
        };
        let (cited, wrong) = pick(Reading::Intended, Verdict::DoesNotHold)
            .into_iter()
            .partition(|r| r.basis == Basis::Reference);
        Findings {
            wrong,
            cited,
            caveats: pick(Reading::Caveat, Verdict::DoesNotHold),
            open: pick(Reading::Intended, Verdict::Inconclusive),
        }
    }
}

fn interval_text(r: &LedgerRow) -> String {
    r.interval
        .map(|(a, b)| format!(" [{}, {}]", sig(a, 4), sig(b, 4)))
        .unwrap_or_default()
}

/// "Findings", the page a reviewer reads first: the claims that are wrong as
/// meant (the document's words, the measured number with its interval, the
/// corrected statement), the caveats worth knowing (literal or edge readings
/// that fail), what is still undecided, and the counts by reading.
pub fn findings(ledger: &[LedgerRow]) -> String {
    let Findings {
        wrong,
        cited,
        caveats,
        open,
    } = Findings::of(ledger);
    let mut s = String::from("## Findings\n\n");
    s += &format!("{}.\n\n", reading_counts(ledger));
    let groups = findings::groups().unwrap_or_default();
    let lines = findings::lines(&wrong, &groups);
    s += &format!(
        "### Wrong as meant ({} distinct errors in {} claims)\n\nEach claim read as its author meant it, in the regime the document speaks of; the margin is the smallest difference that matters for its use (see the rule below the findings). Claims that rest on one mistake are listed once, under the first; each row's detail is in the [ledger](LEDGER.md).\n\n",
        lines.len(),
        wrong.len()
    );
    s += &findings::markdown_table(&lines);
    if !cited.is_empty() {
        s += &format!(
            "\n### Wrong by citation ({})\n\nDates, venues and deployments no harness measures, contradicted by the reference named in the ledger's note.\n\n",
            cited.len()
        );
        for r in &cited {
            s += &format!(
                "- **{}** (doc {}, {}): “{}” — documented {} ({}). **Use instead:** {}\n",
                r.claim_id,
                r.document,
                md(&r.section),
                md(&r.quote),
                md(&r.documented),
                md(&r.unit),
                md(&r.correction)
            );
        }
    }
    s += &format!(
        "\n### Caveats worth knowing ({})\n\nLiteral or edge readings that fail while the claim holds as meant: each is reported under the claim it qualifies.\n\n",
        caveats.len()
    );
    for r in &caveats {
        s += &format!(
            "- **{}** (of `{}`): {} {}{}.{}\n",
            r.claim_id,
            r.caveat_of.as_deref().unwrap_or_default(),
            num(r.measured),
            r.unit,
            interval_text(r),
            if r.note.is_empty() {
                format!(" Documented {}.", r.documented)
            } else {
                format!(" Documented {}; {}", r.documented, r.note)
            }
        );
    }
    if !open.is_empty() {
        s += &format!(
            "\n### Undecided ({})\n\nThe interval straddles the margin's edge at this run's size: what would decide is in the note.\n\n",
            open.len()
        );
        for r in &open {
            s += &format!(
                "- **{}**: {} {}{} against {} ({}).{}\n",
                r.claim_id,
                num(r.measured),
                r.unit,
                interval_text(r),
                r.documented,
                r.margin,
                if r.note.is_empty() {
                    String::new()
                } else {
                    format!(" {}", r.note)
                }
            );
        }
    }
    s += "\n";
    s
}

/// A study's page, `OUT/<study>/README.md`: what it measured, its data files,
/// its reading, every chart, its regenerated table and the ledger rows that
/// read it (paths relative to the study's folder).
pub fn study_page(st: &StudyResult<'_>, ledger: &[LedgerRow]) -> String {
    let sec = &st.section;
    let mut s = format!(
        "# {}\n\n{}\n\nKind `{}`, {} trials in {:.1} s; data: {}, spec: `{}`. Part of the run's [report](../REPORT.md).\n\n",
        st.name,
        crate::export::text::markdown_lines(st.description.trim()),
        st.kind,
        st.trials,
        st.seconds,
        st.data
            .iter()
            .map(|f| format!("[`{f}`]({f})"))
            .collect::<Vec<_>>()
            .join(", "),
        st.spec_path.display(),
    );
    s += &format!("**Reading.** {}\n\n", sec.reading);
    for p in st.plots.iter().filter(|p| {
        // each chart as SVG; a heatmap, which has no SVG, as its PNG
        let ext = p.extension().and_then(|e| e.to_str());
        ext == Some("svg") || (ext == Some("png") && !p.with_extension("svg").exists())
    }) {
        let (stem, file) = (
            p.file_stem().map(|x| x.to_string_lossy().into_owned()),
            p.file_name().map(|x| x.to_string_lossy().into_owned()),
        );
        s += &format!(
            "![{}]({})\n\n",
            stem.unwrap_or_default(),
            file.unwrap_or_default()
        );
    }
    if !sec.table.rows.is_empty() {
        s += &markdown::table(&sec.table);
        s += "\n";
    }
    let claims: Vec<&LedgerRow> = ledger.iter().filter(|r| r.study == st.name).collect();
    if !claims.is_empty() {
        s += &format!(
            "## Claims read from this study\n\n{}.\n\n",
            section_counts(&claims)
        );
        s += "| claim | reading | documented | value | interval | margin | verdict |\n|---|---|---|---|---|---|---|\n";
        for r in with_caveats(&claims) {
            s += &format!(
                "| `{}` | {} | {} | {} | {} | {} | {} |\n",
                r.claim_id,
                match &r.caveat_of {
                    Some(p) => format!("caveat of `{p}`"),
                    None => r.reading.as_str().to_string(),
                },
                r.documented.replace('|', "\\|"),
                num(r.measured),
                interval_text(r).trim(),
                r.margin.replace('|', "\\|"),
                r.verdict.as_str(),
            );
        }
    }
    s
}

/// LEDGER.md: every claim in the documents' order, section by section, each
/// followed by its caveats, then every note (REPORT.md links to it, so the
/// report opens with its findings and stays a few screens long).
pub fn ledger_page(ledger: &[LedgerRow]) -> String {
    let mut s = String::from("# Claims ledger\n\n");
    s += &format!(
        "{}. The rule, the materiality margins and the findings are in the [report](REPORT.md); the same rows are in `claims.csv`.\n\n",
        reading_counts(ledger)
    );
    s += &ledger_by_section(ledger);
    let notes: Vec<&LedgerRow> = ledger.iter().filter(|r| !r.note.is_empty()).collect();
    if !notes.is_empty() {
        s += "\nNotes:\n\n";
        for r in notes {
            s += &format!("- `{}`: {}\n", r.claim_id, md(&r.note));
        }
    }
    s
}

/// REPORT.md: the findings, the rule and the ledger's counts, what the seed buys,
/// the essay's lost tables, then each study's reading with a link to its
/// page ([`study_page`]).
pub fn render(studies: &[StudyResult<'_>], ledger: &[LedgerRow], info: &RunInfo) -> String {
    let mut s = String::from("# sketchlab report\n\n");
    s += &format!(
        "Generated by `sketchlab reproduce{}` on {} in {:.0} s with {} threads{}. Each ledger row says whether its value was measured by this run or computed (a formula or an exact enumeration); rerun the command to reproduce every number.\n\n",
        if info.quick { " --quick" } else { "" },
        info.finished_utc,
        info.seconds,
        info.threads,
        info.git_revision
            .as_deref()
            .map(|r| format!(" at git revision `{r}`"))
            .unwrap_or_default()
    );
    if info.quick {
        s += "> **Quick mode**: sizes are reduced (see each spec's `[quick]` table); intervals are wider than in a full run.\n\n";
    }
    s += &decision::decide(studies, info);
    s += &findings(ledger);
    let per_document: Vec<String> = documents::DOCUMENTS
        .iter()
        .map(|d| {
            let rows: Vec<&LedgerRow> = ledger.iter().filter(|r| r.document.id() == d.id).collect();
            format!("document {}: {}", d.id, section_counts(&rows))
        })
        .collect();
    let measured = ledger
        .iter()
        .filter(|r| r.basis == Basis::Measured && r.interval.is_some())
        .count();
    s += "## Claims ledger\n\n";
    s += &format!("{}.\n\n", reading_counts(ledger));
    s += &format!(
        "By document: {}. The ledger follows the documents' order, section by section, each claim followed by its caveats (↳); `not measured` rows with basis `reference` are facts no harness measures (dates, venues, theorems, deployments), each with its reference in the notes (`data/claims_without_study.toml`).\n\n",
        per_document.join("; ")
    );
    s += &format!(
        "**The rule** ([docs/verdicts.md](../docs/verdicts.md)). Each claim states its intended reading (what the sentence asserts in the regime the document speaks of) and its type, which picks the test: an `exact` claim (arithmetic, a theorem's value) is compared at the precision the document prints; an `approximation`, `asymptotic` (over its declared regime only), `typical` or `illustration` claim must lie within its quantity's materiality margin; an `upper_bound` or `lower_bound` holds at or beyond its bound however far (how far is in the note). The measured interval is at {}%: `holds` when it lies wholly inside the band, `does-not-hold` when wholly outside, `inconclusive` when it straddles an edge (the study must measure more). An `every` check fails on one row only when that row's interval at the level corrected for the number of rows (Holm) lies outside. Caveats (literal or edge readings, another implementation, key type or runtime than the sentence's) are verdicts of their own, shown under the claim and counted apart. With {measured} measured verdicts at {}%, about {} would flip by chance. The same table is in `claims.csv` (columns `reading`, `caveat_of`, `type`, `margin`, `correction`).\n\n",
        sig(100.0 * ledger::VERDICT_CONFIDENCE, 4),
        sig(100.0 * ledger::VERDICT_CONFIDENCE, 4),
        sig(measured as f64 * (1.0 - ledger::VERDICT_CONFIDENCE), 2),
    );
    s += "Materiality margins, by kind of quantity (a claim may override its margin with a reason, shown in its row):\n\n";
    s += &margin::table_markdown();
    s += "\nThe full ledger, section by section with each claim's caveats and notes, is on its own page: [LEDGER.md](LEDGER.md) (and in `claims.csv`).\n";
    let seed_rows: Vec<(&str, &SeedRow)> = studies
        .iter()
        .flat_map(|st| st.seed_rows.iter().map(move |r| (st.name, r)))
        .collect();
    if !seed_rows.is_empty() {
        s += "\n## What the seed buys you\n\n";
        s += "The essay's fifth question, answered with this run's numbers: per structure, the designed error, and what an offline attacker achieved when the hash has a constant (public) seed, a random per-process seed of a non-cryptographic hash (where a seed-independent attack exists), and a keyed PRF (SipHash-1-3 with a key the attacker never sees).\n\n";
        s += "| structure | attack | designed | constant seed | random seed, non-cryptographic | keyed PRF (SipHash-1-3) | study |\n|---|---|---|---|---|---|---|\n";
        for (study, r) in seed_rows {
            s += &format!(
                "| {} | {} | {} | {} | {} | {} | [{study}](#{study}) |\n",
                r.structure, r.attack, r.designed, r.constant_seed, r.random_seed, r.keyed
            );
        }
    }
    let lost: Vec<&StudyResult<'_>> = studies
        .iter()
        .filter(|st| st.reconstructs.is_some())
        .collect();
    if !lost.is_empty() {
        s += "\n## The essay's lost tables, reconstructed\n\n";
        s += "The essay refers to tables that did not survive; each is regenerated here from this run's rows (the study's section has its charts and reading).\n\n";
        for st in lost {
            s += &format!(
                "**{}** (from [{name}](#{name}))\n\n{}\n",
                st.reconstructs.as_deref().unwrap_or_default(),
                markdown::table(&st.section.table),
                name = st.name
            );
        }
    }
    s += "\n## Studies\n\nEach study's charts, regenerated table and claims are on its own page (`<study>/README.md`), beside its data; here, what it measured and what it found.\n\n";
    for st in studies {
        s += &format!(
            "### {}\n\n{} [Charts, table and claims](<{name}/README.md>) · kind `{}`, {} trials in {:.1} s.\n\n**Reading.** {}\n\n",
            st.name,
            md(&st
                .description
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")),
            st.kind,
            st.trials,
            st.seconds,
            st.section.reading,
            name = st.name,
        );
    }
    s
}
