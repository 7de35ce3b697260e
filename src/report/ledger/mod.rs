//! The claims ledger: each documented number next to theory and measurement,
//! with a verdict computed by one fixed rule ([`verdict`](super::verdict::verdict))
//! at [`VERDICT_CONFIDENCE`]: the claim's type makes the band (a value or
//! range widened by its materiality margin, [`super::margin`], or a one-sided
//! bound), and its intended reading alone decides; caveats (literal or edge
//! readings) are reported under the claim they qualify.

pub use super::margin::{OrderOf, Quantity, Scale};
pub use super::verdict::{
    ClaimType, Reading, Test, VERDICT_CONFIDENCE, VERDICTS, Verdict, verdict,
};
use crate::error::Error;
use crate::export::markdown::sig;
use crate::table::{Interval, Tables, Value};

mod measure;
use measure::measure;

crate::closed_set! {
    /// How a claim's value is obtained from the selected rows.
    #[derive(Default)]
    pub enum Check {
        /// The metric of the single selected row (or its ratio to `baseline`).
        #[default]
        Value = "value",
        /// The metric must agree across the selected rows: measured is the largest
        /// ratio between two of them, with its interval, tested against 1 within
        /// the claim's margin.
        EqualAcross = "equal_across",
        /// The largest value over the selected rows (e.g. false negatives).
        Max = "max",
        /// One proportion pooled over the selected rows (successes and trials
        /// summed): for a claim about a population of settings.
        Pooled = "pooled",
        /// A universal claim ("every", "any", "always") over the selected rows
        /// (the claim's declared regime): does-not-hold when one row fails at the
        /// confidence corrected for the number of rows taken the worst of (Holm's
        /// first step, 1 − (1 − c)/k), holds when every row holds at c,
        /// inconclusive otherwise; the deciding row is shown.
        Every = "every",
        /// The value of the claim's `by` column where the metric is smallest (the
        /// k that minimises the FPR), a proportion's counts pooled over the
        /// selected rows sharing a `by` value; its interval spans the `by`
        /// values whose interval reaches the smallest's (those the data cannot
        /// tell from the minimum).
        ArgMin = "argmin",
        /// The value is shown but no verdict is given (e.g. what a lost table row
        /// must be for a sentence to hold): `not-measured`, with the value.
        Report = "report",
    }
}

crate::closed_set! {
    /// Which table a claim reads.
    #[derive(Default)]
    pub enum Source {
        #[default]
        Results = "results",
        Summary = "summary",
    }
}

crate::closed_set! {
    /// Whether a claim's value comes from a measurement or from a formula or an
    /// exact enumeration (which has no sampling interval).
    pub enum Basis {
        /// A sampled value: decided on its interval.
        Measured = "measured",
        /// An exact measurement of this run (a count, bytes from the allocator): no sampling interval.
        Counted = "counted",
        /// A formula's value or an exact enumeration.
        Computed = "computed",
        /// A fact no harness measures (a date, a venue, a theorem, a deployment):
        /// `not-measured`, with the reference a reader checks it against.
        Reference = "reference",
    }
}

/// A document's claim, checked against a study's tables.
#[derive(Clone, Debug)]
pub struct Claim {
    pub id: String,
    pub document: crate::vocab::Document,
    pub quote: String,
    pub documented: f64,
    pub documented_high: Option<f64>,
    pub unit: String,
    /// `(parameter, accepted values)`: a row matches when each cell equals one of its values.
    pub select: Vec<(String, Vec<Value>)>,
    pub metric: String,
    pub theory_metric: Option<String>,
    pub check: Check,
    /// check = "argmin": the column reported at the minimum.
    pub by: Option<String>,
    pub baseline: Option<Vec<(String, Vec<Value>)>>,
    pub note: Option<String>,
    pub source: Source,
    pub basis: Basis,
    /// What kind of statement it is: picks the test.
    pub ty: ClaimType,
    pub reading: Reading,
    /// For a caveat: the intended claim it qualifies.
    pub caveat_of: Option<String>,
    /// The kind of quantity: its margin comes from [`super::margin`].
    pub quantity: Quantity,
    /// The printed precision of an exact claim (relative; absolute at 0).
    pub resolution: f64,
    /// For an [`Quantity::Order`] claim: whether its values are counts or
    /// their log2 (both judged in decades).
    pub order_of: Option<OrderOf>,
    /// A margin of the claim's own, overriding the quantity's, with its reason.
    pub margin_override: Option<(f64, Scale, String)>,
    /// For an asymptotic claim: the regime its rows cover, and why.
    pub regime: Option<String>,
    /// What a reader should use instead when the claim does not hold: text
    /// with `{measured}`, `{interval}`, `{theory}` and `{claim_id}` (another
    /// claim's measured value) filled in from the ledger.
    pub correction: Option<String>,
    /// Why the full run cannot afford to decide the claim, and the size that
    /// would: said in the note when the verdict is inconclusive.
    pub undecidable_at: Option<String>,
    /// The measured value is divided by the row's `theory_metric` (a
    /// size-dependent formula, judged as a ratio to 1).
    pub per_theory: bool,
    /// Set when the study adds replicates while this claim is undecided
    /// (`[sequential]`): the rule, said in the note.
    pub sequential: Option<String>,
}

impl Claim {
    /// The margin of this claim's test, its scale, and where it comes from.
    pub fn margin(&self) -> (f64, Scale, String) {
        if let Some((m, scale, why)) = &self.margin_override {
            let label = match scale {
                Scale::Relative => format!("±{}%", sig(m * 100.0, 4)),
                Scale::Absolute => format!("±{}", sig(*m, 4)),
            };
            return (*m, *scale, format!("{label} (own: {why})"));
        }
        match self.quantity.margin() {
            Some((m, scale)) => (
                m,
                scale,
                format!("{} {}", self.quantity.as_str(), self.quantity.label()),
            ),
            None if self.resolution == 0.0 => (0.0, Scale::Relative, "exact".into()),
            None => (
                self.resolution,
                Scale::Relative,
                format!(
                    "exact at the printed precision ±{}%",
                    sig(self.resolution * 100.0, 3)
                ),
            ),
        }
    }

    /// A value on the scale the claim is judged on: decades for an
    /// order-of-magnitude claim, else itself.
    pub fn judged(&self, x: f64) -> f64 {
        self.order_of.map_or(x, |o| o.decades(x))
    }

    /// The test this claim's measurement faces.
    pub fn test(&self) -> Test {
        let (m, scale, _) = self.margin();
        Test::new(
            self.ty,
            (
                self.judged(self.documented),
                self.judged(self.documented_high.unwrap_or(self.documented)),
            ),
            m,
            scale,
        )
    }
}

/// One line of claims.csv (plus what REPORT.md shows beside it).
#[derive(Clone, Debug)]
pub struct LedgerRow {
    pub claim_id: String,
    pub document: crate::vocab::Document,
    pub quote: String,
    pub documented: String,
    pub theory: Option<f64>,
    pub measured: Option<f64>,
    pub unit: String,
    pub verdict: Verdict,
    pub basis: Basis,
    pub study: String,
    /// The interval the verdict was decided on (at [`VERDICT_CONFIDENCE`]).
    pub interval: Option<(f64, f64)>,
    pub note: String,
    /// The heading of the document section the quote sits in ("" when the
    /// quote is not found: tests/quotes.rs fails then).
    pub section: String,
    /// (section index, offset in the section): the documents' order.
    pub place: (usize, usize),
    pub reading: Reading,
    pub caveat_of: Option<String>,
    /// The claim's type (`None` for a reference row).
    pub ty: Option<ClaimType>,
    /// The margin the verdict was decided with, and where it comes from.
    pub margin: String,
    /// The corrected statement (filled in by [`link`]).
    pub correction: String,
    /// The column the verdict rests on: "summary.over_eps_n (every row)"
    /// ("" for a verdict by citation).
    pub rests_on: String,
}

impl LedgerRow {
    /// Sets `section` and `place` from the quote's position in its document.
    pub fn placed(mut self) -> Self {
        let at = super::documents::document(self.document.id())
            .ok_or_else(|| Error::input("no such document"))
            .and_then(|d| d.locate(&self.quote));
        (self.section, self.place) = match at {
            Ok((i, heading, offset)) => (heading.to_string(), (i, offset)),
            Err(_) => (String::new(), (usize::MAX, 0)),
        };
        self
    }
}

/// The ledger in the documents' order: by document, section, then position
/// of the quote (claims on one sentence keep their spec order).
pub fn sort(rows: &mut [LedgerRow]) {
    rows.sort_by(|a, b| (&a.document, a.place).cmp(&(&b.document, b.place)));
}

/// "results.fpr_measured", "summary.over_eps_n (every row)", "results.m
/// ÷ baseline": the table and column a claim's value is read from.
pub fn rests_on(claim: &Claim) -> String {
    let table = match claim.source {
        Source::Results => "results",
        Source::Summary => "summary",
    };
    let how = match claim.check {
        Check::Value if claim.baseline.is_some() => " ÷ its baseline row",
        Check::Value => "",
        Check::EqualAcross => " (largest ÷ smallest)",
        Check::Max => " (largest)",
        Check::Pooled => " (counts pooled)",
        Check::Every => " (every row)",
        Check::Report if claim.baseline.is_some() => " ÷ its baseline row (shown)",
        Check::Report => " (shown)",
        Check::ArgMin => " (its smallest row)",
    };
    let per = if claim.per_theory {
        format!(" ÷ {}", claim.theory_metric.as_deref().unwrap_or("theory"))
    } else {
        String::new()
    };
    match &claim.by {
        Some(by) => format!("{table}.{by} where {}{per}{how}", claim.metric),
        None => format!("{table}.{}{per}{how}", claim.metric),
    }
}

/// Evaluates one claim against its study's tables.
pub fn evaluate(claim: &Claim, study: &str, tables: &Tables) -> LedgerRow {
    let (_, _, margin) = claim.margin();
    let mut row = LedgerRow {
        claim_id: claim.id.clone(),
        document: claim.document,
        quote: claim.quote.clone(),
        documented: documented_text(claim),
        theory: None,
        measured: None,
        unit: claim.unit.clone(),
        verdict: Verdict::NotMeasured,
        basis: claim.basis,
        study: study.to_string(),
        interval: None,
        note: claim.note.clone().unwrap_or_default(),
        section: String::new(),
        place: (0, 0),
        reading: claim.reading,
        caveat_of: claim.caveat_of.clone(),
        ty: Some(claim.ty),
        margin,
        correction: claim.correction.clone().unwrap_or_default(),
        rests_on: rests_on(claim),
    }
    .placed();
    if let Some(r) = &claim.regime {
        append(&mut row.note, &format!("regime: {r}"));
    }
    let test = claim.test();
    match measure(claim, tables, &test) {
        Ok(m) if claim.check == Check::Report => {
            row.measured = Some(m.interval.value);
            row.theory = m.theory;
            if claim.basis == Basis::Measured {
                row.interval = Some((m.interval.lo, m.interval.hi));
            }
        }
        Ok(m) => {
            row.measured = Some(m.interval.value);
            row.theory = m.theory;
            if m.interval.lo != m.interval.hi || claim.basis == Basis::Measured {
                row.interval = Some((m.interval.lo, m.interval.hi));
            }
            let judged = Interval::new(
                claim.judged(m.interval.value),
                claim.judged(m.interval.lo),
                claim.judged(m.interval.hi),
            );
            row.verdict = m.verdict.unwrap_or_else(|| verdict(&test, judged));
            if m.rescaled {
                append(
                    &mut row.note,
                    "verdict interval: the table's bounds widened to the verdict level by the normal ratio",
                );
            }
            if let Some(holm) = &m.holm {
                append(&mut row.note, holm);
            }
            if let Some(rule) = &claim.sequential {
                let took = tables.summary.as_ref().and_then(|s| {
                    s.select(&claim.select)
                        .filter_map(|r| s.f64(r, "replicates"))
                        .reduce(f64::max)
                });
                let mut said = format!(
                    "{rule}{}",
                    took.map(|n| format!("; this run took {n}"))
                        .unwrap_or_default()
                );
                if row.verdict == Verdict::Inconclusive
                    && let Some(need) = took.and_then(|n| projected_size(claim, &row, n as usize))
                {
                    said += &format!(
                        "; at this rate deciding would take about {} replicates, beyond its budget",
                        if need.is_finite() {
                            sig(need, 2)
                        } else {
                            "any number of".into()
                        }
                    );
                }
                append(&mut row.note, &said);
            }
            if let (Verdict::Inconclusive, Some(size)) = (row.verdict, &claim.undecidable_at) {
                append(
                    &mut row.note,
                    &format!("undecided at this run's size: {size}"),
                );
            }
            if claim.quantity == Quantity::ExactProbability
                && row.verdict == Verdict::Holds
                && !test.contains_documented(
                    m.interval.lo.min(m.interval.value),
                    m.interval.hi.max(m.interval.value),
                )
            {
                append(
                    &mut row.note,
                    &format!(
                        "the interval excludes the exact value: a real difference of {}%, inside the ±{}% resolution",
                        sig(100.0 * (m.interval.value / claim.documented - 1.0), 2),
                        sig(100.0 * test.margin, 2)
                    ),
                );
            }
            if claim.ty.is_bound() && row.verdict == Verdict::Holds {
                let doc = if claim.ty == ClaimType::UpperBound {
                    claim.documented_high.unwrap_or(claim.documented)
                } else {
                    claim.documented
                };
                if doc != 0.0 && m.interval.value.is_finite() {
                    let f = m.interval.value / doc;
                    let how = if claim.ty == ClaimType::UpperBound {
                        format!(
                            "the bound holds with room to spare: {}× the bound",
                            sig(f, 3)
                        )
                    } else {
                        format!("the bound holds: {}× the bound", sig(f, 3))
                    };
                    if (claim.ty == ClaimType::UpperBound && f < 0.5)
                        || (claim.ty == ClaimType::LowerBound && f > 2.0)
                    {
                        append(&mut row.note, &how);
                    }
                }
            }
        }
        Err(why) => append(&mut row.note, &why.to_string()),
    }
    row
}

/// The sample size at which an undecided claim's interval, shrinking as
/// 1/√n from its `n` now, would clear the band's edge it straddles:
/// n · (half-width / distance to the edge)² (infinite on the edge itself);
/// `None` when the interval straddles no edge.
pub fn projected_size(claim: &Claim, row: &LedgerRow, n: usize) -> Option<f64> {
    let (v, (lo, hi)) = (row.measured?, row.interval?);
    let (a, b) = claim.test().band();
    let d = [a, b]
        .into_iter()
        .filter(|e| e.is_finite() && lo <= *e && *e <= hi)
        .map(|e| (v - e).abs())
        .reduce(f64::min)?;
    let h = (v - lo).max(hi - v);
    Some(if d == 0.0 {
        f64::INFINITY
    } else {
        n as f64 * (h / d).powi(2)
    })
}

/// The documented value as claims.csv prints it: a point, a range `a-b`,
/// or a bound `<= b`, `>= a`.
fn documented_text(claim: &Claim) -> String {
    let hi = claim.documented_high.unwrap_or(claim.documented);
    match claim.ty {
        ClaimType::UpperBound => format!("<= {}", sig(hi, 6)),
        ClaimType::LowerBound => format!(">= {}", sig(claim.documented, 6)),
        _ if claim.documented_high.is_some() => {
            format!("{}-{}", sig(claim.documented, 6), sig(hi, 6))
        }
        _ => sig(claim.documented, 6),
    }
}

fn append(note: &mut String, s: &str) {
    if note.is_empty() {
        *note = s.to_string();
    } else {
        *note = format!("{note} ({s})");
    }
}

/// Checks the ledger's links and fills in the corrected statements: a caveat
/// qualifies an intended claim (a caveat's caveat is an error; a parent
/// absent from this run, which ran a subset of the studies, is said in the
/// note), and every `{name}` of a correction is `measured`, `interval`,
/// `theory` or a claim id of the ledger (kept only where the claim does not
/// hold). `Err` lists what is wrong (a spec
/// error: the ledger is not written). `tests/quotes.rs` checks that every
/// committed caveat's parent exists.
pub fn link(rows: &mut [LedgerRow]) -> crate::error::Result<()> {
    let measured: std::collections::HashMap<String, (Reading, Option<f64>)> = rows
        .iter()
        .map(|r| (r.claim_id.clone(), (r.reading, r.measured)))
        .collect();
    let mut errors = Vec::new();
    for r in rows.iter_mut() {
        if let Some(parent) = &r.caveat_of {
            match measured.get(parent) {
                Some((Reading::Intended, _)) => {}
                Some((Reading::Caveat, _)) => errors.push(format!(
                    "{}: caveat_of = {parent}, which is itself a caveat",
                    r.claim_id
                )),
                None => {
                    let why = format!("its intended claim {parent} is not in this run");
                    append(&mut r.note, &why);
                }
            }
        }
        let num = |x: Option<f64>| x.map(|v| sig(v, 4)).unwrap_or_else(|| "—".into());
        let mut out = String::new();
        let mut rest = r.correction.as_str();
        while let Some(open) = rest.find('{') {
            out += &rest[..open];
            let Some(close) = rest[open..].find('}') else {
                errors.push(format!("{}: correction has an unclosed {{", r.claim_id));
                break;
            };
            let name = &rest[open + 1..open + close];
            out += &match name {
                "measured" => num(r.measured),
                "theory" => num(r.theory),
                "interval" => r
                    .interval
                    .map(|(a, b)| format!("[{}, {}]", sig(a, 4), sig(b, 4)))
                    .unwrap_or_else(|| "—".into()),
                id => match measured.get(id) {
                    Some((_, v)) => num(*v),
                    None => {
                        errors.push(format!(
                            "{}: correction names {{{id}}}, which is no claim of the ledger",
                            r.claim_id
                        ));
                        String::new()
                    }
                },
            };
            rest = &rest[open + close + 1..];
        }
        out += rest;
        // a correction is what to use instead: only where the claim fails
        r.correction = if r.verdict == Verdict::DoesNotHold {
            out
        } else {
            String::new()
        };
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::input(errors.join("; ")))
    }
}

/// claims.csv's header: the verdict's columns, then the reading's.
pub const CSV_HEADER: [&str; 17] = [
    "claim_id",
    "document",
    "quote",
    "documented",
    "theory",
    "measured",
    "unit",
    "verdict",
    "basis",
    "interval_lo",
    "interval_hi",
    "reading",
    "caveat_of",
    "type",
    "margin",
    "correction",
    "rests_on",
];

/// claims.csv: one line per claim, columns [`CSV_HEADER`].
pub fn to_csv(rows: &[LedgerRow]) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CSV_HEADER)?;
    let f = |x: Option<f64>| x.map(|v| sig(v, 6)).unwrap_or_default();
    // text from the documents and specs: a spreadsheet shows it, never runs it
    let t = |s: &str| crate::export::text::spreadsheet(s).into_owned();
    for r in rows {
        let (quote, documented, unit) = (t(&r.quote), t(&r.documented), t(&r.unit));
        let (margin, correction, rests_on) = (t(&r.margin), t(&r.correction), t(&r.rests_on));
        w.write_record([
            r.claim_id.as_str(),
            r.document.id(),
            quote.as_str(),
            documented.as_str(),
            f(r.theory).as_str(),
            f(r.measured).as_str(),
            unit.as_str(),
            r.verdict.as_str(),
            r.basis.as_str(),
            f(r.interval.map(|i| i.0)).as_str(),
            f(r.interval.map(|i| i.1)).as_str(),
            r.reading.as_str(),
            r.caveat_of.as_deref().unwrap_or_default(),
            r.ty.map_or("", ClaimType::as_str),
            margin.as_str(),
            correction.as_str(),
            rests_on.as_str(),
        ])?;
    }
    Ok(w.into_inner()?)
}

#[cfg(test)]
mod tests;
