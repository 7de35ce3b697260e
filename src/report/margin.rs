//! Materiality: the smallest difference that matters for a claim's use, one
//! margin per kind of quantity, declared once here with its reason
//! (docs/verdicts.md prints this table). A claim names its quantity; the
//! margin comes from here, never from the result. A claim may override it with a margin
//! and a reason of its own (`margin`, `margin_reason` in the spec), which the
//! ledger shows beside the verdict.

crate::closed_set! {
    /// A kind of quantity a claim states.
    pub enum Quantity {
        /// A rate or error that sizes a structure: an FPR, a standard error, an
        /// overshoot, the share of keys beyond a bound, a hit rate.
        Rate = "rate",
        /// Memory: bits, bytes, bits per key, a space ratio.
        Memory = "memory",
        /// A cost paid per request or per run: lookups, disk reads, store load,
        /// operations, seconds.
        Cost = "cost",
        /// An estimator's bias as a share of the truth (a mean relative error
        /// stated as 0).
        Bias = "bias",
        /// A formula stated with "≈" or "approximately".
        Approx = "approx",
        /// A round figure in prose: "about", "around", "~", "roughly".
        About = "about",
        /// A probability stated as "exactly" another (MinHash's agreement is the
        /// Jaccard similarity): equality at a resolution, and the interval must
        /// not exclude it.
        ExactProbability = "exact_probability",
        /// Counts, sizes and results of arithmetic, a theorem's value: exact, at
        /// the precision the document prints (the claim's `resolution`).
        Exact = "exact",
        /// An order-of-magnitude intuition ("about 2^12 flips", "about log2 N"):
        /// judged in decades of the count it stands for (the claim's `order_of`
        /// says whether its value is that count or its log2), never as a share
        /// of a logarithm.
        Order = "order",
    }
}

crate::closed_set! {
    /// What a claim of quantity [`Quantity::Order`] states.
    pub enum OrderOf {
        /// A count (flips, keys): judged as log10 of it.
        Count = "count",
        /// The log2 of a count (a run length, bits): judged as its log10.
        Log2 = "log2",
    }
}

impl OrderOf {
    /// The value in decades of the count it stands for.
    pub fn decades(self, x: f64) -> f64 {
        match self {
            OrderOf::Count => x.log10(),
            OrderOf::Log2 => x * std::f64::consts::LOG10_2,
        }
    }
}

/// Every quantity, in the order README lists them.
pub const ALL: &[Quantity] = Quantity::ALL;

crate::closed_set! {
    /// How a margin applies to the documented value.
    pub enum Scale {
        /// A share of the documented value (absolute at a documented 0).
        Relative = "relative",
        /// In the claim's own unit.
        Absolute = "absolute",
    }
}

impl Quantity {
    /// The margin, `None` for [`Quantity::Exact`] (the claim's resolution).
    pub fn margin(self) -> Option<(f64, Scale)> {
        match self {
            Quantity::Rate | Quantity::Memory | Quantity::Approx => Some((0.10, Scale::Relative)),
            Quantity::Cost | Quantity::About => Some((0.25, Scale::Relative)),
            Quantity::Bias => Some((0.01, Scale::Absolute)),
            Quantity::ExactProbability => Some((0.02, Scale::Relative)),
            Quantity::Order => Some((0.5, Scale::Absolute)),
            Quantity::Exact => None,
        }
    }

    /// Why the margin is what it is.
    pub fn reason(self) -> &'static str {
        match self {
            Quantity::Rate => {
                "±10% relative: 10% of a Bloom filter's FPR is 0.14 bits per key (1.4% of a 10-bit filter), and a standard error 10% off moves a HyperLogLog's register count by 21%, less than one power-of-two step: no sizing decision changes inside it"
            }
            Quantity::Memory => {
                "±10% relative: memory is budgeted with at least this much headroom; a size inside it changes no machine or configuration"
            }
            Quantity::Cost => {
                "±25% relative: per-request costs (lookups, disk reads, store load, time) vary by this much with hardware and load; inside it no capacity plan changes"
            }
            Quantity::Bias => {
                "±0.01 absolute: a bias under 1% of the truth is below the two significant figures a distinct count is read to"
            }
            Quantity::Approx => {
                "±10% relative: \"≈\" states an approximation good enough to size with, the engineering precision of a formula"
            }
            Quantity::About => {
                "±25% relative: \"about\", \"~\" name a round figure in prose (one significant figure: about 20% covers 15% to 25%)"
            }
            Quantity::ExactProbability => {
                "±2% relative, and the interval must not exclude the value (else the difference is reported): \"exactly\" for a probability is an identity, tested at the resolution a sampled check can give"
            }
            Quantity::Exact => {
                "exact, at the precision the document prints (the claim's resolution: half a unit of its last digit); a count of events (false negatives) is exact at 0"
            }
            Quantity::Order => {
                "±0.5 decade of the count, on a log scale: an order-of-magnitude intuition (\"about 2^12 flips\", \"about log2 N\") is right when the count rounds to the same power of ten, a factor of √10 either way (±1.66 bits of a logarithm); a relative margin on a logarithm would be a range of many factors"
            }
        }
    }

    /// "±10%", "±0.01", "exact": the margin as README and the ledger print it.
    pub fn label(self) -> String {
        if self == Quantity::Order {
            return "±0.5 decade".into();
        }
        match self.margin() {
            Some((m, Scale::Relative)) => format!("±{}%", m * 100.0),
            Some((m, Scale::Absolute)) => format!("±{m}"),
            None => "exact".into(),
        }
    }
}

/// The table as markdown (README's verdict section and REPORT.md).
pub fn table_markdown() -> String {
    let mut s = String::from("| quantity | margin | reason |\n|---|---|---|\n");
    for &q in ALL {
        s += &format!("| `{}` | {} | {} |\n", q.as_str(), q.label(), q.reason());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_quantity_parses_back_and_has_a_reason() {
        for &q in ALL {
            assert_eq!(Quantity::from_name(q.as_str()), Some(q));
            assert!(q.reason().len() > 40, "{}", q.as_str());
        }
        assert_eq!(Quantity::from_name("tolerance"), None);
        assert_eq!(Quantity::Rate.label(), "±10%");
        assert_eq!(Quantity::Bias.label(), "±0.01");
        assert_eq!(Quantity::Exact.label(), "exact");
        assert!(table_markdown().lines().count() == ALL.len() + 2);
    }

    /// docs/verdicts.md prints this table: it must be this table.
    #[test]
    fn the_verdict_rules_carry_the_materiality_table() {
        let doc = include_str!("../../docs/verdicts.md");
        for row in table_markdown().lines().skip(2) {
            assert!(doc.contains(row), "docs/verdicts.md lacks the row {row}");
        }
    }
}
