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

/// How [`bytes`] counts: powers of 1000 (kB, MB: memory budgets, file and
/// structure sizes) or of 1024 (KiB, MiB: cache sizes, which are powers of two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteUnits {
    Si,
    Binary,
}

/// Bytes for people, to three significant figures: `12.3 MB`, `48 KiB`.
/// The one byte formatter: every size a report, plan or review prints.
pub fn bytes(b: f64, units: ByteUnits) -> String {
    let (step, names) = match units {
        ByteUnits::Si => (1000.0, ["B", "kB", "MB", "GB", "TB"]),
        ByteUnits::Binary => (1024.0, ["B", "KiB", "MiB", "GiB", "TiB"]),
    };
    let mut v = b;
    let mut u = 0;
    while v.abs() >= step && u + 1 < names.len() {
        v /= step;
        u += 1;
    }
    format!("{} {}", sig(v, 3), names[u])
}

fn cell(c: &Value) -> String {
    match c {
        Value::Float(x) => sig(*x, 4),
        Value::Str(s) => super::text::markdown_cell(s),
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

    #[test]
    fn bytes_count_in_thousands_or_in_kibibytes() {
        assert_eq!(bytes(999.0, ByteUnits::Si), "999 B");
        assert_eq!(bytes(1_234_567.0, ByteUnits::Si), "1.23 MB");
        assert_eq!(bytes(48.0 * 1024.0, ByteUnits::Binary), "48 KiB");
        assert_eq!(bytes(32.0 * 1024.0 * 1024.0, ByteUnits::Binary), "32 MiB");
        assert_eq!(bytes(2e15, ByteUnits::Si), "2000 TB");
    }
}
