//! Design reviews: the essay's five questions answered for a user's own
//! numbers, for a filter ([`filter`]), a distinct counter ([`cardinality`])
//! and a frequency sketch ([`frequency`]). The figures are computed in
//! `experiment::design` (the theory functions the studies test, and what is
//! measured on this machine); this module only renders them, as Markdown,
//! HTML or JSON.

pub mod cardinality;
pub mod filter;
pub mod frequency;
pub mod heavy;
pub mod quantiles;

pub use cardinality::{CardinalityArgs, CardinalityReview};
pub use filter::{FilterArgs, FilterReview, MaxN, MemoryRow, Traffic};
pub use frequency::{FrequencyArgs, FrequencyReview};

use crate::export::markdown::sig;
use crate::report::html::escape;
use serde::Serialize;

/// A figure read from a reference run's ledger: (what, measured value,
/// where from: `FILE: claim_id`).
pub type Sourced = (String, String, String);

/// Question 5: what the seed policy means, with the attack studies' numbers.
#[derive(Clone, Debug, Serialize)]
pub struct SeedAdvice {
    pub policy: String,
    pub meaning: String,
    pub verdict: String,
    pub attacks: Vec<Sourced>,
}

/// A count to four significant figures, thousands separated: 163,840.
pub(crate) fn count(x: f64) -> String {
    let s = sig(x, 4);
    if s.contains(['.', 'e']) || s.trim_start_matches('-').len() <= 4 {
        return s;
    }
    let (sign, digits) = s.split_at(usize::from(s.starts_with('-')));
    let mut out = String::from(sign);
    for (j, c) in digits.chars().enumerate() {
        if j > 0 && (digits.len() - j) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub(crate) fn bytes(b: f64) -> String {
    crate::export::markdown::bytes(b, crate::export::markdown::ByteUnits::Si)
}

/// The answer (the first line of every format), the title, the lede,
/// what was measured and what is formula, and question 1: how every
/// review opens.
fn opening(answer: &str, title: &str, lede: &str, provenance: &str, direction: &str) -> String {
    format!(
        "{}\n\n# {title}\n\n{lede}\n\n{provenance}\n\n## 1. Which direction can it be wrong in, and who catches it?\n\n{direction}\n\n",
        answer_line(answer)
    )
}

/// The answer as the Markdown's first line.
pub fn answer_line(answer: &str) -> String {
    format!("**Answer:** {answer}")
}

/// The choice among measured candidates, as a paragraph.
fn choice_markdown(c: &crate::design::choice::Choice, speed: &str) -> String {
    let name = |x: &Option<String>| x.clone().unwrap_or_else(|| "none".into());
    let mut s = format!(
        "\n**Choice** (by {}): **{}**, runner-up {}; smallest {}, {speed} {}.",
        match c.prefer.unwrap_or_default() {
            crate::vocab::Prefer::Bytes => "bytes",
            crate::vocab::Prefer::Speed => "speed",
        },
        name(&c.recommended),
        name(&c.runner_up),
        name(&c.smallest),
        name(&c.fastest)
    );
    if let Some(t) = &c.trade_off {
        s += &format!(
            " Within {:.0}% of the smallest's bytes, {t} is faster: a trade-off worth weighing (`--prefer speed` ranks by speed).",
            crate::design::choice::NEAR_BYTES * 100.0
        );
    }
    s + "\n\n"
}

/// Figures from the reference run as a table headed `what` (nothing
/// without them).
fn sourced_table(what: &str, rows: &[Sourced]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut s = format!("| {what} | value | from |\n|---|---|---|\n");
    for (w, v, from) in rows {
        s += &format!("| {w} | {v} | {from} |\n");
    }
    s + "\n"
}

/// Question 5's section and the charts' image lines, the same for every review.
fn seed_and_charts(seed: &SeedAdvice, charts: &[String]) -> String {
    let mut s = format!(
        "## 5. Where does the seed come from, and is it per-process?\n\nPolicy `{}`: {} **{}**\n\n",
        seed.policy, seed.meaning, seed.verdict
    );
    s += &sourced_table("attack result", &seed.attacks);
    for c in charts {
        s += &format!("![{c}]({c})\n\n");
    }
    s
}

/// A review's Markdown as one self-contained HTML page (headings,
/// paragraphs and tables carried over; the charts' SVG inlined).
pub fn page_html(title: &str, md: &str, svgs: &[String]) -> String {
    let mut body = String::new();
    let mut in_table = false;
    for line in md.lines() {
        if line.starts_with('|') {
            if line.starts_with("|---") {
                continue;
            }
            if !in_table {
                body += "<table>";
                in_table = true;
            }
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            body += "<tr>";
            for c in cells {
                body += &format!("<td>{}</td>", escape(c));
            }
            body += "</tr>\n";
            continue;
        }
        if in_table {
            body += "</table>\n";
            in_table = false;
        }
        if let Some(h) = line.strip_prefix("## ") {
            body += &format!("<h2>{}</h2>\n", escape(h));
        } else if let Some(h) = line.strip_prefix("# ") {
            body += &format!("<h1>{}</h1>\n", escape(h));
        } else if line.starts_with("![") {
            continue;
        } else if !line.is_empty() {
            body += &format!("<p>{}</p>\n", escape(&line.replace("**", "")));
        }
    }
    if in_table {
        body += "</table>\n";
    }
    for svg in svgs {
        body += &format!("<figure>{svg}</figure>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>body{{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}table{{border-collapse:collapse}}td{{border:1px solid #ccc;padding:0.2em 0.5em}}figure svg{{max-width:100%;height:auto}}</style></head><body>\n{body}</body></html>\n",
        escape(title)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_thousands_separated() {
        assert_eq!(super::count(163_840.0), "163,840");
        assert_eq!(super::count(1e9), "1,000,000,000");
        assert_eq!(super::count(2719.0), "2719");
        assert_eq!(super::count(-12_345.0), "-12,345");
        assert_eq!(super::count(0.5), "0.5");
    }
}
