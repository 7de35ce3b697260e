//! The verdict rule, one for every claim: an equivalence test of the
//! measured interval against the documented value and its tolerance.

use crate::table::Interval;

/// Confidence of the intervals verdicts are decided on. A ledger of N measured
/// verdicts at level c expects about N·(1 − c) intervals to miss by chance
/// (reported in REPORT.md); plots and tables keep 95%.
pub const VERDICT_CONFIDENCE: f64 = 0.999;

/// How much wider than the document's own precision "approximately" reaches:
/// the band is documented ± max(2·tolerance, tolerance + APPROX_SLACK).
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

/// The verdict rule, one for every claim: an equivalence test.
/// `documented` is a point `(d, d)` or a range; `measured` is the interval at
/// the verdict confidence (a point for computed values). With
/// H = documented ± tolerance and A = documented ± max(2·tolerance, tolerance + 2%):
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
    let h = band(documented, tolerance);
    let a = band(documented, (2.0 * tolerance).max(tolerance + APPROX_SLACK));
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
        // approximately: within ±3% (tolerance + 2%), not within ±1%
        assert_eq!(
            verdict(d, iv(102.0, 101.5, 102.5), 0.01),
            Verdict::Approximately
        );
        // does-not-hold: wholly outside ±3%
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
