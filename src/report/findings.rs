//! Distinct errors: `data/findings.toml` groups the intended readings that
//! rest on one mistake, so that "Findings" lists each mistake once with the
//! rows that share it. Compiled in, like the references.

use super::ledger::LedgerRow;
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
pub fn groups() -> Result<Vec<Group>, String> {
    groups_from(SOURCE)
}

fn groups_from(text: &str) -> Result<Vec<Group>, String> {
    let file: File = toml::from_str(text).map_err(|e| format!("data/findings.toml: {e}"))?;
    let (mut ids, mut claims) = (
        std::collections::HashSet::new(),
        std::collections::HashSet::new(),
    );
    for g in &file.finding {
        if !ids.insert(&g.id) {
            return Err(format!("data/findings.toml: duplicate finding {}", g.id));
        }
        if g.claims.len() < 2 {
            return Err(format!(
                "data/findings.toml: {} groups fewer than two claims",
                g.id
            ));
        }
        for c in &g.claims {
            if !claims.insert(c) {
                return Err(format!("data/findings.toml: {c} is in two findings"));
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

/// "Shared by `b` (documented 3-4; measured 5.16 …), …" for the other rows
/// of a group (plain text; empty for none).
pub fn shared_text(rest: &[&LedgerRow]) -> String {
    if rest.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = rest
        .iter()
        .map(|r| {
            format!(
                "`{}` (documented {}; {} {} {})",
                r.claim_id,
                r.documented,
                r.basis.as_str(),
                r.measured
                    .map(|v| crate::export::markdown::sig(v, 4))
                    .unwrap_or_else(|| "—".into()),
                r.unit
            )
        })
        .collect();
    format!(" The same mistake: {}.", parts.join("; "))
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
