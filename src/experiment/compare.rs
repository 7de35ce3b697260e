//! `sketchlab compare OLD NEW`: two runs side by side, per study and metric.
//!
//! Rows are matched by their setting (the kind's key columns and the
//! replicate). A metric moved when its own uncertainty says so, never by a
//! fixed percentage:
//! - a proportion (an FPR): a two-proportion z test on its counts, |z| > 3.29
//!   (99.9% two-sided);
//! - an interval or estimate (a mean, a median of timed repetitions): the two
//!   95% intervals are disjoint. For a timing kind the interval is the
//!   run-to-run spread of the repetitions measured in that directory, so a
//!   speed change is flagged only beyond its own noise;
//! - a plain measured value (a count): any change (the same spec and seed
//!   give byte-identical rows, so a change is the code's or the data's).
//!
//! Derived settings and theory columns (`Same` fields) are not compared.
//! Claims whose verdict differs between the two `claims.csv` are listed.

use super::kinds::{self, Kind};
use super::row::{Better, Role, Shape};
use crate::error::{Error, Result};
use crate::export::{self, Manifest};
use crate::table::{ColType, Is, Table, Value};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use super::compare_side::{Side, open_side};

/// |z| beyond which a proportion moved (99.9% two-sided).
pub const Z_MOVED: f64 = 3.29;

/// One metric of one study across the matched settings.
#[derive(Clone, Debug, Serialize)]
pub struct MetricChange {
    pub study: String,
    pub metric: String,
    /// `proportion`, `interval` or `value`.
    pub test: &'static str,
    pub timing: bool,
    pub settings: usize,
    pub moved: usize,
    /// Of the moved settings, those where the new value is worse.
    pub worse: usize,
    /// Median of new/old over the matched settings.
    pub median_ratio: Option<f64>,
    /// The largest move, in words (`setting: old → new`).
    pub largest: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct StudyMatch {
    pub study: String,
    pub old_rows: usize,
    pub new_rows: usize,
    pub matched: usize,
    /// Parameters with one value in each run, different between them
    /// (`name: old → new`): rows are matched without them.
    pub changed: Vec<String>,
    /// Matched trials drew from different seeds (another --seed, or a
    /// changed parameter: a trial's seed derives from its parameters): plain
    /// values (no interval) are not compared, and a proportion also varies
    /// with the structure's own randomness, which the z test does not cover.
    pub seeds_differ: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClaimChange {
    pub claim_id: String,
    pub old: String,
    pub new: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub old: String,
    pub new: String,
    pub only_old: Vec<String>,
    pub only_new: Vec<String>,
    pub studies: Vec<StudyMatch>,
    pub metrics: Vec<MetricChange>,
    pub claims: Vec<ClaimChange>,
}

/// The studies of an output directory: folder name → (kind, results, seed).
type Studies = BTreeMap<String, (&'static dyn Kind, Table, u64)>;

/// A row's trial seed: its study's seed and its `trial_id` (verified to be
/// the row's own by [`super::verify`]), as the runner derived it.
fn row_seed(t: &Table, r: &[Value], spec_seed: u64) -> Option<u64> {
    let id = u64::from_str_radix(&t.str(r, "trial_id"), 16).ok()?;
    Some(super::grid::trial_seed(spec_seed, id))
}

/// Every study of an output directory, verified before it is trusted
/// ([`super::verify`]); anything that cannot be read is an error naming
/// it (exit 2), never a study left out: a comparison fails closed.
fn studies(side: &Side) -> Result<Studies> {
    let dir = &side.dir;
    let label = |p: &Path| side.shown(p);
    // a folder `report` would refuse as mixed (another --seed, quick and
    // full, a stray study of another run) is refused here too, first
    if std::fs::symlink_metadata(dir.join("run.json")).is_ok() {
        let run = super::report_stage::RunRecord::read(dir)?;
        super::report_stage::check_one_run(dir, &run).map_err(|e| match e {
            Error::Input(msg) => Error::Input(side.shown_text(&msg)),
            e => e,
        })?;
    }
    let mut out = BTreeMap::new();
    let mut folders: BTreeMap<String, PathBuf> = BTreeMap::new();
    let entries =
        std::fs::read_dir(dir).map_err(|e| Error::file(dir, format!("cannot read: {e}")))?;
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for d in entries {
        let mpath = d.join("manifest.json");
        // a folder without a manifest is not a study (baselines/, a chart folder)
        if std::fs::symlink_metadata(&mpath).is_err() {
            continue;
        }
        let bytes = crate::input::read(&mpath, crate::input::SMALL)
            .map_err(|e| Error::file(&label(&mpath), format!("cannot read: {e}")))?;
        let m = Manifest::from_bytes(&bytes)
            .map_err(|e| Error::file(&label(&mpath), format!("{e:#}")))?;
        let kind = kinds::find(&m.kind).ok_or_else(|| {
            Error::file(
                &label(&mpath),
                format!(
                    "kind {:?} is not one this build knows (a user's own kind, or another version of sketchlab): it cannot be compared",
                    m.kind
                ),
            )
        })?;
        let rows_path = export::output_path(&d, "results.csv").unwrap_or(d.join("results.csv"));
        let rows = export::read_output(&d, "results.csv")
            .map_err(|e| Error::file(&label(&rows_path), format!("cannot read: {e}")))?;
        let t = export::csv::parse(&rows, &kind.columns())
            .map_err(|e| Error::file(&label(&rows_path), format!("{e:#}")))?;
        let spec_path = d.join("spec.toml");
        let source = crate::input::read_string(&spec_path, crate::input::SMALL)
            .map_err(|e| Error::file(&label(&spec_path), format!("cannot read: {e}")))?;
        let spec = super::spec::Spec::parse(Path::new(&m.spec_path), &source)?;
        super::verify::study(&d, &m, &spec, &t).map_err(|e| match e {
            Error::Input(msg) => Error::Input(side.shown_text(&msg)),
            e => e,
        })?;
        if let Some(other) = folders.insert(m.study.clone(), d.clone()) {
            return Err(Error::Input(format!(
                "{} and {} both hold study {} (a copied or renamed folder): compare cannot tell which is the run's",
                label(&other).display(),
                label(&d).display(),
                m.study
            )));
        }
        out.insert(m.study.clone(), (kind, t, m.seed));
    }
    if out.is_empty() {
        return Err(Error::Input(format!(
            "{}: holds no study (no folder with a manifest.json): an output directory of `sketchlab run`, `reproduce` or `merge` is compared",
            side.label
        )));
    }
    Ok(out)
}

/// A row's setting: its key columns and replicate, as text.
fn setting(t: &Table, r: &[Value], keys: &[String]) -> String {
    keys.iter()
        .map(|k| format!("{k}={}", t.str(r, k)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn num(t: &Table, r: &[Value], col: &str) -> Option<f64> {
    t.f64(r, col).filter(|x| x.is_finite())
}

/// Whether `metric` moved between two rows, and by which test.
fn moved(
    shape: Shape,
    name: &str,
    (ta, a): (&Table, &[Value]),
    (tb, b): (&Table, &[Value]),
) -> Option<(bool, f64, f64)> {
    let (x, y) = (num(ta, a, name)?, num(tb, b, name)?);
    // a field's other parts, through the columns' declared parts
    let part = |t: &Table, r: &[Value], is: Is| r.get(t.sibling(name, is)?)?.as_f64();
    let lohi = |t: &Table, r: &[Value]| Some((part(t, r, Is::Lo)?, part(t, r, Is::Hi)?));
    let m = match shape {
        Shape::Proportion => {
            let (k1, n1) = (part(ta, a, Is::K)?, part(ta, a, Is::N)?);
            let (k2, n2) = (part(tb, b, Is::K)?, part(tb, b, Is::N)?);
            crate::stats::two_proportion_z(k1, n1, k2, n2).abs() > Z_MOVED
        }
        Shape::Interval | Shape::Estimate => {
            let ((l1, h1), (l2, h2)) = (lohi(ta, a)?, lohi(tb, b)?);
            h1 < l2 || h2 < l1
        }
        Shape::Scalar(_) => (x - y).abs() > 1e-12 * x.abs().max(y.abs()),
    };
    Some((m, x, y))
}

/// Compares every study both directories hold.
pub fn compare(old: &Side, new: &Side) -> Result<Comparison> {
    let (a, b) = (studies(old)?, studies(new)?);
    let mut c = Comparison {
        old: old.label.clone(),
        new: new.label.clone(),
        only_old: a.keys().filter(|k| !b.contains_key(*k)).cloned().collect(),
        only_new: b.keys().filter(|k| !a.contains_key(*k)).cloned().collect(),
        studies: vec![],
        metrics: vec![],
        claims: claims(old, new)?,
    };
    for (study, (kind, ta, seed_a)) in &a {
        let Some((kind_b, tb, seed_b)) = b.get(study) else {
            continue;
        };
        if kind.name() != kind_b.name() {
            continue;
        }
        let mut keys: Vec<String> = kind.key_columns().into_iter().map(|c| c.name).collect();
        keys.push("replicate".into());
        // a parameter with one value in each run, not the same one, is what
        // the runs differ in: match the rows without it
        let mut changed = Vec::new();
        keys.retain(|k| {
            let levels = |t: &Table| {
                let mut v: Vec<String> = t.rows.iter().map(|r| t.str(r, k)).collect();
                v.sort();
                v.dedup();
                v
            };
            let (la, lb) = (levels(ta), levels(tb));
            let differs = la.len() == 1 && lb.len() == 1 && la != lb;
            if differs {
                changed.push(format!("{k}: {} → {}", la[0], lb[0]));
            }
            !differs
        });
        let index: BTreeMap<String, &Vec<Value>> =
            tb.rows.iter().map(|r| (setting(tb, r, &keys), r)).collect();
        let pairs: Vec<(String, &Vec<Value>, &Vec<Value>)> = ta
            .rows
            .iter()
            .filter_map(|r| {
                let s = setting(ta, r, &keys);
                index.get(&s).map(|rb| (s, r, *rb))
            })
            .collect();
        // a trial's seed derives from the spec's seed and its identity: a
        // changed parameter or --seed gives the structures other randomness
        // (once per pair, not once per pair and metric)
        let same_seed: Vec<bool> = pairs
            .iter()
            .map(|(_, ra, rb)| row_seed(ta, ra, *seed_a) == row_seed(tb, rb, *seed_b))
            .collect();
        let seeds_differ = same_seed.contains(&false);
        c.studies.push(StudyMatch {
            study: study.clone(),
            old_rows: ta.rows.len(),
            new_rows: tb.rows.len(),
            matched: pairs.len(),
            changed,
            seeds_differ,
        });
        for f in kind.fields() {
            // the schema says what a field is: a setting or a formula's
            // value is not a result that can regress
            if f.role != Role::Measured || f.better == Better::Neither {
                continue;
            }
            if let Shape::Scalar(ty) = f.shape
                && !matches!(ty, ColType::Int | ColType::Float | ColType::IntOrStr)
            {
                continue;
            }
            let higher_better = f.better == Better::Higher;
            let mut ch = MetricChange {
                study: study.clone(),
                metric: f.name.to_string(),
                test: match f.shape {
                    Shape::Proportion => "proportion",
                    Shape::Interval | Shape::Estimate => "interval",
                    Shape::Scalar(_) => "value",
                },
                timing: kind.timing(),
                settings: 0,
                moved: 0,
                worse: 0,
                median_ratio: None,
                largest: None,
            };
            let tests: Vec<(&String, bool, f64, f64)> = pairs
                .iter()
                .zip(&same_seed)
                .filter_map(|((s, ra, rb), &same)| {
                    // a plain value (no interval) is judged only between
                    // trials of the same seed, where it is deterministic
                    if !same && matches!(f.shape, Shape::Scalar(_)) {
                        return None;
                    }
                    let (m, x, y) = moved(f.shape, f.name, (ta, ra), (tb, rb))?;
                    Some((s, m, x, y))
                })
                .collect();
            // timed medians: the run-to-run noise measured here is the spread
            // of ln(new/old) over the settings (1.4826·MAD, a robust σ); a
            // setting moved when its intervals are disjoint and its ratio is
            // beyond 3σ of 1 (a uniform slowdown is flagged: the spread is
            // measured around the median, the test around no change)
            let noise = if kind.timing() {
                let mut l: Vec<f64> = tests
                    .iter()
                    .filter(|(_, _, x, y)| *x > 0.0 && *y > 0.0)
                    .map(|(_, _, x, y)| (y / x).ln())
                    .collect();
                l.sort_by(f64::total_cmp);
                let med = l.get(l.len() / 2).copied().unwrap_or(0.0);
                let mut dev: Vec<f64> = l.iter().map(|v| (v - med).abs()).collect();
                dev.sort_by(f64::total_cmp);
                dev.get(dev.len() / 2).map(|d| 3.0 * 1.4826 * d)
            } else {
                None
            };
            let mut ratios = Vec::new();
            let mut biggest = 0.0f64;
            for (s, m, x, y) in tests {
                let m = m && noise.is_none_or(|n| x > 0.0 && y > 0.0 && (y / x).ln().abs() > n);
                ch.settings += 1;
                if x != 0.0 {
                    ratios.push(y / x);
                }
                if m {
                    ch.moved += 1;
                    ch.worse += ((y > x) != higher_better) as usize;
                    let size = if x != 0.0 {
                        (y / x).ln().abs()
                    } else {
                        f64::INFINITY
                    };
                    if size >= biggest {
                        biggest = size;
                        let sig = |v: f64| export::markdown::sig(v, 4);
                        ch.largest = Some(format!("{s}: {} → {}", sig(x), sig(y)));
                    }
                }
            }
            if ch.settings == 0 {
                continue;
            }
            ratios.sort_by(f64::total_cmp);
            ch.median_ratio = (!ratios.is_empty()).then(|| ratios[ratios.len() / 2]);
            c.metrics.push(ch);
        }
    }
    Ok(c)
}

/// Claims whose verdict differs between the two directories' claims.csv.
/// A claims.csv that cannot be read or parsed, or one side's missing while
/// the other has one, is an error (a gate on verdicts must not pass on a
/// deleted or broken ledger).
fn claims(old: &Side, new: &Side) -> Result<Vec<ClaimChange>> {
    let read = |side: &Side| -> Result<Option<BTreeMap<String, String>>> {
        let path = side.dir.join("claims.csv");
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(None);
        }
        let shown = side.shown(&path);
        let bytes = crate::input::read(&path, crate::input::table_bound())
            .map_err(|e| Error::file(&shown, format!("cannot read: {e}")))?;
        let mut r = csv::Reader::from_reader(&bytes[..]);
        let h = r
            .headers()
            .cloned()
            .map_err(|e| Error::file(&shown, format!("not a claims ledger: {e}")))?;
        let (Some(id), Some(v)) = (
            h.iter().position(|c| c == "claim_id"),
            h.iter().position(|c| c == "verdict"),
        ) else {
            return Err(Error::file(
                &shown,
                "not a claims ledger (no claim_id and verdict columns)",
            ));
        };
        let mut out = BTreeMap::new();
        for (i, rec) in r.records().enumerate() {
            let rec = rec.map_err(|e| Error::file(&shown, format!("record {}: {e}", i + 1)))?;
            let (Some(cid), Some(verdict)) = (rec.get(id), rec.get(v)) else {
                return Err(Error::file(
                    &shown,
                    format!("record {}: too few fields", i + 1),
                ));
            };
            if out.insert(cid.to_string(), verdict.to_string()).is_some() {
                return Err(Error::file(
                    &shown,
                    format!("claim {cid} is listed twice (an edited or concatenated ledger)"),
                ));
            }
        }
        Ok(Some(out))
    };
    let (a, b) = match (read(old)?, read(new)?) {
        (Some(a), Some(b)) => (a, b),
        (None, None) => return Ok(vec![]),
        (a, _) => {
            let (has, lacks) = if a.is_some() { (old, new) } else { (new, old) };
            return Err(Error::Input(format!(
                "{} has no claims.csv while {} has one: compare both ledgers or neither",
                lacks.label, has.label
            )));
        }
    };
    Ok(a.iter()
        .filter_map(|(id, va)| {
            let vb = b.get(id)?;
            (va != vb).then(|| ClaimChange {
                claim_id: id.clone(),
                old: va.clone(),
                new: vb.clone(),
            })
        })
        .collect())
}

impl Comparison {
    /// The moved metrics named in `fail_on` that got worse.
    pub fn regressions(&self, fail_on: &[String]) -> Vec<&MetricChange> {
        self.metrics
            .iter()
            .filter(|m| m.worse > 0 && fail_on.contains(&m.metric))
            .collect()
    }

    pub fn markdown(&self) -> String {
        let mut s = format!("# compare: {} → {}\n\n", self.old, self.new);
        s += &format!(
            "A proportion moved when a two-proportion z test gives |z| > {Z_MOVED} (99.9%); an interval (a mean, or a timed median with its spread over repetitions) when the two 95% intervals are disjoint; a plain count when it changed.\n\n"
        );
        if !self.only_old.is_empty() || !self.only_new.is_empty() {
            s += &format!(
                "Only in {}: {}. Only in {}: {}.\n\n",
                self.old,
                list(&self.only_old),
                self.new,
                list(&self.only_new)
            );
        }
        for st in &self.studies {
            if !st.changed.is_empty() {
                s += &format!(
                    "{}: the runs differ in {}; rows matched without it.\n",
                    st.study,
                    st.changed.join(", ")
                );
            }
            if st.matched < st.old_rows.max(st.new_rows) {
                s += &format!(
                    "{}: {} of {} old and {} new rows matched by setting (the others differ in a parameter).\n",
                    st.study, st.matched, st.old_rows, st.new_rows
                );
            }
            if st.seeds_differ {
                s += &format!(
                    "{}: the matched trials drew from different seeds (another --seed or a changed parameter), so plain values are not compared, and a proportion also varies with each structure's own randomness (a filter's fill), which the z test does not cover: expect more than 0.1% of settings to move.\n",
                    st.study
                );
            }
        }
        let moved: Vec<&MetricChange> = self.metrics.iter().filter(|m| m.moved > 0).collect();
        s += &format!(
            "\n{} of {} metrics moved in at least one setting.\n\n",
            moved.len(),
            self.metrics.len()
        );
        if !moved.is_empty() {
            s += "| study | metric | test | settings | moved | worse | median new/old | largest move |\n|---|---|---|---|---|---|---|---|\n";
            for m in moved {
                s += &format!(
                    "| {} | {} | {}{} | {} | {} | {} | {} | {} |\n",
                    m.study,
                    m.metric,
                    m.test,
                    if m.timing { " (timed)" } else { "" },
                    m.settings,
                    m.moved,
                    m.worse,
                    m.median_ratio
                        .map_or("—".into(), |r| export::markdown::sig(r, 4)),
                    m.largest.as_deref().unwrap_or("—")
                );
            }
        }
        if self.claims.is_empty() {
            s += "\nNo claim changed its verdict.\n";
        } else {
            s += "\n| claim | old verdict | new verdict |\n|---|---|---|\n";
            for c in &self.claims {
                s += &format!("| {} | {} | {} |\n", c.claim_id, c.old, c.new);
            }
        }
        s
    }
}

fn list(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}
