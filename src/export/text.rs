//! Text from a stranger (a spec's description, a claim's quote or note, a
//! unit, a key file's name) made safe for where it is printed: Markdown
//! that stays text (no raw HTML, no link, on one line or table row), CSV
//! cells a spreadsheet does not run as formulas (the OWASP rule), and a
//! terminal that shows control characters instead of obeying them. Our own
//! text passes through unchanged: only the constructs that turn text into
//! markup, formulas or terminal commands are touched.

use std::borrow::Cow;

/// `s` as inline Markdown text: line breaks become spaces (a newline would
/// end a table row or open a heading), `<` before a letter, `/`, `!` or
/// `?` becomes `&lt;` (no raw HTML or autolink), `](` becomes `\](` (no
/// inline link, so no `javascript:` target), and control characters are
/// shown escaped.
pub fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        match c {
            '\r' | '\n' => out.push(' '),
            '<' if next.is_some_and(|n| n.is_ascii_alphabetic() || "/!?".contains(n)) => {
                out.push_str("&lt;")
            }
            ']' if next == Some('(') => out.push_str("\\]"),
            c if is_hostile_control(c) => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// `s` as Markdown paragraph text that keeps its line breaks: each line as
/// [`markdown`] would make it, and a line that would open a block (a
/// heading, a quote, a list item, a table row, a code fence) escaped by a
/// leading backslash, so the text stays one paragraph of text.
pub fn markdown_lines(s: &str) -> String {
    s.split('\n')
        .map(|line| {
            let line = markdown(line.strip_suffix('\r').unwrap_or(line));
            let t = line.trim_start();
            let numbered = t
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
            let opens = t.starts_with(['#', '>', '|', '=', '`'])
                || ["- ", "+ ", "* "].iter().any(|m| t.starts_with(m))
                || numbered;
            if opens {
                format!("{}\\{t}", &line[..line.len() - t.len()])
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `s` as a Markdown table cell: [`markdown`], and `|` escaped.
pub fn markdown_cell(s: &str) -> String {
    markdown(s).replace('|', "\\|")
}

/// A CSV cell a spreadsheet shows as text: a cell that begins with `=`,
/// `+`, `@`, a tab or a carriage return, or with `-` but is not a number,
/// gets a leading `'` (the OWASP rule for CSV injection); numbers and
/// every other text are unchanged.
pub fn spreadsheet(s: &str) -> Cow<'_, str> {
    let risky = match s.chars().next() {
        Some('=' | '+' | '@' | '\t' | '\r') => true,
        Some('-') => s.parse::<f64>().is_err(),
        _ => false,
    };
    if risky {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// A cell [`spreadsheet`] wrote, as it was: the leading `'` it added
/// removed (a cell it did not touch is returned unchanged).
pub fn from_spreadsheet(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if spreadsheet(rest).starts_with('\'') => rest,
        _ => s,
    }
}

/// `s` for a terminal: control characters other than newline and tab
/// (escape sequences, a carriage return that overwrites a line, bidi
/// overrides that reorder it) shown escaped, `\u{1b}`.
pub fn terminal(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_hostile_control) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| {
                if is_hostile_control(c) {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// A control character a reader's terminal or viewer would act on:
/// C0 and C1 controls but newline and tab, and the bidirectional
/// overrides and isolates.
fn is_hostile_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_stays_text() {
        assert_eq!(
            markdown("a <script>x</script>\n# h [x](javascript:alert(1))"),
            "a &lt;script>x&lt;/script> # h [x\\](javascript:alert(1))"
        );
        assert_eq!(markdown("p < 0.01 and 2<3"), "p < 0.01 and 2<3");
        assert_eq!(markdown_cell("a|b"), "a\\|b");
        assert_eq!(
            markdown_lines("one\n# two\n  - three\n4. four\nfive <b>"),
            "one\n\\# two\n  \\- three\n\\4. four\nfive &lt;b>"
        );
        assert_eq!(spreadsheet("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        assert_eq!(spreadsheet("-0.5"), "-0.5");
        assert_eq!(spreadsheet("-x"), "'-x");
        assert_eq!(spreadsheet("plain"), "plain");
        for s in ["=1+1", "-0.1-0.1", "-0.5", "'quoted", "plain"] {
            assert_eq!(from_spreadsheet(&spreadsheet(s)), s);
        }
        assert_eq!(terminal("ok\n\tfine"), "ok\n\tfine");
        assert_eq!(terminal("a\u{1b}[2Jb\r"), "a\\u{1b}[2Jb\\u{d}");
        assert_eq!(terminal("x\u{202e}y"), "x\\u{202e}y");
    }
}
