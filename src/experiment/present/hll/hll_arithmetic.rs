//! `hll_arithmetic`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::hll::hll_arithmetic::*;
use crate::experiment::present::Present;
use crate::export::markdown::sig;
use crate::report::Section;

impl Present for HllArithmetic {
    const VIEW: &'static str = include_str!("hll_arithmetic.toml");

    /// The registers an error target costs, by the formula and rounded up to
    /// a power of two, over 10% to 0.05%, with the tenfold row's two targets
    /// marked.
    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(&["fact", "value", "alternative", "what"], |_| true);
        let get = |f: &str, c: &str| {
            t.rows
                .iter()
                .find(|r| t.str(r, "fact") == f)
                .and_then(|r| t.f64(r, c))
                .map(|x| sig(x, 4))
                .unwrap_or_else(|| "—".into())
        };
        Section {
            table,
            reading: format!(
                "Averaging 16,384 registers divides the error by {}. A tenfold accuracy gain costs {}× the registers by the formula and {}× in a real sketch, whose m is a power of two. One freak register moves the harmonic-mean estimate by {} (relative) and an arithmetic mean by {}. A 1% count of a billion-element union has a standard error of {} elements, so one element is {} standard errors: no test tells an intersection of 0 from 1.",
                get("averaging", "value"),
                get("tenfold", "value"),
                get("tenfold", "alternative"),
                get("freak_register", "value"),
                get("freak_register", "alternative"),
                get("disjointness", "alternative"),
                get("disjointness", "value"),
            ),
        }
    }
}
