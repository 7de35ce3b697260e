//! The run as a whole: every claim a verdict, charts, index.html, the report rebuilt from disk, shards.

use super::common::*;
use std::path::Path;

#[test]
fn reproduce_quick_gives_every_claim_a_verdict() {
    let d = quick_out();
    let claims = std::fs::read_to_string(d.join("claims.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(claims.as_bytes());
    assert_eq!(
        rdr.headers().unwrap().iter().collect::<Vec<_>>(),
        sketchlab::report::ledger::CSV_HEADER
    );
    let (mut n, mut references) = (0, 0);
    for rec in rdr.records() {
        let rec = rec.unwrap();
        n += 1;
        let verdicts = ["holds", "does-not-hold", "inconclusive"];
        // not-measured only for report rows, which still carry their value,
        // and for the references (claims no harness measures)
        assert!(
            verdicts.contains(&&rec[7]) || &rec[7] == "not-measured",
            "{} was {}",
            &rec[0],
            &rec[7]
        );
        if &rec[8] == "reference" {
            // a verdict by citation: holds, does-not-hold (with the
            // correction the reference supports) or unverified
            // (not-measured); never a measured value
            assert!(
                ["holds", "does-not-hold", "not-measured"].contains(&&rec[7]) && rec[5].is_empty(),
                "{}",
                &rec[0]
            );
            references += 1;
            continue;
        }
        assert!(!rec[5].is_empty(), "{} has no value", &rec[0]);
        assert!(
            ["measured", "counted", "computed"].contains(&&rec[8]),
            "{}",
            &rec[0]
        );
        // a measured row carries the interval its verdict was decided on
        if &rec[8] == "measured" {
            assert!(
                !rec[9].is_empty() && !rec[10].is_empty(),
                "{} has no interval",
                &rec[0]
            );
        }
    }
    let specs: Vec<_> = std::fs::read_dir("experiments")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let declared: usize = specs
        .iter()
        .map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .matches("[[claim]]")
                .count()
        })
        .sum();
    assert_eq!(
        references,
        sketchlab::report::references::rows().unwrap().len(),
        "every claim of data/claims_without_study.toml is in the ledger"
    );
    assert_eq!(
        n - references,
        declared,
        "every [[claim]] in experiments/ is in the ledger"
    );
    let report = std::fs::read_to_string(d.join("REPORT.md")).unwrap();
    assert_eq!(
        report.matches("\n### ").count()
            - report.matches("\n### Wrong as meant").count()
            - report.matches("\n### Wrong by citation").count()
            - report.matches("\n### Caveats worth knowing").count()
            - report.matches("\n### Undecided").count(),
        specs.len()
    );
    assert!(report.contains("[LEDGER.md](LEDGER.md)"));
    // the ledger (its own page) is grouped by document section, in the documents' order
    let ledger = std::fs::read_to_string(d.join("LEDGER.md")).unwrap();
    let sections: Vec<&str> = ledger
        .lines()
        .filter_map(|l| l.strip_prefix("#### "))
        .collect();
    let expected: Vec<String> = sketchlab::report::documents::DOCUMENTS
        .iter()
        .flat_map(|d| d.headings.iter().map(move |h| format!("{} · {h}", d.id)))
        .collect();
    let mut at = 0;
    for s in &sections {
        let i = expected[at..]
            .iter()
            .position(|e| e == s)
            .unwrap_or_else(|| panic!("section {s} out of order or unknown"));
        at += i + 1;
    }
    assert!(sections.len() >= 15, "{sections:?}");
    // each study's page carries its charts, which exist
    let mut charts = 0;
    for spec in &specs {
        let name = spec.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(
            report.contains(&format!("(<{name}/README.md>)")),
            "{name}: no link to its page"
        );
        let page = std::fs::read_to_string(d.join(&name).join("README.md")).unwrap();
        for line in page.lines().filter(|l| l.starts_with("![")) {
            let path = &line[line.find("](").unwrap() + 2..line.len() - 1];
            assert!(
                d.join(&name).join(path).is_file(),
                "{name}: {path} is referenced but missing"
            );
            charts += 1;
        }
    }
    assert!(charts > specs.len(), "{charts} charts on the study pages");
}

/// A sampled claim must measure something: a "measured" value that equals
/// its theory column in every row it reads was computed from the formula
/// it is supposed to test (a row like that cannot fail).
#[test]
fn no_measured_claim_is_a_copy_of_its_theory() {
    for (name, s, tables) in committed_quick_tables() {
        let (results, summary) = (tables.results, tables.summary);
        for c in &s.claims {
            let (sketchlab::report::ledger::Basis::Measured, Some(th)) =
                (c.basis, &c.theory_metric)
            else {
                continue;
            };
            let t = match c.source {
                sketchlab::report::ledger::Source::Results => &results,
                sketchlab::report::ledger::Source::Summary => summary.as_ref().unwrap(),
            };
            let pairs: Vec<(f64, f64)> = t
                .select(&c.select)
                .filter_map(|r| Some((t.f64(r, &c.metric)?, t.f64(r, th)?)))
                .collect();
            // a sampled value meets its formula to the last bit only at a
            // boundary (a saturated filter's FPR of 1) or by being the formula
            let inside: Vec<&(f64, f64)> = pairs
                .iter()
                .filter(|(_, t)| *t != 0.0 && *t != 1.0)
                .collect();
            assert!(
                inside.is_empty() || inside.iter().any(|(m, t)| m != t),
                "{name}: {} reads {} equal to {th} in every row: a formula, not a measurement",
                c.id,
                c.metric
            );
        }
    }
}

/// Every chart every committed study declares has data: a chart, reading or
/// claim naming a column the table lacks panics (a test failure), and a chart
/// whose series all came back empty would be a figure silently missing.
#[test]
fn no_committed_chart_is_empty() {
    for (name, s, tables) in committed_quick_tables() {
        let charts = s.charts(&tables);
        assert!(
            !charts.is_empty() || !s.heatmaps(&tables).is_empty(),
            "{name}: no figures"
        );
        for c in &charts {
            assert!(
                c.series.iter().any(|se| !se.points.is_empty()),
                "{name}: chart {} has no data",
                c.stem
            );
        }
        assert!(!s.section(&tables).reading.is_empty(), "{name}: no reading");
    }
}

/// `sketchlab claims` prints the shared quick run's ledger, filtered, and
/// refuses a verdict or document it does not know (exit 2).
#[test]
fn claims_prints_the_ledger_filtered_by_verdict_and_document() {
    let d = quick_out();
    let out = |args: &[&str]| {
        let o = assert_cmd::Command::cargo_bin("sketchlab")
            .unwrap()
            .arg("claims")
            .args(args)
            .arg("--out")
            .arg(d)
            .output()
            .unwrap();
        (o.status.code(), String::from_utf8(o.stdout).unwrap())
    };
    let (code, all) = out(&[]);
    assert_eq!(code, Some(0));
    // the verdicts are the intended readings; the caveats are counted apart
    let claims = std::fs::read_to_string(d.join("claims.csv")).unwrap();
    let total = claims.lines().count() - 1;
    let caveats = claims.lines().filter(|l| l.contains(",caveat,")).count();
    assert!(caveats >= 20, "{caveats}");
    let intended = total - caveats;
    assert!(
        all.contains(&format!("\n{intended} of {intended} claims (")),
        "{all}"
    );
    assert!(
        all.lines()
            .last()
            .unwrap()
            .starts_with(&format!("{caveats} caveats, counted apart")),
        "{all}"
    );
    // --strict counts every row, caveats as verdicts of their own
    let (code, strict) = out(&["--strict"]);
    assert_eq!(code, Some(0));
    assert!(
        strict.lines().last().unwrap().starts_with(&format!(
            "{total} of {total} rows, caveats counted as verdicts"
        )),
        "{strict}"
    );
    let (_, holds) = out(&["--verdict", "does-not-hold", "--document", "002"]);
    let rows: Vec<&str> = holds.lines().filter(|l| l.starts_with("  ")).collect();
    assert!(!rows.is_empty());
    assert!(
        rows.iter().all(|l| l
            .trim_start()
            .trim_start_matches("↳ caveat ")
            .starts_with("does-not-hold")),
        "{holds}"
    );
    assert!(
        holds
            .lines()
            .filter(|l| l.contains(" · "))
            .all(|l| l.starts_with("002 · "))
    );
    for bad in [&["--verdict", "hold"][..], &["--document", "001"][..]] {
        assert_eq!(out(bad).0, Some(2), "{bad:?}");
    }
    let missing = assert_cmd::Command::cargo_bin("sketchlab")
        .unwrap()
        .args(["claims", "--out", "/nonexistent/sketchlab"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
}

/// index.html is one self-contained page: every claim of claims.csv is a row
/// carrying its verdict and document, every study a line linking to its own
/// page, and each study's page (OUT/<study>/index.html) links every chart
/// file of its folder by name; nothing is fetched (no src, href or url()
/// outside the pages and the run's own files). run.json gives every study's
/// wall seconds, in run order.
#[test]
fn index_html_carries_the_ledger_and_every_chart_inline() {
    let d = quick_out();
    let html = std::fs::read_to_string(d.join("index.html")).unwrap();
    let claims = std::fs::read_to_string(d.join("claims.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(claims.as_bytes());
    let mut n = 0;
    for rec in rdr.records() {
        let rec = rec.unwrap();
        n += 1;
        let row = format!(
            "<tr data-verdict=\"{}\" data-document=\"{}\" id=\"claim-{}\" data-reading=\"{}\"",
            &rec[7], &rec[1], &rec[0], &rec[11]
        );
        assert!(html.contains(&row), "no ledger row {row}");
    }
    assert_eq!(html.matches("<tr data-verdict=").count(), n);
    for heading in [
        "Document 000",
        "Document 002",
        "14.2 Bloom Filters",
        "The five questions",
    ] {
        assert!(html.contains(heading), "{heading}");
    }
    let run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("run.json")).unwrap()).unwrap();
    let timed: Vec<&str> = run["study_seconds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            assert!(t["seconds"].as_f64().unwrap() >= 0.0, "{t}");
            t["study"].as_str().unwrap()
        })
        .collect();
    let studies: Vec<&str> = run["studies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(timed, studies, "run.json times every study");
    let mut pages = vec![html.clone()];
    for study in run["studies"].as_array().unwrap() {
        let name = study.as_str().unwrap();
        assert!(
            html.contains(&format!("<a href=\"{name}/index.html\">{name}</a>")),
            "{name}"
        );
        let page = std::fs::read_to_string(d.join(name).join("index.html")).unwrap();
        assert!(
            page.contains("<a href=\"../index.html\">"),
            "{name}: a way back"
        );
        // each chart file of the folder (an SVG, or a heatmap's PNG) is
        // linked by its name, and nothing else is
        let mut charts: Vec<String> = std::fs::read_dir(d.join(name))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.extension().is_some_and(|x| x == "svg")
                    || (p.extension().is_some_and(|x| x == "png")
                        && !p.with_extension("svg").exists()
                        && p.file_name().is_some_and(|f| f != "index.png"))
            })
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        charts.sort();
        let mut linked: Vec<String> = page
            .split("<img class=\"chart\" ")
            .skip(1)
            .map(|t| {
                let src = &t[t.find("src=\"").unwrap() + 5..];
                src[..src.find('"').unwrap()].to_string()
            })
            .collect();
        linked.sort();
        assert_eq!(linked, charts, "{name}: its charts, linked");
        assert!(!page.contains("<svg"), "{name}: no chart copied in");
        // each claim of the study's spec is listed on its page, linked to the ledger
        let spec: toml::Table =
            toml::from_str(&std::fs::read_to_string(d.join(name).join("spec.toml")).unwrap())
                .unwrap();
        for c in spec
            .get("claim")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            let id = c["id"].as_str().unwrap();
            assert!(
                page.contains(&format!("href=\"../index.html#claim-{id}\"")),
                "{name}: claim {id}"
            );
        }
        pages.push(page);
    }
    for attr in [
        "src=\"http",
        "href=\"http",
        "url(http",
        "src=\"//",
        "href=\"//",
        "@import",
    ] {
        for page in &pages {
            assert!(!page.contains(attr), "a page fetches something: {attr}");
        }
    }
}

/// A newcomer's path: README's first command (`reproduce --quick`, the
/// shared quick run), then its index.html in a real browser.
/// scripts/check-report.sh loads a copy in headless Chromium and fails on a
/// console message, a network request, a rendered page without ledger rows
/// and charts, a page wider than its 1,400 px window (a horizontal
/// scrollbar), or a first chart that starts below the first screen
/// (skipped without chromium, except under CI).
#[test]
fn index_html_renders_in_headless_chromium() {
    let have = std::process::Command::new("sh")
        .args(["-c", "command -v chromium"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "under CI chromium must be installed (.ci/run installs it)"
        );
        return;
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::copy(quick_out().join("index.html"), d.path().join("index.html")).unwrap();
    let out = std::process::Command::new("bash")
        .arg("scripts/check-report.sh")
        .arg(d.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("no console errors, no requests"), "{said}");
    assert!(said.contains(" px wide at 1,400"), "{said}");
    assert!(said.contains("first chart "), "{said}");
    assert!(d.path().join("index.png").metadata().unwrap().len() > 10_000);
}

/// `sketchlab report` rebuilds every summary, plot, manifest, claims.csv and
/// REPORT.md from results.csv, spec.toml, manifest.json and run.json alone,
/// byte for byte.
#[test]
fn report_rebuilds_everything_from_disk_byte_identically() {
    let d = tempfile::tempdir().unwrap();
    let copy = d.path().join("copy");
    copy_tree(quick_out(), &copy);
    let before = tree(&copy);
    let kept = |p: &Path| {
        let name = p.file_name().unwrap().to_string_lossy();
        name == "results.csv"
            || name == "results.csv.xz"
            || name == "spec.toml"
            || name == "manifest.json"
            || name == "run.json"
    };
    for f in &before {
        if !kept(f) {
            std::fs::remove_file(copy.join(f)).unwrap();
        }
    }
    assert!(tree(&copy).len() < before.len() / 2);
    assert_cmd::Command::cargo_bin("sketchlab")
        .unwrap()
        .args(["report", "--quiet"])
        .arg(&copy)
        .assert()
        .success();
    assert_eq!(tree(&copy), before);
    for f in &before {
        assert!(
            std::fs::read(copy.join(f)).unwrap() == std::fs::read(quick_out().join(f)).unwrap(),
            "{} differs after `report`",
            f.display()
        );
    }
}

/// Every study sharded: the sbatch files executed as shell scripts with
/// the variables Slurm sets, tasks 0, 1, 2 of 3, then the merge job; the
/// merged results.csv and claims.csv equal the unsharded `reproduce --quick`
/// for every study whose rows are reproducible (not timing, no unseedable peer,
/// no per-process random key). A real Slurm cluster runs the same files on a
/// few studies in tests/long_runs.rs.
#[test]
fn slurm_array_shards_and_merge_equal_the_unsharded_quick_run() {
    let d = tempfile::tempdir().unwrap();
    let shared = d.path().join("shared");
    let bin = env!("CARGO_BIN_EXE_sketchlab");
    let root = env!("CARGO_MANIFEST_DIR");
    let script = |file: &str, env: &[(&str, String)]| {
        let mut c = std::process::Command::new("bash");
        c.arg(Path::new(root).join("deploy/slurm").join(file))
            .env("SKETCHLAB", bin)
            .env("SKETCHLAB_SHARED", &shared)
            .env("SKETCHLAB_FLAGS", "--quick")
            .env("SLURM_SUBMIT_DIR", root)
            .env("SLURM_CPUS_PER_TASK", "1");
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{file} {env:?}: {o:?}");
    };
    // the array's first index is 1 here (--array=1-3): shards 0/3..2/3 all the same
    for task in 1..=3 {
        script(
            "sketchlab-array.sbatch",
            &[
                ("SLURM_ARRAY_TASK_ID", task.to_string()),
                ("SLURM_ARRAY_TASK_MIN", "1".into()),
                ("SLURM_ARRAY_TASK_COUNT", "3".into()),
                ("SLURM_ARRAY_JOB_ID", "42".into()),
            ],
        );
    }
    script("sketchlab-merge.sbatch", &[("SLURM_JOB_ID", "43".into())]);
    let merged = shared.join("merged");
    let mut skipped = std::collections::HashSet::new();
    for s in sketchlab::app::load_all(Path::new("experiments")).unwrap() {
        let m: serde_json::Value = serde_json::from_slice(
            &std::fs::read(quick_out().join(&s.name).join("manifest.json")).unwrap(),
        )
        .unwrap();
        if m["reproducible"] == false || !m["process_random_key"].is_null() {
            skipped.extend(s.claims.iter().map(|c| c.id.clone()));
            continue;
        }
        for f in ["results.csv", "summary.csv"] {
            let a = sketchlab::export::read_output(&quick_out().join(&s.name), f).ok();
            let b = sketchlab::export::read_output(&merged.join(&s.name), f).ok();
            assert!(
                a == b,
                "{}/{f} differs between the shards' merge and the unsharded run",
                s.name
            );
        }
    }
    let claims = |dir: &Path| -> Vec<String> {
        std::fs::read_to_string(dir.join("claims.csv"))
            .unwrap()
            .lines()
            .filter(|l| !skipped.contains(l.split(',').next().unwrap()))
            .map(String::from)
            .collect()
    };
    let (a, b) = (claims(quick_out()), claims(&merged));
    assert!(a.len() > 100, "{} claims compared", a.len());
    assert_eq!(a, b);
}

/// A results folder explains itself: its manifest describes every column
/// of results.csv, in header order (type, role, declared field and part,
/// shape, aggregation and direction for a metric, a parameter's words); a
/// proportion is its five parts; and a row that does not read as the
/// kind's row is refused when the folder is read, naming the row.
#[test]
fn every_results_folder_describes_its_columns_and_refuses_an_unreadable_row() {
    let d = quick_out();
    let run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("run.json")).unwrap()).unwrap();
    let mut proportions = 0;
    for study in run["studies"].as_array().unwrap() {
        let dir = d.join(study.as_str().unwrap());
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
        let rows = sketchlab::export::read_output(&dir, "results.csv").unwrap();
        let header: Vec<String> = csv::Reader::from_reader(&rows[..])
            .headers()
            .unwrap()
            .iter()
            .map(String::from)
            .collect();
        let cols = m["columns"].as_array().unwrap();
        let names: Vec<&str> = cols.iter().map(|c| c["name"].as_str().unwrap()).collect();
        assert_eq!(names, header, "{study}: the schema follows the header");
        for c in cols {
            let role = c["role"].as_str().unwrap();
            assert!(
                ["parameter", "id", "measured", "timing", "theory", "setting"].contains(&role),
                "{study}: {c}"
            );
            assert!(
                ["int", "float", "text", "bool", "int_or_text"]
                    .contains(&c["type"].as_str().unwrap()),
                "{study}: {c}"
            );
            let metric = !matches!(role, "parameter" | "id");
            assert_eq!(c["better"].is_string(), metric, "{study}: {c}");
            assert_eq!(c["agg"].is_string(), metric, "{study}: {c}");
            if c["shape"] == "proportion" && c["part"] == "value" {
                proportions += 1;
                let field = c["field"].as_str().unwrap();
                let parts: Vec<&str> = cols
                    .iter()
                    .filter(|x| x["field"] == field)
                    .map(|x| x["part"].as_str().unwrap())
                    .collect();
                assert_eq!(parts, ["value", "lo", "hi", "k", "n"], "{study}: {field}");
            }
        }
    }
    assert!(proportions > 50, "{proportions} proportions");
    // heavy_hitters declares its recall higher-better; an error is
    // lower-better by default, and a setting's bound is neither
    let hh: serde_json::Value = serde_json::from_slice(
        &std::fs::read(d.join("heavy_hitters").join("manifest.json")).unwrap(),
    )
    .unwrap();
    let better = |name: &str| {
        hh["columns"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .map(|c| c["better"].as_str().unwrap().to_string())
    };
    assert_eq!(better("recall").as_deref(), Some("higher"));
    assert_eq!(better("count_error").as_deref(), Some("lower"));
    assert_eq!(better("bound_share").as_deref(), Some("neither"));
    // a row with a required cell emptied is refused by `report`, naming it
    let t = tempfile::tempdir().unwrap();
    let copy = t.path().join("copy");
    copy_tree(d, &copy);
    let dir = copy.join("bloom_fpr");
    let rows = sketchlab::export::read_output(&dir, "results.csv").unwrap();
    let text = String::from_utf8(rows).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let at = header.iter().position(|&h| h == "m").unwrap();
    let mut cells: Vec<String> = lines[1].split(',').map(String::from).collect();
    cells[at] = String::new();
    lines[1] = cells.join(",");
    let mut edited = lines.join("\n");
    edited.push('\n');
    for old in ["results.csv", "results.csv.xz", "results.csv.gz"] {
        let _ = std::fs::remove_file(dir.join(old));
    }
    std::fs::write(dir.join("results.csv"), edited).unwrap();
    let o = assert_cmd::Command::cargo_bin("sketchlab")
        .unwrap()
        .args(["--quiet", "report"])
        .arg(&copy)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("row 2: does not read as a bloom_fpr row"),
        "{err}"
    );
}
