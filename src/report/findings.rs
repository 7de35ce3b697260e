//! Distinct errors: `data/findings.toml` groups the intended readings that
//! rest on one mistake, so that "Findings" lists each mistake once with the
//! rows that share it. Compiled in, like the references.

use super::ledger::LedgerRow;
use crate::error::Error;
use serde::Deserialize;

/// The file, as committed.
pub const SOURCE: &str = include_str!("../../data/findings.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    finding: Vec<Group>,
}

/// One mistake and the claims that rest on it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    pub id: String,
    /// The mistake in one line.
    pub what: String,
    /// Its claims, the leading one first.
    pub claims: Vec<String>,
}

/// The committed groups, checked: ids unique, each claim in one group.
pub fn groups() -> crate::error::Result<Vec<Group>> {
    groups_from(SOURCE)
}

fn groups_from(text: &str) -> crate::error::Result<Vec<Group>> {
    let file: File =
        toml::from_str(text).map_err(|e| Error::input(format!("data/findings.toml: {e}")))?;
    let (mut ids, mut claims) = (
        std::collections::HashSet::new(),
        std::collections::HashSet::new(),
    );
    for g in &file.finding {
        if !ids.insert(&g.id) {
            return Err(Error::input(format!(
                "data/findings.toml: duplicate finding {}",
                g.id
            )));
        }
        if g.claims.len() < 2 {
            return Err(Error::input(format!(
                "data/findings.toml: {} groups fewer than two claims",
                g.id
            )));
        }
        for c in &g.claims {
            if !claims.insert(c) {
                return Err(Error::input(format!(
                    "data/findings.toml: {c} is in two findings"
                )));
            }
        }
    }
    Ok(file.finding)
}

/// Rows wrong as meant, one entry per distinct mistake in ledger order:
/// the leading row, the group (None for a row of its own) and the other
/// rows of its group among `wrong`.
pub fn distinct<'a>(
    wrong: &[&'a LedgerRow],
    groups: &'a [Group],
) -> Vec<(&'a LedgerRow, Option<&'a Group>, Vec<&'a LedgerRow>)> {
    let group_of = |id: &str| groups.iter().find(|g| g.claims.iter().any(|c| c == id));
    let mut out: Vec<(&LedgerRow, Option<&Group>, Vec<&LedgerRow>)> = Vec::new();
    for r in wrong {
        match group_of(&r.claim_id) {
            Some(g) => match out
                .iter_mut()
                .find(|(_, og, _)| og.is_some_and(|og| og.id == g.id))
            {
                Some((_, _, rest)) => rest.push(r),
                None => out.push((r, Some(g), Vec::new())),
            },
            None => out.push((r, None, Vec::new())),
        }
    }
    out
}

/// One distinct finding as the compact table's cells, plain text: the
/// claim and where it is, the document's words and figure, the measured
/// number with its interval, what to use instead, and the other claims that
/// rest on the same mistake.
pub struct Line {
    pub id: String,
    pub place: String,
    pub what: Option<String>,
    pub says: String,
    pub basis: &'static str,
    pub value: String,
    pub interval: String,
    pub correction: String,
    pub also: Vec<String>,
}

impl Line {
    /// "; same mistake: a, b" with each other claim written by `name`
    /// (empty when the mistake is this claim's alone).
    fn also_text(&self, name: impl Fn(&String) -> String) -> String {
        if self.also.is_empty() {
            return String::new();
        }
        let names: Vec<String> = self.also.iter().map(name).collect();
        format!("; same mistake: {}", names.join(", "))
    }
}

/// The compact table's lines, one per distinct mistake, in ledger order.
pub fn lines(wrong: &[&LedgerRow], groups: &[Group]) -> Vec<Line> {
    distinct(wrong, groups)
        .into_iter()
        .map(|(r, group, rest)| Line {
            id: r.claim_id.clone(),
            place: format!("doc {}, {}", r.document, r.section),
            what: group.map(|g| g.what.clone()),
            says: format!("“{}” — {} {}", r.quote, r.documented, r.unit),
            basis: r.basis.as_str(),
            value: super::num(r.measured),
            interval: super::interval_text(r),
            correction: r.correction.clone(),
            also: rest.iter().map(|o| o.claim_id.clone()).collect(),
        })
        .collect()
}

/// The lines as a Markdown table (`|` escaped in cells).
pub fn markdown_table(lines: &[Line]) -> String {
    let cell = crate::export::text::markdown_cell;
    let mut s =
        String::from("| Claim | The document says | Measured | Use instead |\n|---|---|---|---|\n");
    for l in lines {
        let also = l.also_text(|a| format!("`{a}`"));
        s += &format!(
            "| {}**{}** ({}){} | {} | {} **{}**{} | {} |\n",
            l.what
                .as_deref()
                .map_or(String::new(), |w| format!("*{}*: ", cell(w))),
            l.id,
            cell(&l.place),
            also,
            cell(&l.says),
            l.basis,
            l.value,
            l.interval,
            cell(&l.correction)
        );
    }
    s
}

/// The lines as an HTML table, each claim linked to its ledger row.
pub fn html_table(lines: &[Line]) -> String {
    use crate::export::html::escape;
    let link = |id: &str| format!("<a href=\"#claim-{0}\"><code>{0}</code></a>", escape(id));
    let mut s = String::from(
        "<table class=\"findings\"><thead><tr><th>Claim</th><th>The document says</th><th>Measured</th><th>Use instead</th></tr></thead><tbody>\n",
    );
    for l in lines {
        let also = l.also_text(|a| link(a));
        s += &format!(
            "<tr><td>{}{} ({}){}</td><td>{}</td><td>{} <strong>{}</strong>{}</td><td>{}</td></tr>\n",
            l.what
                .as_deref()
                .map_or(String::new(), |w| format!("<em>{}</em>: ", escape(w))),
            link(&l.id),
            escape(&l.place),
            also,
            escape(&l.says),
            l.basis,
            escape(&l.value),
            escape(&l.interval),
            escape(&l.correction)
        );
    }
    s + "</tbody></table>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_groups_parse_and_bad_ones_are_refused() {
        assert!(groups().unwrap().len() >= 2);
        let g = "[[finding]]\nid = \"a\"\nwhat = \"w\"\nclaims = [\"x\", \"y\"]\n";
        assert!(groups_from(g).is_ok());
        assert!(groups_from(&format!("{g}{g}")).is_err());
        assert!(groups_from(&g.replace("\"x\", ", "")).is_err());
        assert!(groups_from(&format!("{g}{}", g.replace("id = \"a\"", "id = \"b\""))).is_err());
        assert!(groups_from(&g.replace("what", "title")).is_err());
    }
}
