//! `own_cardinality`: what the report shows of a user's distinct-count sketch.

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::{Tables, summary_rows};
use crate::experiment::own::kinds::OwnCardinality;
use crate::experiment::own::kinds::cardinality::Rs;
use crate::experiment::view::View;
use crate::export::markdown::sig;
use crate::report::Section;
use crate::table::{Table, Value};

const VIEW: &str = include_str!("own_cardinality.toml");

/// The view registered for [`OwnCardinality`] (the view [`crate::experiment::own`] runs it with).
pub struct OwnCardinalityView;

impl View for OwnCardinalityView {
    fn kind(&self) -> &'static str {
        OwnCardinality::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let Some(summary) = t.summary.as_ref() else {
            return Section::default();
        };
        let rows = summary_rows::<OwnCardinality, Rs>(summary);
        let mut table = Table {
            columns: [
                "n",
                "estimator",
                "bias",
                "bias_lo",
                "bias_hi",
                "rse",
                "rse_lo",
                "rse_hi",
                "rse_claimed",
            ]
            .map(Into::into)
            .to_vec(),
            rows: vec![],
        };
        let (mut above, mut below) = (Vec::new(), 0);
        for (p, r) in &rows {
            // RSE = √MSE, its interval the square roots of the MSE's
            let root = |x: Option<f64>| x.map(|v| v.max(0.0).sqrt());
            let (rse, lo, hi) = (
                root(r.sq_rel_error.value),
                root(r.sq_rel_error.lo),
                root(r.sq_rel_error.hi),
            );
            if lo.is_some_and(|l| l > p.rse) {
                above.push(format!(
                    "{} at n = {}: {} [{}, {}]",
                    r.estimator.text,
                    p.n,
                    sig(rse.unwrap_or(f64::NAN), 3),
                    sig(lo.unwrap_or(f64::NAN), 3),
                    sig(hi.unwrap_or(f64::NAN), 3)
                ));
            }
            below += hi.is_some_and(|h| h < p.rse) as usize;
            table.rows.push(vec![
                Value::Int(p.n as i64),
                Value::Str(r.estimator.text.clone()),
                r.rel_error.value.into(),
                r.rel_error.lo.into(),
                r.rel_error.hi.into(),
                rse.into(),
                lo.into(),
                hi.into(),
                Value::Float(p.rse),
            ]);
        }
        Section {
            table,
            reading: format!(
                "{} of {} (n, estimator) settings err more than the sketch claims (the RSE's 95% interval above it){}; {below} err less (the interval below it).",
                above.len(),
                rows.len(),
                if above.is_empty() {
                    String::new()
                } else {
                    format!(": {}", above.join("; "))
                }
            ),
        }
    }
}
