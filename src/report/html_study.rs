//! `OUT/<study>/index.html`: one study's page, beside its files (style
//! inline; its charts are the SVG files of its folder, or a heatmap's PNG,
//! linked by name, so nothing comes from outside the folder): its
//! description, reading, charts, the table its claims read, and its claims
//! with their verdicts, each linked to its row in the run's ledger. The
//! run's page lists the studies and links here, so that it stays a few
//! screens long.

use super::html::{STYLE, escape, table};
use super::ledger::{LedgerRow, Reading};
use super::{StudyResult, num};
use crate::export::markdown::sig;

/// The study's page; `ledger` is the run's (its rows for this study are shown).
pub fn page(st: &StudyResult<'_>, ledger: &[LedgerRow]) -> std::io::Result<String> {
    let name = escape(st.name);
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{name} · sketchlab</title><style>{STYLE}</style></head><body>\n<p><a href=\"../index.html\">← the run's report</a></p>\n<h1>{name}</h1>\n<p>{}</p>\n<p>Kind <code>{}</code>, {} trials in {} s; data: {}.</p>\n<p><strong>Reading.</strong> {}</p>\n",
        escape(st.description.trim()),
        escape(st.kind),
        st.trials,
        sig(st.seconds, 3),
        st.data
            .iter()
            .map(|f| format!("<a href=\"{0}\">{0}</a>", escape(f)))
            .collect::<Vec<_>>()
            .join(", "),
        escape(&st.section.reading),
    );
    // the charts are the files beside the page, linked, not copied in: the
    // SVG (or a heatmap's PNG) is already in the folder, and inlining it
    // doubled every study's chart bytes (2.7 MB of the committed reference)
    for p in st.plots {
        let Some(file) = p.file_name().map(|f| f.to_string_lossy()) else {
            continue;
        };
        let alt = p
            .file_stem()
            .map(|x| x.to_string_lossy())
            .unwrap_or_default();
        match p.extension().and_then(|e| e.to_str()) {
            Some("svg") => {}
            // a heatmap has no SVG: its PNG is the chart
            Some("png") if !p.with_extension("svg").exists() => {}
            _ => continue,
        }
        s += &format!(
            "<figure><img class=\"chart\" alt=\"{}\" src=\"{}\"></figure>\n",
            escape(&alt),
            escape(&file)
        );
    }
    if !st.section.table.rows.is_empty() {
        s += &table(&st.section.table);
    }
    let mine: Vec<&LedgerRow> = ledger.iter().filter(|r| r.study == st.name).collect();
    if !mine.is_empty() {
        s += "<h2>Its claims</h2>\n<table><thead><tr><th>claim</th><th>quote</th><th>documented</th><th>measured</th><th>verdict</th></tr></thead><tbody>\n";
        for r in mine {
            let v = r.verdict.as_str();
            s += &format!(
                "<tr><td>{}<a href=\"../index.html#claim-{id}\"><code>{id}</code></a></td><td>“{}”</td><td>{} {}</td><td>{} {}{}</td><td class=\"v-{v}\">{v}</td></tr>\n",
                if r.reading == Reading::Caveat {
                    "↳ caveat "
                } else {
                    ""
                },
                escape(&r.quote),
                escape(&r.documented),
                escape(&r.unit),
                r.basis.as_str(),
                num(r.measured),
                r.interval
                    .map(|(a, b)| format!(" [{}, {}]", sig(a, 4), sig(b, 4)))
                    .unwrap_or_default(),
                id = escape(&r.claim_id),
            );
        }
        s += "</tbody></table>\n";
    }
    // the page measures its own width, and once loaded counts the charts
    // that drew (scripts/check-report.sh reads both: a broken link is a
    // chart that did not)
    s += "<script>document.body.setAttribute('data-page-width',document.documentElement.scrollWidth);window.addEventListener('load',function(){var n=0;document.querySelectorAll('img.chart').forEach(function(i){if(i.naturalWidth>0){n++;}});document.body.setAttribute('data-charts-drawn',n);});</script>\n</body></html>\n";
    Ok(s)
}
