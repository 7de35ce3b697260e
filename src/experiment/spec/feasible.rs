//! Feasibility at load time: a two-sided claim holds only when its 99.9%
//! interval lies inside its band, so an interval planned wider than the band
//! can never hold, whatever the data. Such a spec is refused, with the size
//! that would decide it, unless the claim says `undecidable_at` (why the run
//! cannot afford it). Planned from the spec alone, for the measurements
//! whose interval width the sizes fix:
//!
//! - a standard deviation over replicates (an RSE, `*_sd` in the summary):
//!   its chi-square interval depends only on the replicates;
//! - a proportion whose draws per trial the kind declares
//!   ([`super::super::kinds::Kind::draws`], e.g. a filter's FPR over its
//!   `queries`): its exact (Clopper–Pearson) interval at the documented rate,
//!   over one trial (results), or pooled over the replicates (a summary mean
//!   or `pooled`: the narrowest the ledger can give, so a refusal is sure).
//!
//! Other measurements (means whose spread only the data tell) are not planned
//! here; a sequential study is planned at its budget. Only the full grid is
//! checked (`--quick` sizes are not meant to decide).

use super::{Basis, Check, Claim, ClaimType, Source};
use crate::error::{Error, Result};
use crate::experiment::kinds::Kind;
use crate::experiment::params::Value;
use crate::report::ledger::VERDICT_CONFIDENCE;
use crate::stats;
use std::path::Path;

/// What fixes a claim's planned interval.
enum Plan {
    /// A standard deviation over this many replicates.
    Sd { replicates: u64 },
    /// A proportion over this many draws.
    Draws {
        draws: u64,
        per_unit: u64,
        unit: &'static str,
    },
}

impl Plan {
    /// The size the interval is planned from: replicates, or draws in all.
    fn size(&self) -> u64 {
        match *self {
            Plan::Sd { replicates } => replicates,
            Plan::Draws { draws, .. } => draws,
        }
    }

    /// The planned interval's width around `center` at `size`.
    fn width(&self, center: f64, size: u64) -> f64 {
        let c = VERDICT_CONFIDENCE;
        match self {
            Plan::Sd { .. } => {
                let i = stats::sd_interval(center.abs(), size as usize, c);
                i.hi - i.lo
            }
            Plan::Draws { .. } => {
                let k = (center.clamp(0.0, 1.0) * size as f64).round() as u64;
                let (lo, hi) = stats::clopper_pearson(k, size, c);
                hi - lo
            }
        }
    }

    /// The size that would decide: the smallest (by bisection) whose planned
    /// interval fits `band`, in the spec's own terms.
    fn needed(&self, center: f64, band: f64) -> Option<String> {
        // replicates are capped by the spec's own limit
        let most = match self {
            Plan::Sd { .. } => 100_000,
            Plan::Draws { .. } => 1 << 50,
        };
        let (mut lo, mut hi) = (self.size(), (self.size().max(1) * 2).min(most));
        while self.width(center, hi) > band {
            if hi == most {
                return None;
            }
            lo = hi;
            hi = (hi * 2).min(most);
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.width(center, mid) > band {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(match *self {
            Plan::Sd { .. } => format!("replicates >= {hi}"),
            Plan::Draws { per_unit, unit, .. } => {
                format!("{unit} >= {}", hi.div_ceil(per_unit.max(1)))
            }
        })
    }
}

/// The claim's plan at these sizes, if its measurement has one.
fn plan(
    kind: &'static dyn Kind,
    grid: &[(&'static str, Vec<Value>)],
    replicates: u32,
    claim: &Claim,
) -> Option<Plan> {
    if claim.metric.ends_with("_sd") && claim.source == Source::Summary {
        return Some(Plan::Sd {
            replicates: replicates as u64,
        });
    }
    // the selected settings (a plan over more than 10,000 of them is not
    // worth its time at load: such a claim is judged after the run)
    let sub = super::claims::selected_grid(grid, &claim.select);
    if crate::experiment::grid::count_checked(&sub, 1) > 10_000 {
        return None;
    }
    let rows = crate::experiment::grid::combinations(&sub);
    // the fewest draws among the rows (the widest interval decides)
    let draws = rows
        .iter()
        .map(|p| kind.draws(&claim.metric, p))
        .collect::<Option<Vec<f64>>>()?
        .into_iter()
        .map(|d| d as u64)
        .min()?;
    let r = replicates as u64;
    let (total, per_unit) = match (claim.check, claim.source) {
        (Check::Pooled, _) => (draws * rows.len() as u64 * r, rows.len() as u64 * r),
        (_, Source::Summary) => (draws * r, r),
        (_, Source::Results) => (draws, 1),
    };
    Some(Plan::Draws {
        draws: total,
        per_unit,
        unit: "draws per trial (queries)",
    })
}

/// Refuses a claim that can never hold at the planned sizes.
pub(super) fn check(
    path: &Path,
    kind: &'static dyn Kind,
    grid: &[(&'static str, Vec<Value>)],
    replicates: u32,
    claims: &[Claim],
) -> Result<()> {
    for claim in claims {
        let two_sided = !claim.ty.is_bound() && claim.ty != ClaimType::Illustration;
        let judged = matches!(claim.check, Check::Value | Check::Every | Check::Pooled);
        if claim.basis != Basis::Measured
            || !two_sided
            || !judged
            || claim.per_theory
            || claim.baseline.is_some()
            || claim.undecidable_at.is_some()
            || claim.order_of.is_some()
        {
            continue;
        }
        let Some(plan) = plan(kind, grid, replicates, claim) else {
            continue;
        };
        let test = claim.test();
        let (lo, hi) = test.band();
        let band = hi - lo;
        let center = (claim.documented + claim.documented_high.unwrap_or(claim.documented)) / 2.0;
        let width = plan.width(center, plan.size());
        if width > band {
            let need = plan.needed(center, band).unwrap_or_else(|| {
                "more than the 100000 replicates (or 2^50 draws) a spec may plan".into()
            });
            return Err(Error::field(
                path,
                &format!("claim {}", claim.id),
                &format!(
                    "a planned 99.9% interval {} wide at {}",
                    crate::export::markdown::sig(width, 3),
                    crate::export::markdown::sig(center, 4)
                ),
                &format!(
                    "its band [{}, {}] is narrower, so it could never hold: it needs {need}, or undecidable_at = \"why the run cannot afford it\"",
                    crate::export::markdown::sig(lo, 4),
                    crate::export::markdown::sig(hi, 4)
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::experiment::spec::Spec;
    use std::path::Path;

    fn fpr_spec(queries: u64, extra: &str) -> String {
        format!(
            r#"name = "f"
kind = "bloom_fpr"
description = "feasibility"
seed = 1

[grid]
n = 10000
bits_per_key = 10
queries = {queries}

[[claim]]
id = "fpr"
document = "000"
quote = "q"
documented = 0.0082
unit = "FPR"
select = {{ bits_per_key = 10 }}
metric = "fpr_measured"
basis = "measured"
type = "approximation"
quantity = "approx"
{extra}
"#
        )
    }

    #[test]
    fn a_claim_that_could_never_hold_is_refused_with_the_size_that_would_decide() {
        // ±10% of 0.82% at 99.9% needs some 1.3·10^5 queries (3.29² (1 − p) / (0.1² p))
        let err = Spec::parse(Path::new("f.toml"), &fpr_spec(20_000, ""))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("claim fpr") && err.contains("could never hold"),
            "{err}"
        );
        let need: u64 = err
            .split("draws per trial (queries) >= ")
            .nth(1)
            .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{err}"));
        assert!((110_000..=160_000).contains(&need), "{need}");
        // the size it names is accepted; one less is not
        assert!(Spec::parse(Path::new("f.toml"), &fpr_spec(need, "")).is_ok());
        assert!(Spec::parse(Path::new("f.toml"), &fpr_spec(need / 2, "")).is_err());
        // a claim that says why the run cannot afford it is accepted as undecidable
        let why = "undecidable_at = \"a test of the check\"";
        assert!(Spec::parse(Path::new("f.toml"), &fpr_spec(20_000, why)).is_ok());
        // a bound can hold however wide the interval: never refused
        let bound = fpr_spec(20_000, "").replace("\"approximation\"", "\"upper_bound\"");
        assert!(Spec::parse(Path::new("f.toml"), &bound).is_ok());
    }

    #[test]
    fn an_rse_is_planned_from_its_replicates() {
        let spec = |replicates: u32| {
            format!(
                r#"name = "h"
kind = "hll_registers"
description = "feasibility"
seed = 1

[grid]
p = 14
n = 100000
replicates = {replicates}

[[claim]]
id = "rse"
document = "000"
quote = "q"
documented = 0.0081
unit = "RSE"
select = {{ p = 14 }}
metric = "err_ertl_sd"
table = "summary"
basis = "measured"
type = "approximation"
quantity = "rate"
"#
            )
        };
        // ±10% on a standard deviation at 99.9%: about 3.29/√(2R) ≤ 0.1, R ≈ 600
        let err = Spec::parse(Path::new("h.toml"), &spec(100))
            .unwrap_err()
            .to_string();
        assert!(err.contains("replicates >= "), "{err}");
        let need: u32 = err
            .split("replicates >= ")
            .nth(1)
            .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|s| s.parse().ok())
            .unwrap();
        assert!((450..=800).contains(&need), "{need}");
        assert!(Spec::parse(Path::new("h.toml"), &spec(need)).is_ok());
    }
}
