//! `OUT/index.html`: the report as one self-contained page a reader opens in
//! a browser. Everything is inline (CSS, the charts as SVG, a small script
//! that filters the ledger by verdict and document), so the page makes no
//! request; without JavaScript every row simply stays visible. It carries
//! what REPORT.md and the study pages carry, from the same rows: the
//! decision first (the frontier charts, "which structure"), the findings as
//! a compact table, the ledger by document section with counts per verdict
//! (each claim followed by its caveats), "What the seed buys you", the lost
//! tables and the list of studies, each linking to its own page
//! (`html_study`).

use super::ledger::{self, LedgerRow, Reading};
use super::{
    Findings, RunInfo, StudyResult, documents, interval_text, num, reading_counts, section_counts,
    with_caveats,
};
use crate::export::markdown::sig;
use crate::table::{Table, Value};
use std::path::Path;

pub use crate::export::html::escape;

pub(super) const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:80em;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:0.5em 0 1.5em;font-size:0.85em}\
th,td{border:1px solid #ccc;padding:0.2em 0.45em;vertical-align:top;text-align:left}\
th{background:#f3f3f3}\
.v-holds{background:#d9f2d9}.v-does-not-hold{background:#f8d0d0}\
tr.caveat td{color:#555;font-size:0.95em}tr.caveat td:first-child{padding-left:1.5em}\
.findings li{margin:0.35em 0}\
.v-inconclusive{background:#fbeac0}.v-not-measured{background:#e8e8e8}\
td.note{color:#555;font-size:0.9em}\
figure{margin:1em 0}figure svg,figure img{max-width:100%;height:auto}\
nav{display:flex;flex-wrap:wrap;gap:0.2em 0.6em}nav a{white-space:nowrap}\
table{display:block;max-width:100%;overflow-x:auto}td{overflow-wrap:anywhere}.filter{position:sticky;top:0;background:#fff;padding:0.4em 0;border-bottom:1px solid #ddd}";

const SCRIPT: &str = "(function(){var v=document.getElementById('f-verdict'),d=document.getElementById('f-document');\
function apply(){var rows=document.querySelectorAll('tr[data-verdict]');var shown=0;\
for(var i=0;i<rows.length;i++){var r=rows[i];var ok=(!v.value||r.dataset.verdict===v.value)&&(!d.value||r.dataset.document===d.value);\
r.style.display=ok?'':'none';if(ok)shown++;}document.getElementById('f-count').textContent=shown+' of '+rows.length+' claims shown';}\
v.addEventListener('change',apply);d.addEventListener('change',apply);apply();\
document.body.setAttribute('data-page-width',document.documentElement.scrollWidth);document.body.setAttribute('data-page-height',document.documentElement.scrollHeight);var c=document.querySelector('figure svg');if(c){document.body.setAttribute('data-first-chart-top',Math.round(c.getBoundingClientRect().top+window.scrollY));}})();";

fn cell(v: &Value) -> String {
    match v {
        Value::Float(x) => sig(*x, 4),
        other => other.to_string(),
    }
}

/// A regenerated table as HTML.
pub(super) fn table(t: &Table) -> String {
    let mut s = String::from("<table><thead><tr>");
    for c in t.names() {
        s += &format!("<th>{}</th>", escape(c));
    }
    s += "</tr></thead><tbody>\n";
    for r in &t.rows {
        s += "<tr>";
        for v in r {
            s += &format!("<td>{}</td>", escape(&cell(v)));
        }
        s += "</tr>\n";
    }
    s + "</tbody></table>\n"
}

fn ledger_row(r: &LedgerRow) -> String {
    let v = r.verdict.as_str();
    let caveat = r.reading == Reading::Caveat;
    format!(
        "<tr data-verdict=\"{v}\" data-document=\"{}\" id=\"claim-{id}\" data-reading=\"{}\"{}><td>{}<code>{id}</code></td><td>“{}”</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"v-{v}\">{v}</td><td>{}</td><td class=\"note\">{}</td></tr>\n",
        escape(r.document.id()),
        r.reading.as_str(),
        if caveat { " class=\"caveat\"" } else { "" },
        if caveat { "↳ caveat " } else { "" },
        escape(&r.quote),
        escape(&r.documented),
        num(r.theory),
        num(r.measured),
        r.interval
            .map(|(a, b)| format!("[{}, {}]", sig(a, 4), sig(b, 4)))
            .unwrap_or_default(),
        escape(r.basis.as_str()),
        escape(&r.unit),
        escape(&format!(
            "{}, {}",
            r.ty.map_or("", crate::report::verdict::ClaimType::as_str),
            r.margin
        )),
        if r.study.is_empty() {
            String::new()
        } else {
            format!(
                "<a href=\"{0}/index.html\">{0}</a>: <code>{1}</code>",
                escape(&r.study),
                escape(&r.rests_on)
            )
        },
        escape(&r.note),
        id = escape(&r.claim_id),
    )
}

/// The ledger, one table per document section in the documents' order.
fn ledger_tables(rows: &[LedgerRow]) -> String {
    let head = format!(
        "<table><thead><tr><th>claim</th><th>quote</th><th>documented</th><th>theory</th><th>value</th><th>{}% interval</th><th>basis</th><th>unit</th><th>type, margin</th><th>verdict</th><th>study</th><th>note</th></tr></thead><tbody>\n",
        sig(100.0 * ledger::VERDICT_CONFIDENCE, 4)
    );
    let mut s = String::new();
    for d in &documents::DOCUMENTS {
        let mine: Vec<&LedgerRow> = rows.iter().filter(|r| r.document.id() == d.id).collect();
        if mine.is_empty() {
            continue;
        }
        s += &format!(
            "<h3>Document {}: {}</h3>\n<p>{}.</p>\n",
            escape(d.id),
            escape(d.title),
            escape(&section_counts(&mine))
        );
        let mut headings: Vec<&str> = d.headings.to_vec();
        headings.push("");
        for h in headings {
            let section: Vec<&LedgerRow> =
                mine.iter().copied().filter(|r| r.section == h).collect();
            if section.is_empty() {
                continue;
            }
            s += &format!(
                "<h4>{} · {}</h4>\n<p>{}.</p>\n{head}",
                escape(d.id),
                escape(if h.is_empty() { "(quote not found)" } else { h }),
                escape(&section_counts(&section))
            );
            for r in with_caveats(&section) {
                s += &ledger_row(r);
            }
            s += "</tbody></table>\n";
        }
    }
    s
}

/// "Findings" as HTML: the same rows as REPORT.md's.
fn findings(rows: &[LedgerRow]) -> String {
    let f = Findings::of(rows);
    let groups = super::findings::groups().unwrap_or_default();
    let lines = super::findings::lines(&f.wrong, &groups);
    let mut s = format!(
        "<h2 id=\"findings\">Findings</h2>\n<p>{}.</p>\n<h3>Wrong as meant ({} distinct errors in {} claims)</h3>\n",
        escape(&reading_counts(rows)),
        lines.len(),
        f.wrong.len()
    );
    s += &super::findings::html_table(&lines);
    if !f.cited.is_empty() {
        s += &format!(
            "<h3>Wrong by citation ({})</h3>\n<ul class=\"findings\">\n",
            f.cited.len()
        );
        for r in &f.cited {
            s += &format!(
                "<li><a href=\"#claim-{id}\"><code>{id}</code></a> (doc {}, {}): “{}” — documented {} ({}). <strong>Use instead:</strong> {}</li>\n",
                escape(r.document.id()),
                escape(&r.section),
                escape(&r.quote),
                escape(&r.documented),
                escape(&r.unit),
                escape(&r.correction),
                id = escape(&r.claim_id),
            );
        }
        s += "</ul>\n";
    }
    s += &format!(
        "<h3>Caveats worth knowing ({})</h3>\n<ul class=\"findings\">\n",
        f.caveats.len()
    );
    for r in &f.caveats {
        s += &format!(
            "<li><a href=\"#claim-{id}\"><code>{id}</code></a> (of <code>{}</code>): {} {}{}; documented {}. {}</li>\n",
            escape(r.caveat_of.as_deref().unwrap_or_default()),
            num(r.measured),
            escape(&r.unit),
            interval_text(r),
            escape(&r.documented),
            escape(&r.note),
            id = escape(&r.claim_id),
        );
    }
    s += "</ul>\n";
    if !f.open.is_empty() {
        s += &format!(
            "<h3>Undecided ({})</h3>\n<ul class=\"findings\">\n",
            f.open.len()
        );
        for r in &f.open {
            s += &format!(
                "<li><a href=\"#claim-{id}\"><code>{id}</code></a>: {} {}{} against {} ({}). {}</li>\n",
                num(r.measured),
                escape(&r.unit),
                interval_text(r),
                escape(&r.documented),
                escape(&r.margin),
                escape(&r.note),
                id = escape(&r.claim_id),
            );
        }
        s += "</ul>\n";
    }
    s
}

/// A chart file's SVG, ready to inline (its XML prolog dropped).
pub fn inline_svg(path: &Path) -> std::io::Result<String> {
    let text = crate::input::read_string(path, crate::input::table_bound())?;
    let body = match text.find("<svg") {
        Some(i) => &text[i..],
        None => text.as_str(),
    };
    Ok(body.trim().to_string())
}

/// index.html from the same rows as REPORT.md (the charts read from their SVG files).
/// The decision the page opens with: the frontier charts inline and "which
/// structure for which need" (nothing when the run has neither).
fn decision(studies: &[StudyResult<'_>], info: &RunInfo) -> std::io::Result<String> {
    let charts = super::decision::frontier_charts(studies);
    if charts.is_empty() && info.decision.is_none() {
        return Ok(String::new());
    }
    let mut s = String::from("<h2 id=\"which\">Which structure</h2>\n");
    for (study, file, _) in &charts {
        let path = studies.iter().find(|st| st.name == *study).and_then(|st| {
            st.plots
                .iter()
                .find(|p| p.file_name().is_some_and(|f| f == file.as_str()))
        });
        if let Some(p) = path {
            s += &format!("<figure>{}</figure>\n", inline_svg(p)?);
        }
    }
    if let Some((n, choices)) = &info.decision {
        s += &format!(
            "<p>Measured at n = {} u64 keys (<a href=\"filter_frontier/index.html\">filter_frontier</a>): per need and target, the structure with the fewest bits per key among those that offer the need and whose measured FPR is not above the target beyond the rate margin (±10%). <code>sketchlab design filter</code> measures the same candidates at your n, key size and needs.</p>\n<table><thead><tr><th>need</th><th>target FPR</th><th>smallest structure, as configured</th><th>bits per key</th><th>measured FPR [95%]</th><th>runner-up</th></tr></thead><tbody>\n",
            super::decision::group(*n)
        );
        for c in choices {
            let [target, bits, fpr, lo, hi] = c.figures();
            s += &format!(
                "<tr><td>{}</td><td>{target}%</td><td><code>{}</code> ({})</td><td>{bits}</td><td>{fpr}% [{lo}, {hi}]</td><td>{}</td></tr>\n",
                escape(c.need),
                escape(&c.structure),
                escape(&c.config),
                c.runner_up
                    .as_ref()
                    .map(|(r, b)| format!("<code>{}</code> ({} bits)", escape(r), sig(*b, 4)))
                    .unwrap_or_else(|| "—".into()),
            );
        }
        s += "</tbody></table>\n";
    }
    Ok(s)
}

pub fn render(
    studies: &[StudyResult<'_>],
    rows: &[LedgerRow],
    info: &RunInfo,
) -> std::io::Result<String> {
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>sketchlab report</title><style>{STYLE}</style></head><body>\n<h1>sketchlab report</h1>\n"
    );
    s += &format!(
        "<p>Generated by <code>sketchlab reproduce{}</code> on {} with {} threads{}. Every number below was measured or computed by that run; the same ledger is in <a href=\"claims.csv\">claims.csv</a> and <a href=\"REPORT.md\">REPORT.md</a>.</p>\n",
        if info.quick { " --quick" } else { "" },
        escape(&info.finished_utc),
        info.threads,
        info.git_revision
            .as_deref()
            .map(|r| format!(" at git revision <code>{}</code>", escape(r)))
            .unwrap_or_default()
    );
    if info.quick {
        s += "<p><strong>Quick mode</strong>: sizes are reduced; intervals are wider than in a full run.</p>\n";
    }
    s += &decision(studies, info)?;
    s += &findings(rows);
    s += "<nav><a href=\"#which\">Which structure</a><a href=\"#findings\">Findings</a><a href=\"#ledger\">Claims ledger</a><a href=\"#seed\">What the seed buys you</a><a href=\"#lost\">The essay's lost tables</a><a href=\"#studies\">Studies</a></nav>\n";
    s += &format!(
        "<h2 id=\"ledger\">Claims ledger</h2>\n<p>{}.</p>\n<p>Each claim is followed by its caveats (↳): literal or edge readings, decided on their own and counted apart. The type picks the test and the margin is the smallest difference that matters for the claim's use (REPORT.md gives the rule and the materiality table).</p>\n",
        escape(&reading_counts(rows))
    );
    s += "<div class=\"filter\"><label>verdict <select id=\"f-verdict\"><option value=\"\">all</option>";
    for v in ledger::VERDICTS {
        let v = v.as_str();
        s += &format!("<option value=\"{v}\">{v}</option>");
    }
    s += "</select></label> <label>document <select id=\"f-document\"><option value=\"\">all</option>";
    for d in &documents::DOCUMENTS {
        s += &format!(
            "<option value=\"{}\">{} ({})</option>",
            escape(d.id),
            escape(d.id),
            escape(d.title)
        );
    }
    s += "</select></label> <span id=\"f-count\"></span></div>\n";
    s += &ledger_tables(rows);
    let seed: Vec<_> = studies
        .iter()
        .flat_map(|st| st.seed_rows.iter().map(move |r| (st.name, r)))
        .collect();
    if !seed.is_empty() {
        s += "<h2 id=\"seed\">What the seed buys you</h2>\n<table><thead><tr><th>structure</th><th>attack</th><th>designed</th><th>constant seed</th><th>random seed, non-cryptographic</th><th>keyed PRF (SipHash-1-3)</th><th>study</th></tr></thead><tbody>\n";
        for (study, r) in seed {
            s += &format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><a href=\"{study}/index.html\">{study}</a></td></tr>\n",
                escape(&r.structure),
                escape(&r.attack),
                escape(&r.designed),
                escape(&r.constant_seed),
                escape(&r.random_seed),
                escape(&r.keyed)
            );
        }
        s += "</tbody></table>\n";
    }
    let lost: Vec<&StudyResult<'_>> = studies
        .iter()
        .filter(|st| st.reconstructs.is_some())
        .collect();
    if !lost.is_empty() {
        s += "<h2 id=\"lost\">The essay's lost tables, reconstructed</h2>\n<p>The essay refers to tables that did not survive; each is regenerated from this run's rows (the study's page has its charts and reading).</p>\n";
        for st in lost {
            s += &format!(
                "<h3>{}</h3>\n<p>From <a href=\"{name}/index.html\">{name}</a>.</p>\n{}",
                escape(st.reconstructs.as_deref().unwrap_or_default()),
                table(&st.section.table),
                name = escape(st.name)
            );
        }
    }
    s += "<h2 id=\"studies\">Studies</h2>\n<p>Each study has its own page (charts, the table its claims read, its reading and its claims), beside its data in its folder.</p>\n<table><thead><tr><th>study</th><th>what it measures</th><th>kind</th><th>trials</th></tr></thead><tbody>\n";
    for st in studies {
        s += &format!(
            "<tr><td><a href=\"{0}/index.html\">{0}</a></td><td>{1}</td><td><code>{2}</code></td><td>{3}</td></tr>\n",
            escape(st.name),
            escape(st.description.trim()),
            escape(st.kind),
            st.trials
        );
    }
    s += "</tbody></table>\n";
    s += &format!("<script>{SCRIPT}</script>\n</body></html>\n");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_html() {
        assert_eq!(
            escape("a < b & \"c\" > d"),
            "a &lt; b &amp; &quot;c&quot; &gt; d"
        );
    }
}
