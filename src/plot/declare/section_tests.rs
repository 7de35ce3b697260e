//! Tests of a declared section: its table and readings from the rows.

use super::tests::table;
use super::*;
use crate::table::{Table, Tables};

fn section(text: &str) -> (Table, String) {
    let d = parse_section(text).unwrap();
    let tables = Tables {
        results: table(),
        summary: None,
    };
    (
        d.table
            .as_ref()
            .map(|t| t.render(&tables))
            .unwrap_or_default(),
        d.reading(&tables),
    )
}

#[test]
fn a_declared_section_fills_its_table_and_readings_from_the_rows() {
    let (t, reading) = section(
        r#"
[table]
columns = ["hash", "n", "fpr"]
where = { hash = "b" }

[[reading]]
where = { n = 20 }
text = "At n = 20: {rows}."
each = "{hash:raw} {fpr:pct2}"
join = ", "

[[reading]]
text = "{n_rows} rows, {count fpr_k - 3} not at k = 3; largest FPR {max fpr:pct3} (hash {hash@fpr=max:raw}), smallest {min fpr * 100:sig2}, total k {sum fpr_k:int}."

[[reading]]
text = "First b at n = 20: {fpr@hash=b,n=20:pct2}; last row {fpr_k:int}."
row = "last"
"#,
    );
    assert_eq!(t.names(), vec!["hash", "n", "fpr"]);
    assert_eq!(t.rows.len(), 3, "the table keeps hash b only");
    assert_eq!(
        reading,
        "At n = 20: a 2%, b 4%, b 6%. 5 rows, 4 not at k = 3; largest FPR 6% (hash b), \
         smallest 1, total k 16. First b at n = 20: 6%; last row 6."
    );
}

#[test]
fn a_reading_with_a_missing_value_is_left_out_not_printed_with_a_hole() {
    let (_, reading) = section(
        r#"
[[reading]]
text = "never {fpr@hash=zzz:pct2}."
[[reading]]
where = { hash = "zzz" }
text = "none: {rows}."
each = "{fpr}"
[[reading]]
text = "kept."
"#,
    );
    assert_eq!(reading, "kept.");
}

#[test]
fn a_section_declaration_is_validated_against_the_columns() {
    let t = table();
    let none = |_: &str| None;
    let cols = Columns {
        results: &t.columns,
        summary: &[],
        values: &none,
    };
    let check = |text: &str| validate_section(&parse_section(text).unwrap(), &cols);
    assert_eq!(
        check("[[reading]]\ntext = \"{fpr:pct2} {max abs(fpr)} {rows}\"\neach = \"{hash:raw}\""),
        Ok(())
    );
    let e = check("[table]\ncolumns = [\"nope\"]").unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("table.columns", "\"nope\"")
    );
    let e = check("[[reading]]\ntext = \"{fpr:pcx}\"").unwrap_err();
    assert!(e.allowed.contains("sigN"), "{e:?}");
    let e = check("[[reading]]\ntext = \"{fpr@nope=1}\"").unwrap_err();
    assert!(e.allowed.contains("nope"), "{e:?}");
    let e = check("[[reading]]\ntext = \"{fpr * 2:raw}\"").unwrap_err();
    assert!(e.allowed.contains("raw"), "{e:?}");
    let e = check("[[reading]]\ntext = \"{rows}\"").unwrap_err();
    assert!(e.allowed.contains("no column rows"), "{e:?}");
    assert!(parse_section("[[reading]]\ntext = \"x\"\nbogus = 1").is_err());
}
