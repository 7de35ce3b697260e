//! `sketchlab claims`: a run's claims.csv printed as a table, grouped by
//! document section in the documents' order, optionally filtered.

use super::documents;
use super::{Ground, join_grounds};
use crate::error::Error;
use crate::vocab::{Document, Verdict};

/// The table of `OUT/claims.csv` (what `sketchlab claims` prints); `Err`
/// says which file is missing or malformed.
pub fn run_ledger(
    out: &std::path::Path,
    verdict: Option<Verdict>,
    document: Option<Document>,
    strict: bool,
) -> crate::error::Result<String> {
    let path = out.join("claims.csv");
    let bytes = crate::input::read(&path, crate::input::table_bound()).map_err(|e| {
        Error::input(format!(
            "{}: {e} (run `sketchlab reproduce` first, or pass --out DIR)",
            path.display()
        ))
    })?;
    ledger_table(&bytes, verdict, document, strict)
        .map_err(|e| Error::input(format!("{}: {e}", path.display())))
}

/// One claims.csv line, as read back.
struct Line {
    id: String,
    document: String,
    quote: String,
    documented: String,
    measured: String,
    unit: String,
    verdict: String,
    basis: String,
    interval: String,
    caveat: bool,
    caveat_of: String,
    margin: String,
}

impl Line {
    fn text(&self, width: usize, indent: &str) -> String {
        let value = if self.measured.is_empty() {
            "—".to_string()
        } else {
            format!("{} {}", self.basis, self.measured)
        };
        format!(
            "{indent}{:<14} {:<width$}  documented {}  {}{}  {}{}\n",
            self.verdict,
            self.id,
            self.documented,
            value,
            if self.interval.is_empty() {
                String::new()
            } else {
                format!(" {}", self.interval)
            },
            self.unit,
            if self.margin.is_empty() {
                String::new()
            } else {
                format!("  [{}]", self.margin)
            }
        )
    }
}

/// The table for claims.csv's bytes, keeping the rows whose verdict and
/// document match the filters (`None`: all). By default the intended
/// readings are the verdicts, each followed by its caveats (↳), which are
/// counted apart; `strict` is the literal view: every caveat is a row and a
/// verdict of its own, counted with the rest. `Err` when the file is not a
/// claims.csv (its header differs).
pub fn ledger_table(
    csv_bytes: &[u8],
    verdict: Option<Verdict>,
    document: Option<Document>,
    strict: bool,
) -> crate::error::Result<String> {
    let mut r = csv::Reader::from_reader(csv_bytes);
    let header: Vec<String> = r
        .headers()
        .map_err(|e| Error::input(e.to_string()))?
        .iter()
        .map(str::to_string)
        .collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| Error::input(format!("not a claims.csv: no column {name}")))
    };
    let c = [
        col("claim_id")?,
        col("document")?,
        col("quote")?,
        col("documented")?,
        col("measured")?,
        col("unit")?,
        col("verdict")?,
        col("basis")?,
        col("interval_lo")?,
        col("interval_hi")?,
        col("reading")?,
        col("caveat_of")?,
        col("margin")?,
    ];
    let mut lines = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| Error::input(e.to_string()))?;
        // as written, before claims.csv neutralised a formula-like cell
        let f = |i: usize| {
            crate::export::text::from_spreadsheet(rec.get(c[i]).unwrap_or_default()).to_string()
        };
        let interval = match (f(8), f(9)) {
            (lo, hi) if !lo.is_empty() && !hi.is_empty() => format!("[{lo}, {hi}]"),
            _ => String::new(),
        };
        lines.push(Line {
            id: f(0),
            document: f(1),
            quote: f(2),
            documented: f(3),
            measured: f(4),
            unit: f(5),
            verdict: f(6),
            basis: f(7),
            interval,
            caveat: f(10) == "caveat",
            caveat_of: f(11),
            margin: f(12),
        });
    }
    let total = lines.iter().filter(|l| strict || !l.caveat).count();
    let keep = |l: &Line| {
        verdict.is_none_or(|v| l.verdict == v.as_str())
            && document.is_none_or(|d| l.document == d.id())
    };
    // the rows the view counts: every row (strict), or the intended ones
    let shown: Vec<&Line> = lines
        .iter()
        .filter(|l| (strict || !l.caveat) && keep(l))
        .collect();
    let mut out = String::new();
    let width = lines.iter().map(|l| l.id.len()).max().unwrap_or(8).max(8);
    for d in &documents::DOCUMENTS {
        let mut groups: Vec<(&str, Vec<&Line>)> =
            d.headings.iter().map(|h| (*h, Vec::new())).collect();
        groups.push(("(quote not found in the document)", Vec::new()));
        for l in shown.iter().copied().filter(|l| l.document == d.id) {
            let i = d
                .locate(&l.quote)
                .map(|(i, _, _)| i)
                .unwrap_or(groups.len() - 1);
            groups[i].1.push(l);
        }
        for (heading, rows) in groups.iter().filter(|g| !g.1.is_empty()) {
            out += &format!("{} · {} ({})\n", d.id, heading, counts(rows));
            for l in rows {
                out += &l.text(width, "  ");
                if !strict {
                    // its caveats, under the same filters
                    for k in lines
                        .iter()
                        .filter(|k| k.caveat && k.caveat_of == l.id && keep(k))
                    {
                        out += &k.text(width, "    ↳ caveat ");
                    }
                }
            }
            out.push('\n');
        }
    }
    out += &format!(
        "{} of {} {} ({})\n",
        shown.len(),
        total,
        if strict {
            "rows, caveats counted as verdicts"
        } else {
            "claims"
        },
        counts(&shown)
    );
    if !strict {
        let caveats: Vec<&Line> = lines.iter().filter(|l| l.caveat).collect();
        if !caveats.is_empty() {
            out += &format!(
                "{} caveats, counted apart ({}); --strict counts them as verdicts\n",
                caveats.len(),
                counts(&caveats)
            );
        }
    }
    Ok(out)
}

/// "5 holds, 1 does-not-hold; by arithmetic: 2 holds; by citation: 2
/// holds, 1 unverified" (verdicts by arithmetic, basis `computed`, and by
/// citation, basis `reference`, counted apart).
fn counts(rows: &[&Line]) -> String {
    let ground = |basis: &str| match basis {
        "computed" => Ground::Arithmetic,
        "reference" => Ground::Citation,
        _ => Ground::Run,
    };
    let groups: Vec<(Ground, Vec<String>)> = Ground::ALL
        .iter()
        .map(|&g| {
            let list = Verdict::ALL
                .iter()
                .map(|v| {
                    let n = rows
                        .iter()
                        .filter(|l| l.verdict == v.as_str() && ground(&l.basis) == g)
                        .count();
                    (v, n)
                })
                .filter(|(_, n)| *n > 0)
                .map(|(v, n)| {
                    let v = if g == Ground::Citation && *v == Verdict::NotMeasured {
                        "unverified"
                    } else {
                        v.as_str()
                    };
                    format!("{n} {v}")
                })
                .collect();
            (g, list)
        })
        .collect();
    match join_grounds(&groups) {
        s if s.is_empty() => "none".into(),
        s => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "claim_id,document,quote,documented,theory,measured,unit,verdict,basis,interval_lo,interval_hi,reading,caveat_of,type,margin,correction\n\
a,002,\"Traffic to the database: 298 instead of 10,000.\",298,,298,lookups,holds,computed,,,intended,,exact,exact,\n\
b,000,Four bits caps a counter at 15,15,,15,count,holds,computed,,,intended,,exact,exact,\n\
c,002,It is wrong about one time in a hundred when it says yes,0.01,,0.33,share,does-not-hold,measured,0.3,0.36,intended,,approximation,rate ±10%,\n\
d,002,\"Traffic to the database: 298 instead of 10,000.\",298,,301,lookups,does-not-hold,measured,299,303,caveat,a,approximation,cost ±25%,\n";

    #[test]
    fn groups_by_section_in_document_order_and_filters() {
        let t = ledger_table(CSV.as_bytes(), None, None, false).unwrap();
        let (b, c, a) = (
            t.find("  holds          b").unwrap(),
            t.find("does-not-hold  c").unwrap(),
            t.find("  holds          a").unwrap(),
        );
        // 000 first; in 002 the opening (c) comes before the economics (a)
        assert!(b < c && c < a, "{t}");
        assert!(
            t.contains(
                "002 · The economics, which is where these get misapplied (by arithmetic: 1 holds)"
            ),
            "{t}"
        );
        assert!(t.contains("[0.3, 0.36]") && t.contains("[rate ±10%]"));
        // the caveat follows its claim, and is counted apart
        let d = t.find("    ↳ caveat does-not-hold  d").unwrap();
        assert!(d > a, "{t}");
        assert!(
            t.ends_with("3 of 3 claims (1 does-not-hold; by arithmetic: 2 holds)\n1 caveats, counted apart (1 does-not-hold); --strict counts them as verdicts\n"),
            "{t}"
        );
        // --strict: the caveat is a verdict of its own
        let s = ledger_table(CSV.as_bytes(), None, None, true).unwrap();
        assert!(s.contains("  does-not-hold  d"), "{s}");
        assert!(
            s.ends_with("4 of 4 rows, caveats counted as verdicts (2 does-not-hold; by arithmetic: 2 holds)\n"),
            "{s}"
        );
        let only = ledger_table(CSV.as_bytes(), Some(Verdict::DoesNotHold), None, false).unwrap();
        assert!(only.contains(" c ") && !only.contains(" a ") && !only.contains(" b "));
        let doc = ledger_table(CSV.as_bytes(), None, Some(Document::Chapter), false).unwrap();
        assert!(
            doc.contains("1 of 3 claims (by arithmetic: 1 holds)\n"),
            "{doc}"
        );
        assert!(ledger_table(b"id,x\n1,2\n", None, None, false).is_err());
    }
}
