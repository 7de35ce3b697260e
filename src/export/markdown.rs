//! Markdown tables and number formatting for the report.

use crate::table::{Table, Value};

/// A number with `sig` significant figures, without exponent for ordinary
/// magnitudes (e.g. 0.01003, 9585059, 1.2e-5).
pub fn sig(x: f64, sig: usize) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    if x == 0.0 {
        return "0".into();
    }
    let mag = x.abs().log10().floor() as i32;
    if !(-4..15).contains(&mag) {
        let s = format!("{:.*e}", sig.saturating_sub(1), x);
        return match s.split_once('e') {
            Some((m, e)) if m.contains('.') => {
                format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.'))
            }
            _ => s,
        };
    }
    let decimals = (sig as i32 - 1 - mag).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A percentage with `sig` significant figures: 0.4358 -> "43.6%".
pub fn pct(x: f64, s: usize) -> String {
    format!("{}%", sig(100.0 * x, s))
}

fn cell(c: &Value) -> String {
    match c {
        Value::Float(x) => sig(*x, 4),
        Value::Str(s) => s.replace('|', "\\|"),
        other => other.to_string(),
    }
}

/// A GitHub-flavoured markdown table.
pub fn table(t: &Table) -> String {
    let mut s = format!("| {} |\n", t.names().join(" | "));
    s += &format!("|{}\n", "---|".repeat(t.columns.len()));
    for r in &t.rows {
        s += &format!(
            "| {} |\n",
            r.iter().map(cell).collect::<Vec<_>>().join(" | ")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_figures() {
        assert_eq!(sig(0.010_031, 4), "0.01003");
        assert_eq!(sig(9_585_059.0, 4), "9585059");
        assert_eq!(sig(1.198_13, 3), "1.2");
        assert_eq!(sig(0.000_012_3, 3), "1.23e-5");
        assert_eq!(sig(2.3e18, 6), "2.3e18");
        assert_eq!(pct(0.4358, 3), "43.6%");
    }

    #[test]
    fn renders_table() {
        let t = Table {
            columns: vec!["a".into(), "b".into()],
            rows: vec![vec![Value::Int(1), Value::Str("x|y".into())]],
        };
        assert_eq!(table(&t), "| a | b |\n|---|---|\n| 1 | x\\|y |\n");
    }
}
