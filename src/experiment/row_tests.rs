//! Tests of [`super`]: rows declared with `row!` write and read back.

use super::*;

crate::row! {
    struct Demo {
        m: u64 [Same],
        fpr: Interval,
        label: String,
        maybe: Option<f64>,
        hits: u64 [Sum],
    }
}

#[test]
fn an_interval_is_three_columns_and_the_header_follows_the_struct() {
    let cols: Vec<String> = Demo::fields()
        .iter()
        .flat_map(|f| f.columns())
        .map(|c| c.name)
        .collect();
    assert_eq!(
        cols,
        ["m", "fpr", "fpr_lo", "fpr_hi", "label", "maybe", "hits"]
    );
    let d = Demo {
        m: 3,
        fpr: Interval::new(0.5, 0.4, 0.6),
        label: "x".into(),
        maybe: None,
        hits: 7,
    };
    assert_eq!(
        d.cells(),
        vec![
            Value::Int(3),
            Value::Float(0.5),
            Value::Float(0.4),
            Value::Float(0.6),
            Value::Str("x".into()),
            Value::Empty,
            Value::Int(7)
        ]
    );
    let f = Demo::fields();
    assert_eq!(f[0].agg, Agg::Same);
    assert_eq!(f[1].agg, Agg::Mean);
    assert_eq!(f[2].agg, Agg::Same);
    assert_eq!(f[4].agg, Agg::Sum);
}

crate::row! {
    struct Every {
        n: u64,
        w: u32 [Same],
        ok: bool,
        name: String,
        gone: Option<f64>,
        there: Option<i64>,
        fpr: crate::stats::Proportion,
        est: crate::stats::Estimate,
        iv: Option<Interval>,
        none_iv: Option<Interval>,
    }
}

#[test]
fn a_row_reads_back_field_by_field_what_it_wrote() {
    let e = Every {
        n: 7,
        w: 3,
        ok: true,
        name: "xxh3".into(),
        gone: None,
        there: Some(-2),
        fpr: crate::stats::Proportion::new(3, 1000),
        est: crate::stats::Estimate::mean(&[1.0, 2.0, 4.0]),
        iv: Some(Interval::new(0.5, 0.25, 0.75)),
        none_iv: None,
    };
    let columns: Vec<Column> = Every::fields().iter().flat_map(|f| f.columns()).collect();
    let mut t = Table::new(columns);
    t.rows.push(e.clone().cells());
    let back = Every::read(&t, &t.rows[0]).unwrap();
    assert_eq!(back.clone().cells(), e.cells());
    assert_eq!((back.n, back.fpr.successes, back.fpr.trials), (7, 3, 1000));
    assert_eq!(back.gone, None);
    // an empty text cell (as a CSV reads "") is the empty string
    let mut blank = t.rows[0].clone();
    let at = t.columns.iter().position(|c| c.name == "name").unwrap();
    blank[at] = Value::Empty;
    assert_eq!(Every::read(&t, &blank).unwrap().name, "");
    // a table without the row's columns gives no row, not a default
    let other = Table::new(vec![Column::new("n", ColType::Int)]);
    assert!(Every::read(&other, &[Value::Int(1)]).is_none());
}

crate::row! {
    struct Measured, summary MeasuredSummary {
        m: u64 [Same],
        err: f64 [Pitchfork],
        name: String,
    }
}

#[test]
fn a_summary_row_reads_each_field_by_its_declared_name() {
    let cols = [
        "m", "err", "err_lo", "err_hi", "err_sd", "err_q02", "err_q16", "err_q50", "err_q84",
        "err_q98", "name",
    ];
    let t = Table::new(
        cols.iter()
            .map(|&c| {
                Column::new(
                    c,
                    if c == "name" {
                        ColType::Str
                    } else {
                        ColType::Float
                    },
                )
            })
            .collect(),
    );
    let mut row: Vec<Value> = (0..10).map(|i| Value::Float(i as f64)).collect();
    row.push(Value::Str("xxh3".into()));
    let s = <MeasuredSummary as SummaryRow>::read(&t, &row);
    assert_eq!((s.m.value, s.m.lo, s.m.sd), (Some(0.0), None, None));
    assert_eq!(
        (s.err.value, s.err.lo, s.err.hi, s.err.sd),
        (Some(1.0), Some(2.0), Some(3.0), Some(4.0))
    );
    assert_eq!(s.err.quantiles, Some([5.0, 6.0, 7.0, 8.0, 9.0]));
    assert_eq!((s.name.text.as_str(), s.name.value), ("xxh3", None));
    // the row itself is declared as without `summary`
    assert_eq!(Measured::fields().len(), 3);
}

crate::row! {
    struct Documented {
        /// The measured rate of "false" answers,
        /// over every query (ε ≤ 1).
        fpr: f64,
        #[doc = "plain"]
        hits: u64 [Sum],
        bare: u64 [Sum],
    }
}

/// A field's doc comment is what the manifest's schema says it means.
#[test]
fn a_fields_doc_comment_is_its_schemas_about() {
    let f = Documented::fields();
    assert_eq!(
        f[0].about(),
        "The measured rate of \"false\" answers, over every query (ε ≤ 1)."
    );
    assert_eq!(f[1].about(), "plain");
    assert_eq!(f[2].about(), "");
    assert!(f[0].schema(false).iter().all(|c| c.about == f[0].about()));
    assert_eq!(doc_line("doc = r#\" a \"b\" \"#"), Some("a \"b\""));
    assert_eq!(doc_line("inline"), None);
}

crate::row! {
    struct WithUnits {
        fpr: crate::stats::Proportion [fraction],
        build: Interval [Median, ns],
        label: String,
    }
}

/// A declared unit reaches every column of its field, a proportion's k and
/// n are counts, and a text field has none.
#[test]
fn a_fields_unit_is_its_columns_unit() {
    let f = WithUnits::fields();
    assert_eq!(f[0].unit, Some(Unit::Fraction));
    assert_eq!((f[1].unit, f[1].agg), (Some(Unit::Ns), Agg::Median));
    assert_eq!(f[2].unit, None);
    let units = |i: usize| -> Vec<(String, Option<String>)> {
        f[i].schema(false)
            .into_iter()
            .map(|c| (c.name, c.unit))
            .collect()
    };
    let u = |s: &str| Some(s.to_string());
    assert_eq!(
        units(0),
        [
            ("fpr".into(), u("fraction")),
            ("fpr_lo".into(), u("fraction")),
            ("fpr_hi".into(), u("fraction")),
            ("fpr_k".into(), u("count")),
            ("fpr_n".into(), u("count")),
        ]
    );
    assert!(units(1).iter().all(|(_, unit)| *unit == u("ns")));
    assert_eq!(units(2), [("label".into(), None)]);
}

#[test]
#[should_panic(expected = "declares 2 units")]
fn a_field_with_two_units_is_a_bug() {
    FieldDef::declared(
        "x",
        Shape::Scalar(ColType::Float),
        Agg::Mean,
        &[opt::ns, opt::bytes],
    );
}
