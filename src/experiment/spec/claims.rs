//! The `[[claim]]` tables of a spec: each claim's fields checked against the
//! kind (its metric, selector and table), its type, quantity, reading and
//! margin, before anything runs.

use super::{
    Basis, Check, Claim, ClaimType, Kind, Quantity, Reading, Scale, Source, checked, key_value,
};
use crate::error::{Error, Result};
use crate::experiment::params::Value;
use crate::report::margin::OrderOf;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawClaim {
    id: String,
    document: crate::vocab::Document,
    quote: String,
    documented: f64,
    #[serde(default)]
    documented_high: Option<f64>,
    unit: String,
    #[serde(default)]
    select: toml::Table,
    metric: String,
    #[serde(default)]
    theory_metric: Option<String>,
    /// What kind of statement: exact, approximation, upper_bound,
    /// lower_bound, asymptotic, typical, illustration.
    #[serde(rename = "type")]
    ty: ClaimType,
    /// intended (default) or caveat.
    #[serde(default)]
    reading: Reading,
    /// For a caveat: the intended claim it qualifies.
    #[serde(default)]
    caveat_of: Option<String>,
    /// The kind of quantity (its margin comes from the materiality table).
    quantity: Quantity,
    /// An exact claim's printed precision (relative).
    #[serde(default)]
    resolution: Option<f64>,
    /// For quantity = "order": "count" or "log2" (what the values are).
    #[serde(default)]
    order_of: Option<OrderOf>,
    /// A margin of the claim's own (relative; `margin_scale = "absolute"` for
    /// the claim's unit), with the reason it overrides the table's.
    #[serde(default)]
    margin: Option<f64>,
    #[serde(default)]
    margin_scale: Option<Scale>,
    #[serde(default)]
    margin_reason: Option<String>,
    /// An asymptotic claim's regime (which rows, and why).
    #[serde(default)]
    regime: Option<String>,
    /// The corrected statement, when the claim may not hold.
    #[serde(default)]
    correction: Option<String>,
    /// Why the full run cannot decide the claim, and what size would.
    #[serde(default)]
    undecidable_at: Option<String>,
    /// Measured ÷ theory_metric in the same row, against `documented = 1`:
    /// for a formula whose value depends on the run's sizes (N/w), so a quick
    /// run is judged against its own N and w.
    #[serde(default)]
    per_theory: bool,
    #[serde(default)]
    check: Check,
    /// check = "argmin": the column whose value at the smallest metric is
    /// the measured value (the k that minimises the FPR).
    #[serde(default)]
    by: Option<String>,
    #[serde(default)]
    baseline: Option<toml::Table>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    table: Source,
    /// "measured" (a sampled value with an interval), "counted" or
    /// "computed" (a formula or an exact enumeration); "reference" is the
    /// citations' (data/references.toml), not a study's.
    basis: Basis,
}

/// Validates a spec's claims against its kind; `replicates` and
/// `quick_replicates` say whether a summary table exists.
pub(super) fn validate(
    path: &Path,
    kind: &'static dyn Kind,
    raw: Vec<RawClaim>,
    replicates: u32,
    quick_replicates: u32,
) -> Result<Vec<Claim>> {
    let fe = |field: &str, value: &str, allowed: &str| Error::field(path, field, value, allowed);
    let mut claims = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for (i, c) in raw.into_iter().enumerate() {
        let at = |f: &str| format!("claim[{i}].{f}");
        if !ids.insert(c.id.clone()) {
            return Err(fe(
                &at("id"),
                &format!("{:?}", c.id),
                "must be unique within the study",
            ));
        }
        let source = c.table;
        if source == Source::Summary && !(replicates > 1 && quick_replicates > 1) {
            return Err(fe(
                &at("table"),
                "\"summary\"",
                "needs grid.replicates >= 2 (in [grid] and [quick])",
            ));
        }
        let columns: Vec<String> = match source {
            Source::Results => kind.columns(),
            Source::Summary => kind.summary_columns(),
        }
        .into_iter()
        .map(|c| c.name)
        .collect();
        for (f, m) in [
            ("metric", Some(&c.metric)),
            ("theory_metric", c.theory_metric.as_ref()),
        ] {
            if let Some(m) = m
                && !columns.contains(m)
            {
                return Err(fe(
                    &at(f),
                    &format!("{m:?}"),
                    &format!(
                        "must be a column of kind {}: {}",
                        kind.name(),
                        columns.join(", ")
                    ),
                ));
            }
        }
        if !c.documented.is_finite() {
            return Err(fe(
                &at("documented"),
                &c.documented.to_string(),
                "must be a finite number",
            ));
        }
        if let Some(h) = c.documented_high
            && !(h.is_finite() && h >= c.documented)
        {
            return Err(fe(
                &at("documented_high"),
                &h.to_string(),
                "must be a finite number >= documented",
            ));
        }
        let (ty, quantity, reading) = (c.ty, c.quantity, c.reading);
        match (reading, &c.caveat_of) {
            (Reading::Caveat, None) => {
                return Err(fe(
                    &at("caveat_of"),
                    "(missing)",
                    "a caveat names the intended claim it qualifies",
                ));
            }
            (Reading::Intended, Some(p)) => {
                return Err(fe(
                    &at("caveat_of"),
                    &format!("{p:?}"),
                    "only a claim with reading = \"caveat\" qualifies another",
                ));
            }
            _ => {}
        }
        if ty.is_bound() && c.documented_high.is_some() {
            return Err(fe(
                &at("documented_high"),
                &c.documented_high.unwrap_or_default().to_string(),
                "a bound states one value (documented); a range is a two-sided claim",
            ));
        }
        if ty == ClaimType::Asymptotic && c.regime.as_deref().is_none_or(|r| r.trim().is_empty()) {
            return Err(fe(
                &at("regime"),
                "(missing)",
                "an asymptotic claim declares the regime its rows cover, and why",
            ));
        }
        let resolution = c.resolution.unwrap_or(0.0);
        if !(resolution.is_finite() && (0.0..1.0).contains(&resolution)) {
            return Err(fe(
                &at("resolution"),
                &resolution.to_string(),
                "must be a number in [0, 1) (relative to documented)",
            ));
        }
        if c.resolution.is_some() && quantity != Quantity::Exact {
            return Err(fe(
                &at("resolution"),
                &resolution.to_string(),
                "only an exact quantity has a resolution; the others take their margin from the materiality table",
            ));
        }
        let scale = c.margin_scale.unwrap_or(Scale::Relative);
        let margin_override = match (c.margin, &c.margin_reason) {
            (None, None) if c.margin_scale.is_none() => None,
            (Some(m), Some(why)) if !why.trim().is_empty() => {
                let ok = m.is_finite() && m >= 0.0 && (scale == Scale::Absolute || m < 1.0);
                if !ok {
                    return Err(fe(
                        &at("margin"),
                        &m.to_string(),
                        "must be >= 0 (and < 1 when relative: a wider claim is a range)",
                    ));
                }
                Some((m, scale, why.clone()))
            }
            _ => {
                return Err(fe(
                    &at("margin"),
                    &format!("{:?}", c.margin),
                    "a claim's own margin comes with margin_reason (why the materiality table's does not fit)",
                ));
            }
        };
        let check = c.check;
        match (&c.by, check == Check::ArgMin) {
            (Some(by), true) if kind.columns().iter().any(|col| col.name == *by) => {}
            (Some(by), true) => {
                return Err(fe(
                    &at("by"),
                    &format!("{by:?}"),
                    "must be a column of the kind",
                ));
            }
            (None, true) => {
                return Err(fe(
                    &at("by"),
                    "missing",
                    "check = \"argmin\" names the column it reports (by = \"k\")",
                ));
            }
            (Some(by), false) => {
                return Err(fe(
                    &at("by"),
                    &format!("{by:?}"),
                    "goes only with check = \"argmin\"",
                ));
            }
            (None, false) => {}
        }
        let basis = c.basis;
        if basis == Basis::Reference {
            return Err(fe(
                &at("basis"),
                "\"reference\"",
                "a study's claim is measured, counted or computed (a citation's basis is data/references.toml's)",
            ));
        }
        if c.per_theory && (c.theory_metric.is_none() || c.documented != 1.0) {
            return Err(fe(
                &at("per_theory"),
                "true",
                "needs theory_metric and documented = 1 (the measured value is a ratio to the formula)",
            ));
        }
        let order_of = match (c.order_of, quantity == Quantity::Order) {
            (None, false) => None,
            (Some(o), true) if check == Check::Value => Some(o),
            (Some(o), true) => {
                return Err(fe(
                    &at("check"),
                    &format!("{:?} with order_of = {o:?}", c.check),
                    "an order-of-magnitude claim is judged on one value (check = \"value\")",
                ));
            }
            (None, true) => {
                return Err(fe(
                    &at("order_of"),
                    "missing",
                    "quantity = \"order\" says what its values are: order_of = \"count\" or \"log2\"",
                ));
            }
            (Some(o), false) => {
                return Err(fe(
                    &at("order_of"),
                    &format!("{o:?}"),
                    "goes only with quantity = \"order\"",
                ));
            }
        };
        let select = selector(path, kind, &at("select"), &c.select)?;
        let baseline = match &c.baseline {
            Some(b) => Some(selector(path, kind, &at("baseline"), b)?),
            None => None,
        };
        claims.push(Claim {
            id: c.id,
            document: c.document,
            quote: c.quote,
            documented: c.documented,
            documented_high: c.documented_high,
            unit: c.unit,
            select,
            metric: c.metric,
            theory_metric: c.theory_metric,
            check,
            by: c.by,
            baseline,
            note: c.note,
            source,
            basis,
            ty,
            reading,
            caveat_of: c.caveat_of,
            quantity,
            resolution,
            order_of,
            margin_override,
            regime: c.regime,
            correction: c.correction,
            undecidable_at: c.undecidable_at,
            per_theory: c.per_theory,
            sequential: None,
        });
    }
    Ok(claims)
}

/// A claim's row selector: `param = value` or `param = [values]` (any of
/// them). Each value is checked against the parameter's declaration, so a
/// misspelt name or value is an error, never an empty selection. `replicate`
/// (a results.csv column, 0-based) selects one replicate's trial.
fn selector(
    path: &Path,
    kind: &'static dyn Kind,
    field: &str,
    t: &toml::Table,
) -> Result<Vec<(String, Vec<Value>)>> {
    let mut out = Vec::new();
    for (k, v) in t {
        let def = kind.params().iter().find(|d| d.name == k);
        // a field that tells the rows of one trial apart (a checkpoint n) selects like a parameter
        let key_field = kind
            .fields()
            .into_iter()
            .find(|f| f.name == k && f.agg == crate::experiment::row::Agg::Key);
        if k == "replicate" {
            let items: Vec<&toml::Value> = match v {
                toml::Value::Array(a) => a.iter().collect(),
                other => vec![other],
            };
            let mut values = Vec::new();
            for item in items {
                match item.as_integer() {
                    Some(r) if r >= 0 => values.push(Value::Int(r)),
                    _ => {
                        return Err(Error::field(
                            path,
                            &format!("{field}.replicate"),
                            &item.to_string(),
                            "must be a replicate number (0, 1, …)",
                        ));
                    }
                }
            }
            if values.is_empty() {
                return Err(Error::field(
                    path,
                    &format!("{field}.replicate"),
                    "[]",
                    "must not be empty",
                ));
            }
            out.push((k.clone(), values));
            continue;
        }
        if def.is_none() && key_field.is_none() {
            return Err(Error::file(
                path,
                format!(
                    "{field}.{k}: neither a parameter nor a checkpoint field of kind {}",
                    kind.name()
                ),
            ));
        }
        let items: Vec<&toml::Value> = match v {
            toml::Value::Array(a) if !a.is_empty() => a.iter().collect(),
            toml::Value::Array(_) => {
                return Err(Error::field(
                    path,
                    &format!("{field}.{k}"),
                    "[]",
                    "must not be empty",
                ));
            }
            other => vec![other],
        };
        let mut values = Vec::new();
        for item in items {
            values.push(match (def, &key_field) {
                (Some(def), _) => checked(path, &format!("{field}.{k}"), def, item)?,
                (None, Some(f)) => key_value(path, &format!("{field}.{k}"), f, item)?,
                (None, None) => unreachable!("rejected above"),
            });
        }
        out.push((k.clone(), values));
    }
    Ok(out)
}

/// The part of `grid` a selector keeps: each axis cut to the selected values
/// (selector fields that are not parameters, such as a checkpoint or
/// `replicate`, keep every setting). A grid is a cartesian product, so the
/// selector matches some setting exactly when no axis comes out empty.
pub(super) fn selected_grid(
    grid: &[(&'static str, Vec<Value>)],
    select: &[(String, Vec<Value>)],
) -> Vec<(&'static str, Vec<Value>)> {
    grid.iter()
        .map(|(name, values)| {
            let kept = match select.iter().find(|(n, _)| n == name) {
                Some((_, want)) => values
                    .iter()
                    .filter(|v| want.iter().any(|w| v.matches(w)))
                    .cloned()
                    .collect(),
                None => values.clone(),
            };
            (*name, kept)
        })
        .collect()
}

/// Refuses a claim whose selector (or baseline) matches no setting of the
/// full grid, or a replicate the grid does not run: its verdict would be a
/// silent `not-measured`. (A `[quick]` grid may leave a claim out: quick runs
/// are not meant to decide every claim.)
pub(super) fn check_selections(
    path: &Path,
    grid: &[(&'static str, Vec<Value>)],
    except: &crate::experiment::grid::Except,
    replicates: u32,
    claims: &[Claim],
) -> Result<()> {
    for c in claims {
        for (what, select) in [
            ("select", Some(&c.select)),
            ("baseline", c.baseline.as_ref()),
        ] {
            let Some(select) = select else { continue };
            let field = format!("claim {}.{what}", c.id);
            if let Some((_, reps)) = select.iter().find(|(n, _)| n == "replicate")
                && !reps
                    .iter()
                    .any(|r| r.as_f64().is_some_and(|r| r < replicates as f64))
            {
                return Err(Error::field(
                    path,
                    &format!("{field}.replicate"),
                    &reps
                        .iter()
                        .map(|r| r.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    &format!("must name a replicate the grid runs (0..{replicates})"),
                ));
            }
            let sub = selected_grid(grid, select);
            let none = sub.iter().any(|(_, v)| v.is_empty());
            let skipped = !none && crate::experiment::grid::count(&sub, except, 1) == 0;
            if none || skipped {
                let shown: Vec<String> = select
                    .iter()
                    .filter(|(n, _)| grid.iter().any(|(g, _)| g == n))
                    .map(|(n, v)| {
                        format!(
                            "{n} = {}",
                            v.iter()
                                .map(|x| x.toml_repr())
                                .collect::<Vec<_>>()
                                .join(" | ")
                        )
                    })
                    .collect();
                return Err(Error::field(
                    path,
                    &field,
                    &shown.join(", "),
                    if none {
                        "matches no setting of [grid]: each selected value must be one the grid runs"
                    } else {
                        "selects only settings that [grid]'s except skips"
                    },
                ));
            }
        }
    }
    Ok(())
}
