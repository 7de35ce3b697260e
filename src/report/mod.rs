//! The claims ledger and REPORT.md, both computed from result tables.

pub mod design;
pub mod documents;
pub mod html;
pub mod ledger;
pub mod print;
pub mod references;
pub mod verdict;

use crate::export::markdown::{self, sig};
use crate::table::Table;
use ledger::{Basis, LedgerRow, Verdict};

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
    pub reconstructs: Option<&'a str>,
}

/// Header facts for the report.
pub struct RunInfo {
    pub quick: bool,
    pub threads: usize,
    pub seconds: f64,
    pub finished_utc: String,
    pub git_revision: Option<String>,
}

fn rel(path: &Path, out: &Path) -> String {
    path.strip_prefix(out)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

fn num(x: Option<f64>) -> String {
    x.map(|v| sig(v, 4)).unwrap_or_else(|| "—".into())
}

/// "3 hold, 1 approximately, …" for a set of ledger rows (zero counts left out).
pub fn verdict_counts<'a>(rows: impl IntoIterator<Item = &'a LedgerRow>) -> String {
    let mut n = [0usize; 5];
    for r in rows {
        n[verdict_rank(r.verdict)] += 1;
    }
    let names = [
        "hold",
        "approximately",
        "do not hold",
        "inconclusive",
        "not measured",
    ];
    let parts: Vec<String> = n
        .iter()
        .zip(names)
        .filter(|(k, _)| **k > 0)
        .map(|(k, name)| format!("{k} {name}"))
        .collect();
    parts.join(", ")
}

fn verdict_rank(v: Verdict) -> usize {
    match v {
        Verdict::Holds => 0,
        Verdict::Approximately => 1,
        Verdict::DoesNotHold => 2,
        Verdict::Inconclusive => 3,
        Verdict::NotMeasured => 4,
    }
}

/// The ledger as tables, one per document section in the documents' order
/// (rows arrive sorted by [`ledger::sort`]), each headed by its verdict counts.
fn ledger_by_section(ledger: &[LedgerRow]) -> String {
    let mut s = String::new();
    for d in &documents::DOCUMENTS {
        let rows: Vec<&LedgerRow> = ledger.iter().filter(|r| r.document == d.id).collect();
        if rows.is_empty() {
            continue;
        }
        s += &format!(
            "### Document {}: {}\n\n{} claims: {}.\n\n",
            d.id,
            d.title,
            rows.len(),
            verdict_counts(rows.iter().copied())
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
                "#### {} · {}\n\n{} claims: {}.\n\n",
                d.id,
                if heading.is_empty() {
                    "(quote not found)"
                } else {
                    heading
                },
                in_section.len(),
                verdict_counts(in_section.iter().copied())
            );
            s += &format!(
                "| claim | quote | documented | theory | value | basis | {}% interval | unit | verdict | study |\n|---|---|---|---|---|---|---|---|---|---|\n",
                sig(100.0 * ledger::VERDICT_CONFIDENCE, 4)
            );
            for r in in_section {
                s += &format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    r.claim_id,
                    r.quote.replace('|', "\\|"),
                    r.documented.replace('|', "\\|"),
                    num(r.theory),
                    num(r.measured),
                    r.basis.as_str(),
                    r.interval
                        .map(|(a, b)| format!("[{}, {}]", sig(a, 4), sig(b, 4)))
                        .unwrap_or_default(),
                    r.unit.replace('|', "\\|"),
                    r.verdict.as_str(),
                    r.study
                );
            }
            s += "\n";
        }
    }
    s
}

/// REPORT.md: the ledger (with the claims that fail first), then each study's
/// plots, regenerated table and one-line reading.
pub fn render(
    studies: &[StudyResult<'_>],
    ledger: &[LedgerRow],
    info: &RunInfo,
    out: &Path,
) -> String {
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
    let count = |v: Verdict| ledger.iter().filter(|r| r.verdict == v).count();
    let per_document: Vec<String> = documents::DOCUMENTS
        .iter()
        .map(|d| {
            let rows = ledger.iter().filter(|r| r.document == d.id);
            format!(
                "document {}: {} ({})",
                d.id,
                rows.clone().count(),
                verdict_counts(rows)
            )
        })
        .collect();
    let measured = ledger
        .iter()
        .filter(|r| r.basis == Basis::Measured && r.interval.is_some())
        .count();
    s += "## Claims ledger\n\n";
    s += &format!(
        "{} claims: **{} hold**, **{} hold approximately**, **{} do not hold**, **{} inconclusive**, {} not measured.\n\n",
        ledger.len(),
        count(Verdict::Holds),
        count(Verdict::Approximately),
        count(Verdict::DoesNotHold),
        count(Verdict::Inconclusive),
        count(Verdict::NotMeasured)
    );
    s += &format!(
        "By document: {}. The ledger below follows the documents' order, section by section; `not measured` rows with basis `reference` are facts no harness measures (dates, venues, theorems, deployments), each with its reference in the notes (`data/claims_without_study.toml`).\n\n",
        per_document.join("; ")
    );
    s += &format!(
        "The rule is an equivalence test on the {}% interval (README, \"Verdicts\"): with H = documented ± tolerance (the precision of the document's own wording) and A = H widened outward by the factor 1 + max(tolerance, {}) (its low edge divided by it, its high edge multiplied; ±2·tolerance around a documented 0), `holds` when the whole interval lies in H, `approximately` when it lies in A, `does-not-hold` when it lies wholly outside A, and `inconclusive` when it straddles A's edge: the study must measure more. Computed rows (a formula's value or an exact enumeration) are points. With {measured} measured verdicts at {}%, about {} would flip by chance. The same table is in `claims.csv`.\n\n",
        sig(100.0 * ledger::VERDICT_CONFIDENCE, 4),
        sig(ledger::APPROX_SLACK, 2),
        sig(100.0 * ledger::VERDICT_CONFIDENCE, 4),
        sig(measured as f64 * (1.0 - ledger::VERDICT_CONFIDENCE), 2),
    );
    for (verdict, title) in [
        (Verdict::DoesNotHold, "Claims that do not hold"),
        (
            Verdict::Inconclusive,
            "Inconclusive: the interval is too wide to decide (measure more)",
        ),
    ] {
        let rows: Vec<&LedgerRow> = ledger.iter().filter(|r| r.verdict == verdict).collect();
        if rows.is_empty() {
            continue;
        }
        s += &format!("### {title}\n\n");
        for r in &rows {
            s += &format!(
                "- **{}** (doc {}): “{}” — documented {} {}, {} **{} {}**{}{}.{}\n",
                r.claim_id,
                r.document,
                r.quote,
                r.documented,
                r.unit,
                r.basis.as_str(),
                num(r.measured),
                r.unit,
                r.interval
                    .map(|(a, b)| format!(" [{}, {}]", sig(a, 4), sig(b, 4)))
                    .unwrap_or_default(),
                r.theory
                    .map(|t| format!(" (theory {})", sig(t, 4)))
                    .unwrap_or_default(),
                if r.note.is_empty() {
                    String::new()
                } else {
                    format!(" {}", r.note)
                }
            );
        }
        s += "\n";
    }
    s += &ledger_by_section(ledger);
    let notes: Vec<&LedgerRow> = ledger.iter().filter(|r| !r.note.is_empty()).collect();
    if !notes.is_empty() {
        s += "\nNotes:\n\n";
        for r in notes {
            s += &format!("- `{}`: {}\n", r.claim_id, r.note);
        }
    }
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
                st.reconstructs.unwrap_or_default(),
                markdown::table(&st.section.table),
                name = st.name
            );
        }
    }
    s += "\n## Studies\n\n";
    for st in studies {
        let sec = &st.section;
        s += &format!("### {}\n\n{}\n\n", st.name, st.description.trim());
        s += &format!(
            "Kind `{}`, {} trials in {:.1} s; data: {}, spec: `{}`.\n\n",
            st.kind,
            st.trials,
            st.seconds,
            st.data
                .iter()
                .map(|f| format!("[`{name}/{f}`]({name}/{f})", name = st.name))
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
            let stem = p
                .file_stem()
                .map(|x| x.to_string_lossy().into_owned())
                .unwrap_or_default();
            s += &format!("![{stem}]({})\n\n", rel(p, out));
        }
        if !sec.table.rows.is_empty() {
            s += &markdown::table(&sec.table);
            s += "\n";
        }
    }
    s
}
