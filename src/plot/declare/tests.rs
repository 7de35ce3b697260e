use super::*;
use crate::table::{ColType, Column, Table, Tables, Value};

pub(super) fn table() -> Table {
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
fn a_facets_pick_chooses_among_its_own_rows() {
    // hash a ran at n = 10 and 20, c only at 10 (a grid's `except`): the
    // largest n of each facet, not of the table, so c is still drawn
    let mut t = table();
    t.rows.retain(|r| r[1] == Value::Str("a".into()));
    let mut c = t.rows[0].clone();
    c[1] = Value::Str("c".into());
    t.rows.push(c);
    let d = decl(
        r#"name = "c_{hash}"
title = "n = {n}"
facet = "hash"
where = { n = { pick = "max" } }
x = "fpr"
y = "fpr""#,
    );
    let tables = Tables {
        results: t,
        summary: None,
    };
    let titles: Vec<(String, String)> = draw(&d, &tables, &no_curves)
        .into_iter()
        .map(|c| (c.stem, c.title))
        .collect();
    assert_eq!(
        titles,
        [
            ("c_a".into(), "n = 20".into()),
            ("c_c".into(), "n = 10".into())
        ]
    );
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

/// A curve with `span_data` keeps only the x range the table's points
/// cover (padded by 15%); one without keeps its whole from..to.
#[test]
fn a_curve_can_span_only_the_data() {
    let identity = |name: &str| (name == "identity").then_some(Curve::Function(|x| x));
    let tables = Tables {
        results: table(),
        summary: None,
    };
    let chart = |span: bool| {
        let d = decl(&format!(
            r#"name = "c"
title = "t"
x = "n"
x_log = true
series = [{{ curve = "identity", from = 1e-3, to = 1e4, points = 241, span_data = {span} }}, {{ y = "fpr" }}]"#
        ));
        draw(&d, &tables, &identity).remove(0)
    };
    let xs = |c: &crate::plot::Chart| {
        let p = &c.series[0].points;
        (p.first().unwrap().x, p.last().unwrap().x)
    };
    let (lo, hi) = xs(&chart(true));
    assert!((10.0 / 1.15..10.0).contains(&lo), "{lo}");
    assert!(hi <= 20.0 * 1.15 && hi > 20.0, "{hi}");
    assert_eq!(xs(&chart(false)), (1e-3, 1e4));
}

/// Rows of several key sources at one x become a series per source,
/// labelled by the file's name; a column the same for every source (a
/// theory) stays one series.
#[test]
fn key_sources_are_a_series_dimension() {
    let mut t = Table::new(vec![
        Column::new("n", ColType::Int),
        Column::new("keys", ColType::Str),
        Column::new("fpr", ColType::Float),
        Column::new("theory", ColType::Float),
    ]);
    for (n, k, f) in [
        (10, "u64", 0.1),
        (10, "file:lines:data/words.txt", 0.2),
        (20, "u64", 0.05),
        (20, "file:lines:data/words.txt", 0.07),
    ] {
        t.rows.push(vec![
            Value::Int(n),
            Value::Str(k.into()),
            Value::Float(f),
            Value::Float(1.0 / n as f64),
        ]);
    }
    let tables = Tables {
        results: t,
        summary: None,
    };
    let d = decl(
        r#"name = "c"
title = "t"
x = "n"
series = [{ y = "theory", label = "theory", style = "line" }, { y = "fpr", label = "measured" }]"#,
    );
    let c = draw(&d, &tables, &no_curves).remove(0);
    let names: Vec<&str> = c.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["theory", "measured, u64 keys", "measured, words.txt keys"]
    );
    assert_eq!(c.series[2].points.len(), 2);
    // a declaration that groups by keys itself is left as it is
    let d =
        decl("name = \"c\"\ntitle = \"t\"\nx = \"n\"\nseries = [{ y = \"fpr\", by = \"keys\" }]");
    let c = draw(&d, &tables, &no_curves).remove(0);
    assert_eq!(c.series[1].name, "keys = words.txt");
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
    let e = parse("[[chart]]\nname = \"c\"\ntitle = \"t\"\nx = \"n\"\ncolour = \"red\"")
        .unwrap_err()
        .to_string();
    assert!(e.contains("chart c: unknown field `colour`"), "{e}");
}

fn wide_table() -> Tables {
    let mut t = Table::new(vec![
        Column::new("name", ColType::Str),
        Column::new("w", ColType::Int),
        Column::new("d", ColType::Int),
        Column::new("p1", ColType::Float),
        Column::new("p2", ColType::Float),
        Column::new("p2_lo", ColType::Float),
        Column::new("p2_hi", ColType::Float),
        Column::new("bin", ColType::Str),
        Column::new("opt", ColType::Float),
        Column::new("m", ColType::Str),
    ]);
    for (name, w, d, p1, p2, bin, opt, m) in [
        ("x", 2, 3, 0.1, 0.2, "10-99", Value::Float(1.0), "1x2:00ff"),
        ("y", 5, 1, 0.3, 0.4, "0", Value::Empty, "bad"),
    ] {
        t.rows.push(vec![
            Value::Str(name.into()),
            Value::Int(w),
            Value::Int(d),
            Value::Float(p1),
            Value::Float(p2),
            Value::Float(p2 - 0.1),
            Value::Float(p2 + 0.1),
            Value::Str(bin.into()),
            opt,
            Value::Str(m.into()),
        ]);
    }
    Tables {
        results: t,
        summary: None,
    }
}

fn draw_wide(text: &str) -> Vec<crate::plot::Chart> {
    draw(
        &decl(&format!("name = \"c\"\n{text}")),
        &wide_table(),
        &no_curves,
    )
}

fn xy(s: &crate::plot::Series) -> Vec<(f64, f64)> {
    s.points.iter().map(|p| (p.x, p.y)).collect()
}

#[test]
fn rows_as_categories_and_the_exists_filter() {
    let c = &draw_wide(
        "title = \"t\"\nx = \"name\"\nx_categories = \"rows\"\nx_from = 0\nx_label = \"{categories}\"\ny = \"w\"",
    )[0];
    assert_eq!(c.x_label, "0 = x, 1 = y");
    assert_eq!(xy(&c.series[0]), [(0.0, 2.0), (1.0, 5.0)]);
    let c = &draw_wide(
        "title = \"t\"\nx = \"name\"\nx_categories = \"rows\"\nx_label = \"{categories}\"\ny = \"w\"\nwhere = { opt = { exists = true } }",
    )[0];
    assert_eq!(c.x_label, "1 = x");
    assert_eq!(xy(&c.series[0]), [(1.0, 2.0)]);
}

#[test]
fn a_swept_y_draws_one_theory_line_per_group() {
    let c = &draw_wide(
        "title = \"t\"\nx = \"d\"\nseries = [{ y = \"w * d\", by = \"name\", from = 1, to = 3, points = 3, linear = true, label = \"w = {w:raw}\" }]",
    )[0];
    assert_eq!(c.series[0].name, "w = 2");
    assert_eq!(xy(&c.series[0]), [(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)]);
    assert_eq!(xy(&c.series[1]), [(1.0, 5.0), (2.0, 10.0), (3.0, 15.0)]);
    assert_eq!(c.series[0].style, crate::plot::Style::Line);
}

#[test]
fn wide_columns_are_points_at_their_x_with_intervals() {
    let c = &draw_wide(
        "title = \"t\"\nx = \"d\"\nseries = [{ at = { p1 = 1.0, p2 = 2.0 }, by = \"name\", label = \"{name}\" }]",
    )[0];
    assert_eq!(c.series[0].name, "x");
    assert_eq!(xy(&c.series[0]), [(1.0, 0.1), (2.0, 0.2)]);
    assert_eq!(c.series[0].points[0].lo, None);
    assert_eq!(c.series[0].points[1].lo, Some(0.1));
    assert_eq!(xy(&c.series[1]), [(1.0, 0.3), (2.0, 0.4)]);
}

#[test]
fn reference_lines_by_value_once_series_max_distinct_and_lead() {
    let c = &draw_wide(
        "title = \"{w:int} {w:bytes}\"\nx = \"d\"\nby = \"name\"\nhline = [{ of = \"w\", by = \"name\", label = \"{name}: {value:sig2}\" }]\nseries = [{ y = \"w\" }, { y = \"d\", once = true, label = \"all\" }]",
    )[0];
    assert_eq!(c.title, "2, 5 2 B, 5 B");
    assert_eq!(
        c.hlines,
        vec![(2.0, "x: 2".to_string()), (5.0, "y: 5".to_string())]
    );
    let names: Vec<&str> = c.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["name = x: w", "name = y: w", "all"]);
    assert_eq!(xy(&c.series[2]), [(1.0, 1.0), (3.0, 3.0)]);
    // more than one name: a chart for one only is not drawn
    assert!(
        draw_wide("title = \"t\"\nx = \"d\"\ny = \"w\"\nmax_distinct = { name = 1 }").is_empty()
    );
    // a bin's lower edge, "0" floored for a log axis; a line at 0 on a log axis is left out
    let c = &draw_wide(
        "title = \"t\"\nx = \"max(lead(bin), 0.5)\"\nx_log = true\ny = \"w\"\nvline = [{ at = 1, label = \"one\" }, { of = \"w - 2\", label = \"zero\" }]",
    )[0];
    assert_eq!(xy(&c.series[0]), [(0.5, 5.0), (10.0, 2.0)]);
    assert_eq!(c.vlines, vec![(1.0, "one".to_string())]);
}

#[test]
fn a_declared_heatmap_draws_each_rows_matrix_and_checks_its_columns() {
    let hs = parse_view(
        "[[heatmap]]\nname = \"h_{name}\"\ntitle = \"{name} at w = {w}\"\nmatrix = \"m\"\nx_label = \"out\"\ny_label = \"in\"\nscale_max = \"100%\"",
    )
    .unwrap()
    .heatmaps;
    let t = wide_table().results;
    // row y's cell is not a matrix: no heatmap for it
    let drawn = hs[0].draw(&t);
    assert_eq!(drawn.len(), 1);
    assert_eq!(
        (drawn[0].stem.as_str(), drawn[0].title.as_str()),
        ("h_x", "x at w = 2")
    );
    assert_eq!((drawn[0].rows, drawn[0].cols), (1, 2));
    assert_eq!(drawn[0].values, [0.0, 1.0]);
    assert!(hs[0].validate(&t.columns).is_ok());
    let bad = parse_view(
        "[[heatmap]]\nname = \"h\"\ntitle = \"t\"\nmatrix = \"nope\"\nx_label = \"a\"\ny_label = \"b\"\nscale_max = \"c\"",
    )
    .unwrap()
    .heatmaps;
    let e = bad[0].validate(&t.columns).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("heatmap h.matrix", "\"nope\"")
    );
}

#[test]
fn new_series_shapes_are_validated() {
    let t = wide_table().results;
    let none = |_: &str| None;
    let cols = Columns {
        results: &t.columns,
        summary: &t.columns,
        values: &none,
    };
    let err = |text: &str| {
        validate(
            &decl(&format!("name = \"c\"\ntitle = \"t\"\n{text}")),
            &cols,
            &no_curves,
        )
        .map(|()| String::new())
        .unwrap_or_else(|e| format!("{} = {}: {}", e.field, e.value, e.allowed))
    };
    assert_eq!(err("x = \"d\"\nseries = [{ at = { p1 = 1.0 } }]"), "");
    assert_eq!(err("x = \"max(lead(bin), 0.5)\"\ny = \"w\""), "");
    for (text, want) in [
        (
            "x = \"d\"\nseries = [{ y = \"w\", at = { p1 = 1.0 } }]",
            "chart c.series[0].y = (more than one, or none)",
        ),
        (
            "x = \"d\"\nseries = [{ at = { name = 1.0 } }]",
            "chart c.series[0].at.name = \"name\": is not a numeric column",
        ),
        (
            "x = \"name\"\nx_categories = \"rows\"\nseries = [{ y = \"w\", from = 1, to = 2 }]",
            "chart c.series[0].from = …: a swept y runs along the chart's numeric x",
        ),
        (
            "x = \"d\"\nseries = [{ y = \"w\", from = 1 }]",
            "chart c.series[0].from = (none): a function curve or a swept y needs from and to",
        ),
        (
            "x = \"d\"\ny = \"w\"\nhline = [{ of = \"w\", by = \"nope\", label = \"l\" }]",
            "chart c.hline[0].by = \"nope\": no such column",
        ),
        (
            "x = \"d\"\ny = \"w\"\nmax_distinct = { nope = 1 }",
            "chart c.max_distinct.nope = \"nope\": no such column",
        ),
        (
            "x = \"d\"\ny = \"w\"\nwhere = { w = { exists = true, not = 1 } }",
            "chart c.where.w = {…}: must hold exactly one",
        ),
        (
            "x = \"lead(w + 1)\"\ny = \"w\"",
            "chart c.x = \"lead(w + 1)\": lead reads one column's text",
        ),
    ] {
        let got = err(text);
        assert!(got.starts_with(want), "{text}: {got}");
    }
}

/// A facet value that is a key file's path (`file:lines:data/words.txt`)
/// makes a file stem without `/` or `:`, which a changed stem marks with
/// its hash so two values stay two files; a plain stem is kept as it is.
#[test]
fn a_facet_value_with_a_path_makes_a_safe_file_stem() {
    use super::draw::file_stem;
    assert_eq!(file_stem("filter_frontier_u64"), "filter_frontier_u64");
    assert_eq!(file_stem("bloom_fpr_0.01_1e-05"), "bloom_fpr_0.01_1e-05");
    let a = file_stem("filter_frontier_file:lines:data/words.txt");
    let b = file_stem("filter_frontier_file:lines:data_words.txt");
    assert!(
        a.starts_with("filter_frontier_file_lines_data_words.txt_"),
        "{a}"
    );
    assert!(
        a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    );
    assert_ne!(a, b);
    assert!(!file_stem("../../etc/x").starts_with('.'));
    assert!(file_stem(&"x/".repeat(200)).len() <= 109);
}
