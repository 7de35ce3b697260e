use super::*;
use crate::table::{ColType, Column, Table, Tables, Value};

fn table() -> Table {
    let mut t = Table::new(vec![
        Column::new("n", ColType::Int),
        Column::new("hash", ColType::Str),
        Column::new("fpr", ColType::Float),
        Column::new("fpr_lo", ColType::Float),
        Column::new("fpr_hi", ColType::Float),
        Column::new("fpr_k", ColType::Int),
        Column::new("fpr_n", ColType::Int),
    ]);
    for (n, h, k) in [
        (10, "a", 1),
        (20, "a", 2),
        (10, "b", 3),
        (20, "b", 4),
        (20, "b", 6),
    ] {
        let p = k as f64 / 100.0;
        t.rows.push(vec![
            Value::Int(n),
            Value::Str(h.into()),
            Value::Float(p),
            Value::Float(p / 2.0),
            Value::Float(p * 2.0),
            Value::Int(k),
            Value::Int(100),
        ]);
    }
    t
}

fn decl(text: &str) -> ChartDecl {
    let mut v = parse(&format!("[[chart]]\n{text}")).unwrap();
    assert_eq!(v.len(), 1);
    v.remove(0)
}

fn no_curves(_: &str) -> Option<Curve> {
    None
}

fn draw1(d: &ChartDecl) -> Vec<crate::plot::Chart> {
    let tables = Tables {
        results: table(),
        summary: None,
    };
    draw(d, &tables, &no_curves)
}

#[test]
fn grouping_filters_and_labels() {
    let d = decl(
        r#"name = "c"
title = "at n = {n}"
x = "n"
where = { hash = { not = "zzz" } }
series = [{ y = "fpr", by = "hash", label = "h {value}" }, { y = "fpr * 100", where = { hash = { pick = "first" } } }]"#,
    );
    let c = &draw1(&d)[0];
    assert_eq!(c.title, "at n = 10, 20");
    let names: Vec<&str> = c.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["h a", "h b", "fpr * 100"]);
    // a plain column carries its interval; arithmetic does not
    assert_eq!(c.series[0].points[0].lo, Some(0.005));
    assert_eq!(c.series[2].points[1].y, 2.0);
    assert_eq!(c.series[2].points[1].lo, None);
}

#[test]
fn facets_pooling_distinct_categories_and_min_distinct() {
    let d = decl(
        r#"name = "c_{hash}"
title = "t"
facet = "hash"
x = "n"
y = "fpr""#,
    );
    let names: Vec<String> = draw1(&d).into_iter().map(|c| c.stem).collect();
    assert_eq!(names, ["c_a", "c_b"]);
    // pooled: (4 + 6)/200 at n = 20 for b
    let d = decl(
        r#"name = "c"
title = "t"
x = "n"
where = { hash = "b" }
series = [{ y = "fpr", pool = true }, { y = "fpr", distinct = true }]"#,
    );
    let c = &draw1(&d)[0];
    assert_eq!(c.series[0].points.len(), 2);
    assert_eq!(c.series[0].points[1].y, 0.05);
    assert_eq!(c.series[1].points.len(), 2);
    assert_eq!(c.series[1].points[1].y, 0.04);
    let d = decl(
        r#"name = "c"
title = "t"
x = "hash"
x_categories = ["b", "a"]
y = "fpr""#,
    );
    let xs: Vec<f64> = draw1(&d)[0].series[0].points.iter().map(|p| p.x).collect();
    assert_eq!(xs, [1.0, 1.0, 1.0, 2.0, 2.0]);
    let d = decl(
        r#"name = "c"
title = "t"
min_distinct = { n = 3 }
x = "n"
y = "fpr""#,
    );
    assert!(draw1(&d).is_empty());
}

#[test]
fn a_chart_of_curves_needs_a_point_from_its_columns() {
    let d = decl(
        r#"name = "c"
title = "t"
x = "n"
where = { hash = "none" }
series = [{ y = "fpr" }]"#,
    );
    assert!(draw1(&d)[0].series.is_empty());
}

#[test]
fn repeat_makes_one_declaration_per_word() {
    let v = parse(
        r#"[[chart]]
repeat = ["a", "b"]
name = "c_{repeat}"
title = "{repeat}"
x = "n"
y = "fpr_{repeat}""#,
    )
    .unwrap();
    let got: Vec<(&str, &str)> = v
        .iter()
        .map(|d| (d.name.as_str(), d.title.as_str()))
        .collect();
    assert_eq!(got, [("c_a", "a"), ("c_b", "b")]);
    assert_eq!(v[1].y, OneOrMany::One("fpr_b".into()));
}

#[test]
fn validation_names_the_chart_and_field() {
    let t = table();
    let none = |_: &str| None;
    let cols = Columns {
        results: &t.columns,
        summary: &t.columns,
        values: &none,
    };
    let err = |text: &str| {
        validate(&decl(text), &cols, &no_curves)
            .map(|()| String::new())
            .unwrap_or_else(|e| format!("{} = {}: {}", e.field, e.value, e.allowed))
    };
    let base = "name = \"c\"\ntitle = \"t\"\n";
    assert_eq!(err(&format!("{base}x = \"n\"\ny = \"fpr\"")), "");
    for (text, want) in [
        (
            "x = \"n\"\ny = \"nope\"",
            "chart c.y = \"nope\": no such column",
        ),
        (
            "x = \"hash\"\ny = \"fpr\"",
            "chart c.x = \"hash\": is not a numeric",
        ),
        ("x = \"n\"", "chart c.y = (none): a chart needs y"),
        (
            "x = \"n\"\nseries = [{ curve = \"nope\" }]",
            "chart c.series[0].curve = \"nope\": is not a known curve",
        ),
        (
            "x = \"n\"\ny = \"fpr\"\nwhere = { n = { pick = \"max\", nearest = 3 } }",
            "chart c.where.n = {…}: must hold exactly one",
        ),
        (
            "x = \"n\"\ny = \"fpr\"\nwhere = { hash = { nearest = 3 } }",
            "chart c.where.hash = \"hash\": nearest, above and below need a numeric column",
        ),
        (
            "x = \"n\"\ny = \"fpr +\"",
            "chart c.y = \"fpr +\": the expression ends too early",
        ),
        (
            "x = \"n\"\ny = \"fpr\"\ny_log = true\nhline = [{ at = 0, label = \"z\" }]",
            "chart c.hline[0].at = 0: a log axis shows only positive values",
        ),
    ] {
        let got = err(&format!("{base}{text}"));
        assert!(got.starts_with(want), "{text}: {got}");
    }
    let named = "name = \"c_{n}\"\ntitle = \"t\"\nx = \"n\"\ny = \"fpr\"";
    assert!(
        err(named).contains("only a faceted chart"),
        "{}",
        err(named)
    );
    // a grid value on a log axis
    let grid = |c: &str| (c == "n").then(|| vec![Value::Int(0), Value::Int(5)]);
    let cols = Columns {
        results: &t.columns,
        summary: &t.columns,
        values: &grid,
    };
    let e = validate(
        &decl("name = \"c\"\ntitle = \"t\"\nx = \"n\"\nx_log = true\ny = \"fpr\""),
        &cols,
        &no_curves,
    )
    .unwrap_err();
    assert_eq!((e.field.as_str(), e.value.as_str()), ("chart c.x", "\"n\""));
    assert!(e.allowed.contains("the grid gives it 0"), "{}", e.allowed);
    // a declaration's unknown key is a parse error naming the chart
    let e =
        parse("[[chart]]\nname = \"c\"\ntitle = \"t\"\nx = \"n\"\ncolour = \"red\"").unwrap_err();
    assert!(e.contains("chart c: unknown field `colour`"), "{e}");
}

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
