//! The verdict rule, one for every claim: an equivalence test of the
//! measured interval against the documented value and its tolerance.

use crate::table::Interval;

/// Confidence of the intervals verdicts are decided on. A ledger of N measured
/// verdicts at level c expects about N·(1 − c) intervals to miss by chance
/// (reported in REPORT.md); plots and tables keep 95%.
pub const VERDICT_CONFIDENCE: f64 = 0.999;

/// How much wider than the document's own precision "approximately" reaches:
/// the band H = documented ± tolerance widened by the factor
/// 1 + max(tolerance, APPROX_SLACK).
pub const APPROX_SLACK: f64 = 0.02;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    Approximately,
    DoesNotHold,
    /// The interval is too wide to decide: the study must measure more.
    Inconclusive,
    NotMeasured,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Approximately => "approximately",
            Verdict::DoesNotHold => "does-not-hold",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotMeasured => "not-measured",
        }
    }
}

/// The band `documented ± tol` (relative; absolute when the bound is 0).
/// A relative tolerance below 1 keeps the band's sign (specs refuse 1 or more:
/// such a claim states a range with `documented_high`).
fn band(documented: (f64, f64), tol: f64) -> (f64, f64) {
    // 1e-12 relative: a computed value equal to the document's up to rounding
    // in the last bits of a float (1 - e^(-ln 2) = 0.49999999999999994) is equal
    let widen = |x: f64| {
        if x == 0.0 {
            tol
        } else {
            (tol + 1e-12) * x.abs()
        }
    };
    (
        documented.0 - widen(documented.0),
        documented.1 + widen(documented.1),
    )
}

/// The "approximately" band: each edge of H widened outward by the factor
/// `1 + s`, s = max(tolerance, APPROX_SLACK) (a low edge divided by it,
/// towards zero but never across; a high edge multiplied); at a documented 0,
/// where the tolerance is absolute, the margin doubles (±2·tolerance).
fn approx_band(documented: (f64, f64), tol: f64) -> (f64, f64) {
    let h = band(documented, tol);
    let s = tol.max(APPROX_SLACK);
    let out = |d: f64, x: f64, up: bool| {
        if d == 0.0 {
            2.0 * x
        } else if (x > 0.0) == up {
            x * (1.0 + s)
        } else {
            x / (1.0 + s)
        }
    };
    (out(documented.0, h.0, false), out(documented.1, h.1, true))
}

/// The verdict rule, one for every claim: an equivalence test.
/// `documented` is a point `(d, d)` or a range; `measured` is the interval at
/// the verdict confidence (a point for computed values). With
/// H = documented ± tolerance and A = H widened outward by the factor 1 + s,
/// s = max(tolerance, 2%) (the low edge divided by it, the high edge
/// multiplied, so A never reaches across zero however loose the tolerance;
/// ±2·tolerance around a documented 0; a range from 0 is "at most" its high
/// end, open below):
/// * holds: the whole interval lies in H;
/// * approximately: the whole interval lies in A, not all of it in H;
/// * does-not-hold: the whole interval lies outside A;
/// * inconclusive: the interval straddles the edge of A (too wide to decide).
pub fn verdict(documented: (f64, f64), measured: Interval, tolerance: f64) -> Verdict {
    let (lo, hi) = (
        measured.lo.min(measured.value),
        measured.hi.max(measured.value),
    );
    if !(measured.value.is_finite() && lo.is_finite() && hi.is_finite()) {
        return if measured.value.is_finite() {
            Verdict::Inconclusive
        } else {
            Verdict::NotMeasured
        };
    }
    let (mut h, mut a) = (
        band(documented, tolerance),
        approx_band(documented, tolerance),
    );
    // a range from 0 is an "at most" claim: it can only fail upward (a
    // normal interval of a small rate may reach below 0; that is no miss)
    if documented.0 == 0.0 && documented.1 > 0.0 {
        (h.0, a.0) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    }
    if h.0 <= lo && hi <= h.1 {
        Verdict::Holds
    } else if a.0 <= lo && hi <= a.1 {
        Verdict::Approximately
    } else if hi < a.0 || lo > a.1 {
        Verdict::DoesNotHold
    } else {
        Verdict::Inconclusive
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(v: f64, lo: f64, hi: f64) -> Interval {
        Interval::new(v, lo, hi)
    }

    #[test]
    fn each_verdict_can_be_reached() {
        let d = (100.0, 100.0);
        // holds: the whole interval within ±1%
        assert_eq!(verdict(d, iv(100.2, 99.5, 100.9), 0.01), Verdict::Holds);
        // approximately: within ±1% widened by the factor 1.02 (97.06 to 103.02), not within ±1%
        assert_eq!(
            verdict(d, iv(102.0, 101.5, 102.5), 0.01),
            Verdict::Approximately
        );
        // does-not-hold: wholly outside that band
        assert_eq!(
            verdict(d, iv(110.0, 108.0, 112.0), 0.01),
            Verdict::DoesNotHold
        );
        // inconclusive: the documented value is inside, but so is a 5% miss
        assert_eq!(
            verdict(d, iv(100.0, 95.0, 105.0), 0.01),
            Verdict::Inconclusive
        );
        // computed values are points
        assert_eq!(
            verdict((1.2, 1.2), Interval::exact(1.198), 0.042),
            Verdict::Holds
        );
        assert_eq!(
            verdict((1.2, 1.2), Interval::exact(119.8), 0.042),
            Verdict::DoesNotHold
        );
        // ranges and zero
        assert_eq!(
            verdict((40.0, 100.0), Interval::exact(70.0), 0.0),
            Verdict::Holds
        );
        assert_eq!(
            verdict((40.0, 100.0), Interval::exact(152.0), 0.0),
            Verdict::DoesNotHold
        );
        assert_eq!(
            verdict((0.0, 0.0), Interval::exact(0.0), 0.0),
            Verdict::Holds
        );
        assert_eq!(
            verdict((0.0, 0.0), Interval::exact(3.0), 0.0),
            Verdict::DoesNotHold
        );
        assert_eq!(
            verdict((1.0, 1.0), Interval::exact(f64::NAN), 0.1),
            Verdict::NotMeasured
        );
        // an unbounded interval cannot decide
        assert_eq!(
            verdict(d, iv(100.0, 90.0, f64::INFINITY), 0.01),
            Verdict::Inconclusive
        );
    }

    #[test]
    fn the_approximately_band_follows_the_tolerance_not_a_floor() {
        // 5% off with a 0.1% tolerance is not "approximately" (the old 10% floor said so)
        assert_eq!(
            verdict((0.5, 0.5), Interval::exact(0.525), 0.001),
            Verdict::DoesNotHold
        );
        // below a documented range, the gap is scaled by the low end
        assert_eq!(
            verdict((40.0, 100.0), Interval::exact(19.0), 0.0),
            Verdict::DoesNotHold
        );
    }

    #[test]
    fn a_loose_tolerance_does_not_let_the_approximately_band_reach_zero() {
        // ±50% of 1%: H = [0.5%, 1.5%]; A = [0.33%, 2.25%]. A tenth of the
        // documented rate is not "approximately" (the additive band reached 0)
        assert_eq!(
            verdict((0.01, 0.01), Interval::exact(0.001), 0.5),
            Verdict::DoesNotHold
        );
        assert_eq!(
            verdict((0.01, 0.01), Interval::exact(0.004), 0.5),
            Verdict::Approximately
        );
        assert_eq!(
            verdict((0.01, 0.01), Interval::exact(0.0069), 0.5),
            Verdict::Holds
        );
        for tol in [0.5, 0.75, 0.9, 0.99] {
            let a = approx_band((1.0, 1.0), tol);
            assert!(a.0 > 0.0, "{tol}: {a:?}");
            assert_eq!(
                verdict((1.0, 1.0), Interval::exact(a.0 / 1.01), tol),
                Verdict::DoesNotHold
            );
        }
        // negative documented values widen away from zero on both sides
        let a = approx_band((-2.0, -1.0), 0.1);
        assert!(a.0 < -2.2 && a.1 > -0.9 && a.1 < 0.0, "{a:?}");
        // an absolute tolerance at 0: the margin doubles, whatever its unit
        assert_eq!(approx_band((0.0, 0.0), 0.0081), (-0.0162, 0.0162));
        assert_eq!(approx_band((0.0, 0.0), 0.0), (0.0, 0.0));
        // a range from 0 is "at most": an interval reaching below 0 still holds
        assert_eq!(
            verdict((0.0, 0.0183), iv(1.4e-5, -2.7e-6, 3.1e-5), 0.0),
            Verdict::Holds
        );
        assert_eq!(
            verdict((0.0, 0.0183), iv(0.03, 0.025, 0.035), 0.0),
            Verdict::DoesNotHold
        );
    }

    #[test]
    fn a_wider_interval_never_turns_does_not_hold_into_holds() {
        let d = (1.0, 1.0);
        for tol in [0.0, 0.01, 0.05, 0.2] {
            for centre in [0.5, 0.9, 0.97, 1.0, 1.03, 1.1, 2.0] {
                let mut last = None;
                for half in [0.0, 0.001, 0.01, 0.03, 0.1, 0.5, 1.0] {
                    let v = verdict(d, iv(centre, centre - half, centre + half), tol);
                    if let Some(prev) = last {
                        let rank = |v: Verdict| match v {
                            Verdict::Holds => 0,
                            Verdict::Approximately => 1,
                            _ => 2,
                        };
                        assert!(
                            !(prev == Verdict::DoesNotHold
                                && v != Verdict::DoesNotHold
                                && v != Verdict::Inconclusive),
                            "{tol} {centre} {half}: {prev:?} -> {v:?}"
                        );
                        assert!(
                            rank(v) >= rank(prev) || v == Verdict::Inconclusive,
                            "{prev:?} -> {v:?}"
                        );
                    }
                    last = Some(v);
                }
            }
        }
    }
}
