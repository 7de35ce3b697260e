//! The verdict rule, one for every claim: the claim's type turns what the
//! document states into a band (a value or range widened by its materiality
//! margin, or a one-sided bound), and the measured interval is tested against
//! it: inside decides `holds`, wholly outside `does-not-hold`, straddling an
//! edge `inconclusive` (the study must measure more).

use super::margin::Scale;
use crate::table::Interval;

/// Confidence of the intervals verdicts are decided on. A ledger of N measured
/// verdicts at level c expects about N·(1 − c) intervals to miss by chance
/// (reported in REPORT.md); plots and tables keep 95%.
pub const VERDICT_CONFIDENCE: f64 = crate::stats::VERDICT_CONFIDENCE;

pub use crate::vocab::Verdict;

/// Every verdict, in the order the ledger counts them ([`Verdict::ALL`]).
pub const VERDICTS: [Verdict; 4] = Verdict::ALL;

crate::closed_set! {
    /// Which reading of its sentence a claim is.
    #[derive(Default)]
    pub enum Reading {
        /// What the sentence asserts in the regime the document speaks of: this
        /// reading's verdict is the claim's.
        #[default]
        Intended = "intended",
        /// A literal or edge reading (the exact word, a constructed edge case,
        /// another implementation, key type or runtime than the sentence's),
        /// attached to an intended claim, reported under it and counted apart.
        Caveat = "caveat",
    }
}

crate::closed_set! {
    /// What kind of statement a claim is; the type picks the test.
    pub enum ClaimType {
        /// A theorem's value or the document's arithmetic: computed (or counted)
        /// exactly and compared at the precision the document prints.
        Exact = "exact",
        /// "≈", "about": the value within its quantity's materiality margin.
        Approximation = "approximation",
        /// "at most", "within", a guarantee ("probability δ", "in seven lookups"):
        /// holds at or below the bound, however far below (reported, never a failure).
        UpperBound = "upper_bound",
        /// "at least", "possible", "more": holds at or above the bound.
        LowerBound = "lower_bound",
        /// A formula that holds in a limit (large m, large n): tested only over its
        /// declared regime (`regime`), the settings outside it being caveats.
        Asymptotic = "asymptotic",
        /// A typical-case sentence: tested on typical (random) inputs; a
        /// constructed edge case is a caveat.
        Typical = "typical",
        /// A worked example's numbers: the example must be able to happen and
        /// show what it says; how typical it is goes in a caveat.
        Illustration = "illustration",
    }
}

impl ClaimType {
    pub fn is_bound(self) -> bool {
        matches!(self, ClaimType::UpperBound | ClaimType::LowerBound)
    }
}

/// The test a claim's measurement faces: the documented value or range
/// (`lo`..`hi`; an open side is infinite), widened by `margin`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Test {
    pub lo: f64,
    pub hi: f64,
    pub margin: f64,
    pub scale: Scale,
    /// An illustration: holds when the illustrated outcome happens (the
    /// interval's low end above 0), fails when it cannot (exactly 0).
    pub happens: bool,
}

impl Test {
    /// The test for a claim of type `ty` stating `documented` (a point
    /// `(d, d)` or a range) with `margin` on the `scale` given.
    pub fn new(ty: ClaimType, documented: (f64, f64), margin: f64, scale: Scale) -> Test {
        let (lo, hi) = match ty {
            ClaimType::UpperBound => (f64::NEG_INFINITY, documented.1),
            ClaimType::LowerBound => (documented.0, f64::INFINITY),
            _ => documented,
        };
        Test {
            lo,
            hi,
            margin,
            scale,
            happens: ty == ClaimType::Illustration,
        }
    }

    /// The band the whole interval must lie in to hold: each finite edge
    /// moved outward by the margin (relative to the edge, absolute at an edge
    /// of 0 or on the absolute scale). 1e-12 relative more: a computed value
    /// equal to the document's up to the last bits of a float
    /// (1 − e^(−ln 2) = 0.49999999999999994) is equal.
    pub fn band(&self) -> (f64, f64) {
        let widen = |x: f64| {
            if !x.is_finite() {
                0.0
            } else if self.scale == Scale::Absolute || x == 0.0 {
                self.margin + 1e-12 * x.abs()
            } else {
                (self.margin + 1e-12) * x.abs()
            }
        };
        (self.lo - widen(self.lo), self.hi + widen(self.hi))
    }

    /// Whether `x` lies in the documented value or range itself (no margin).
    pub fn contains_documented(&self, lo: f64, hi: f64) -> bool {
        lo <= self.hi && hi >= self.lo
    }

    /// How far `x` is inside the band (positive) or outside it (negative),
    /// relative to the nearer edge: what "with room to spare" reads.
    pub fn room(&self, x: f64) -> f64 {
        let (a, b) = self.band();
        let rel = |edge: f64, d: f64| if edge == 0.0 { d } else { d / edge.abs() };
        let below = if a.is_finite() {
            rel(a, x - a)
        } else {
            f64::INFINITY
        };
        let above = if b.is_finite() {
            rel(b, b - x)
        } else {
            f64::INFINITY
        };
        below.min(above)
    }
}

/// The verdict of `measured` (the interval at the verdict confidence; a point
/// for computed values) against `test`:
/// * holds: the whole interval lies in the band;
/// * does-not-hold: the whole interval lies outside it;
/// * inconclusive: the interval straddles an edge (or is unbounded);
/// * an illustration holds when its outcome happens (the interval above 0)
///   and fails when it cannot (a value of exactly 0);
/// * not-measured: no value.
///
/// A wider interval can only move a verdict towards `inconclusive`.
pub fn verdict(test: &Test, measured: Interval) -> Verdict {
    let (lo, hi) = (
        measured.lo.min(measured.value),
        measured.hi.max(measured.value),
    );
    if !measured.value.is_finite() {
        return Verdict::NotMeasured;
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return Verdict::Inconclusive;
    }
    if test.happens {
        return if lo > 0.0 {
            Verdict::Holds
        } else if hi <= 0.0 {
            Verdict::DoesNotHold
        } else {
            Verdict::Inconclusive
        };
    }
    let (a, b) = test.band();
    if a <= lo && hi <= b {
        Verdict::Holds
    } else if hi < a || lo > b {
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

    fn rel(ty: ClaimType, d: f64, m: f64) -> Test {
        Test::new(ty, (d, d), m, Scale::Relative)
    }

    #[test]
    fn each_verdict_can_be_reached() {
        let t = rel(ClaimType::Approximation, 100.0, 0.10);
        assert_eq!(verdict(&t, iv(104.0, 101.0, 107.0)), Verdict::Holds);
        assert_eq!(verdict(&t, iv(120.0, 115.0, 125.0)), Verdict::DoesNotHold);
        assert_eq!(verdict(&t, iv(108.0, 103.0, 113.0)), Verdict::Inconclusive);
        assert_eq!(
            verdict(&t, iv(f64::NAN, f64::NAN, f64::NAN)),
            Verdict::NotMeasured
        );
        assert_eq!(
            verdict(&t, iv(100.0, 90.0, f64::INFINITY)),
            Verdict::Inconclusive
        );
        // computed values are points
        let exact = rel(ClaimType::Exact, 1.2, 0.042);
        assert_eq!(verdict(&exact, Interval::exact(1.198)), Verdict::Holds);
        assert_eq!(
            verdict(&exact, Interval::exact(119.8)),
            Verdict::DoesNotHold
        );
        // a count stated as 0 is exact at 0
        let zero = rel(ClaimType::Exact, 0.0, 0.0);
        assert_eq!(verdict(&zero, Interval::exact(0.0)), Verdict::Holds);
        assert_eq!(verdict(&zero, Interval::exact(1.0)), Verdict::DoesNotHold);
    }

    #[test]
    fn an_interval_inside_the_materiality_margin_holds_though_wider_than_the_last_digit() {
        // the chapter's formula at 10 bits per key: 0.8194%, an interval of
        // ±3.7% relative is far wider than the printed 4 digits (±0.006%), but
        // well inside the ±10% that changes a filter's size
        let t = rel(ClaimType::Approximation, 0.008194, 0.10);
        assert_eq!(verdict(&t, iv(0.00818, 0.007889, 0.008482)), Verdict::Holds);
        // the old rule's margin (the printed precision) called this inconclusive
        let printed = rel(ClaimType::Approximation, 0.008194, 0.006);
        assert_eq!(
            verdict(&printed, iv(0.00818, 0.007889, 0.008482)),
            Verdict::Inconclusive
        );
    }

    #[test]
    fn a_bound_met_with_room_to_spare_holds() {
        // "all d rows unlucky has probability e^-d": 1.05e-5 against 0.0183
        let t = rel(ClaimType::UpperBound, 0.0183, 0.10);
        assert_eq!(verdict(&t, iv(1.05e-5, 4.0e-6, 2.2e-5)), Verdict::Holds);
        assert!(t.room(1.05e-5) > 0.99);
        // "in seven lookups": a no reads 2.05 bits
        let seven = rel(ClaimType::UpperBound, 7.0, 0.25);
        assert_eq!(verdict(&seven, iv(2.05, 2.04, 2.06)), Verdict::Holds);
        // above the bound by more than its margin: does not hold
        assert_eq!(verdict(&seven, iv(9.5, 9.0, 10.0)), Verdict::DoesNotHold);
        // a lower bound ("one or more") holds however far above
        let some = rel(ClaimType::LowerBound, 1.0, 0.0);
        assert_eq!(verdict(&some, Interval::exact(8180.0)), Verdict::Holds);
        assert_eq!(verdict(&some, Interval::exact(0.0)), Verdict::DoesNotHold);
        // an interval of a small rate reaching below 0 is no miss of an upper bound
        assert_eq!(verdict(&t, iv(1.0e-5, -2.0e-6, 3.0e-5)), Verdict::Holds);
    }

    #[test]
    fn an_illustration_holds_when_its_outcome_can_happen() {
        let t = Test::new(ClaimType::Illustration, (1.0, 1.0), 0.0, Scale::Relative);
        // all sixteen bits set after three inserts: 18% of filters
        assert_eq!(verdict(&t, iv(0.18, 0.179, 0.185)), Verdict::Holds);
        // a picture no sequence of inserts can produce
        assert_eq!(verdict(&t, Interval::exact(0.0)), Verdict::DoesNotHold);
        assert_eq!(verdict(&t, iv(0.001, 0.0, 0.004)), Verdict::Inconclusive);
    }

    #[test]
    fn ranges_and_absolute_margins() {
        let mb = Test::new(
            ClaimType::Approximation,
            (40.0, 100.0),
            0.10,
            Scale::Relative,
        );
        let (a, b) = mb.band();
        assert!(
            (a - 36.0).abs() < 1e-9 && (b - 110.0).abs() < 1e-9,
            "{a} {b}"
        );
        assert_eq!(verdict(&mb, Interval::exact(70.0)), Verdict::Holds);
        assert_eq!(verdict(&mb, Interval::exact(152.4)), Verdict::DoesNotHold);
        assert_eq!(verdict(&mb, Interval::exact(10.5)), Verdict::DoesNotHold);
        // a bias stated as 0, ±0.01 absolute
        let bias = rel(ClaimType::Asymptotic, 0.0, 0.01);
        assert_eq!(verdict(&bias, iv(0.002, -0.004, 0.008)), Verdict::Holds);
        assert_eq!(
            verdict(&bias, iv(-0.37, -0.371, -0.369)),
            Verdict::DoesNotHold
        );
        let abs = Test::new(ClaimType::Typical, (5.0, 5.0), 4.5, Scale::Absolute);
        let (a, b) = abs.band();
        assert!((a - 0.5).abs() < 1e-9 && (b - 9.5).abs() < 1e-9, "{a} {b}");
    }

    #[test]
    fn a_wider_interval_never_turns_does_not_hold_into_holds() {
        let rank = |v: Verdict| match v {
            Verdict::Holds | Verdict::DoesNotHold => 0,
            _ => 1,
        };
        for &ty in ClaimType::ALL {
            for m in [0.0, 0.02, 0.1, 0.25] {
                let t = rel(ty, 1.0, m);
                for centre in [0.5, 0.9, 0.97, 1.0, 1.03, 1.1, 1.2, 2.0] {
                    let mut last: Option<Verdict> = None;
                    for half in [0.0, 0.001, 0.01, 0.03, 0.1, 0.5, 1.0, 5.0] {
                        let v = verdict(&t, iv(centre, centre - half, centre + half));
                        if let Some(prev) = last {
                            // once decided one way, widening can only make it
                            // undecided, never decide it the other way
                            assert!(
                                v == prev || (rank(prev) == 0 && v == Verdict::Inconclusive),
                                "{ty:?} m={m} c={centre} h={half}: {prev:?} -> {v:?}"
                            );
                        }
                        last = Some(v);
                    }
                }
            }
        }
    }

    #[test]
    fn names_parse_back() {
        for v in VERDICTS {
            assert_eq!(Verdict::parse(v.as_str()), Some(v));
        }
        for &t in ClaimType::ALL {
            assert_eq!(ClaimType::from_name(t.as_str()), Some(t));
        }
        assert_eq!(Verdict::parse("approximately"), None);
        assert_eq!(Reading::from_name("caveat"), Some(Reading::Caveat));
    }
}
