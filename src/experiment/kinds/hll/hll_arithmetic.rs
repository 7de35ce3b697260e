//! `hll_arithmetic`: the HyperLogLog arithmetic the documents do in their
//! heads, computed exactly from the theory functions (no sampling):
//! * `averaging`: √m for m = 16,384 registers — what averaging m independent
//!   estimates divides the error by;
//! * `tenfold`: the registers 1.04/√m needs for 0.1% over those for 1%, by
//!   the formula and with m a power of two (what a real sketch must use);
//! * `freak_register`: one register of m at 20 among registers at 6: how far
//!   it moves the harmonic-mean estimate, and an arithmetic-mean one;
//! * `disjointness`: a count off by `error` on an `n`-element union against
//!   the difference of 1 between an intersection of 0 and one of 1.

use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common;
use crate::experiment::params::{Def, Seeds};
use crate::export::markdown::sig;
use crate::structures::hyperloglog::theory;

pub struct HllArithmetic;

crate::closed_set! {
    /// The values of `fact`.
    pub enum Fact {
        Averaging = "averaging",
        Tenfold = "tenfold",
        FreakRegister = "freak_register",
        Disjointness = "disjointness",
    }
}

crate::params! {
    pub struct P {
        fact: Fact = common::choice(Fact::NAMES, Def::Required, "which piece of arithmetic (see the kind's doc)"),
        p: u32 [bits] = common::int(4, 18, Def::Int(14), "precision: m = 2^p registers (averaging, freak_register)"),
        error: f64 [relative_error] = common::rate(Def::Float(0.01), "relative error (tenfold: the starting error; disjointness: the count's standard error)"),
        n: u64 [count] = common::count(Def::Int(1_000_000_000), "union size (disjointness)"),
    }
}

crate::row! {
    pub struct R {
        /// The fact's number (see the kind's doc).
        value: f64 [number],
        /// A second reading where one exists: the power-of-two registers
        /// (tenfold), the arithmetic mean's shift (freak_register), the
        /// count's standard error in elements (disjointness).
        alternative: Option<f64> [number],
        what: String,
    }
}

impl Measure for HllArithmetic {
    type P = P;
    type R = R;
    const NAME: &'static str = "hll_arithmetic";
    const ABOUT: &'static str =
        "the documents' HyperLogLog arithmetic, computed exactly from the theory functions";

    fn run(&self, p: &P, _seeds: Seeds) -> anyhow::Result<R> {
        let m = 1usize << p.p;
        Ok(match p.fact {
            Fact::Averaging => R {
                value: (m as f64).sqrt(),
                alternative: Some(theory::standard_error(1) / theory::standard_error(m)),
                what: format!("√{m}; the formula's error ratio for 1 vs {m} registers"),
            },
            Fact::Tenfold => {
                let (a, b) = (p.error, p.error / 10.0);
                R {
                    value: theory::registers_for_error(b) / theory::registers_for_error(a),
                    alternative: Some(2f64.powi(
                        theory::precision_for_error(b) as i32
                            - theory::precision_for_error(a) as i32,
                    )),
                    what: format!(
                        "registers for {} ÷ for {} by (1.04/e)²; with m a power of two, p = {} vs {}",
                        sig(b, 3),
                        sig(a, 3),
                        theory::precision_for_error(b),
                        theory::precision_for_error(a)
                    ),
                }
            }
            Fact::FreakRegister => {
                let (h, a) = theory::freak_register_shift(m, 6, 20);
                R {
                    value: h,
                    alternative: Some(a),
                    what: format!(
                        "relative shift of the harmonic-mean estimate (alternative: arithmetic mean) when one of {m} registers at 6 reads 20"
                    ),
                }
            }
            Fact::Disjointness => {
                let sd = p.error * p.n as f64;
                R {
                    value: 1.0 / sd,
                    alternative: Some(sd),
                    what: format!(
                        "the difference of one element in standard errors of a count off by {} on {} elements (alternative: the standard error in elements)",
                        sig(p.error, 3),
                        sig(p.n as f64, 3)
                    ),
                }
            }
        })
    }

    fn footprint(&self, _p: &P) -> Option<Footprint> {
        Some(Footprint::one(0.0, 1.0))
    }
}
