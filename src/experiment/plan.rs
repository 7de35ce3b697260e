//! `sketchlab plan`: what a run will need before it allocates anything —
//! trials, the largest structure, the peak memory of one trial and of
//! `--threads` trials at once (plus the process itself), against what the
//! machine has available, and (for `plan` itself) a time estimate from a
//! short calibration. `run` and `reproduce` refuse a plan that does not fit.

use super::grid::Trial;
use super::kinds::Footprint;
use super::params::Seeds;
use super::runner::{self, RunOptions};
use super::spec::Spec;
use crate::error::{Error, Result};
use crate::export::markdown::sig;
use serde::Serialize;
use std::time::Instant;

/// What drawing the plots adds after the trials: a 900 x 560 RGB pixel
/// buffer, the PNG encoder's buffers and the parsed font.
const RENDER_BYTES: f64 = 4e6;

/// The calibration times trials at several sizes of work, cheapest first:
/// at each size it runs trials until this many seconds (or five trials),
/// so that tiny trials are not timed one by one.
const LEVEL_SECONDS: f64 = 0.005;

/// A trial that takes this long is its size's only one.
const LEVEL_ALONE_SECONDS: f64 = 0.5;

/// Each size of work the calibration times is at least this many times the last.
const LEVEL_STEP: f64 = 4.0;

/// The most sizes of work it times.
const MAX_LEVELS: usize = 5;

/// It stops after this many seconds once it has two sizes; a next size is
/// run only when its time, extrapolated in proportion to work, stays under
/// the larger of this and a tenth of the study's estimated time.
const CALIBRATION_SECONDS: f64 = 1.0;

/// And it never spends more than this in all.
const CALIBRATION_MAX_SECONDS: f64 = 30.0;

/// The most work (the footprint's operations) a calibration trial may do.
const CALIBRATION_MAX_WORK: f64 = 5e8;

/// The largest share of the study's work one calibration trial may be.
const CALIBRATION_MAX_SHARE: f64 = 0.5;

/// One study's plan.
#[derive(Clone, Debug, Serialize)]
pub struct Plan {
    pub study: String,
    pub quick: bool,
    pub trials: usize,
    /// Trials whose kind gives no estimate (counted as zero below).
    pub trials_without_estimate: usize,
    /// Trials that run at once (1 for timing kinds).
    pub at_once: usize,
    pub largest_structure_bytes: f64,
    pub trial_peak_bytes: f64,
    /// The process now (binary, threads, the spec) before any trial, plus
    /// what drawing the plots needs.
    pub process_bytes: f64,
    /// `process_bytes` plus the `at_once` largest trial peaks.
    pub peak_bytes: f64,
    pub available_bytes: Option<f64>,
    pub work: f64,
    pub estimated_seconds: Option<f64>,
    /// The range the time most likely falls in: the estimate divided and
    /// multiplied by [`BAND`].
    pub estimated_range_seconds: Option<(f64, f64)>,
    /// A sequential study stops each setting once it is decided: its trials
    /// and time are at most the plan's.
    pub sequential: bool,
    pub calibration: Option<String>,
}

/// The factor within which 90% of the quick studies' measured times fell
/// of the plan's estimate, when last measured (docs/plan-accuracy.md,
/// written by scripts/plan-accuracy.sh; a test keeps the two equal).
pub const BAND: f64 = 2.0;

fn footprints(spec: &Spec, trials: &[Trial]) -> Vec<Option<Footprint>> {
    trials
        .iter()
        .map(|t| spec.kind.footprint(&t.params))
        .collect()
}

/// A plan from the parameters alone (nothing allocated, nothing run).
pub fn plan(spec: &Spec, opts: &RunOptions) -> Plan {
    let trials = runner::trials(spec, opts);
    let fps = footprints(spec, &trials);
    let known: Vec<Footprint> = fps.iter().flatten().copied().collect();
    let at_once = if spec.kind.timing() {
        1
    } else {
        opts.threads.min(trials.len()).max(1)
    };
    let mut peaks: Vec<f64> = known.iter().map(|f| f.peak_bytes).collect();
    peaks.sort_by(|a, b| b.total_cmp(a));
    let process = crate::metrics::process::rss_bytes().unwrap_or(0) as f64 + RENDER_BYTES;
    let max = |f: fn(&Footprint) -> f64| known.iter().map(f).fold(0.0, f64::max);
    Plan {
        study: spec.name.clone(),
        quick: opts.quick,
        trials: trials.len(),
        trials_without_estimate: fps.iter().filter(|f| f.is_none()).count(),
        at_once,
        largest_structure_bytes: max(|f| f.structure_bytes),
        trial_peak_bytes: max(|f| f.peak_bytes),
        process_bytes: process,
        peak_bytes: process + peaks.iter().take(at_once).sum::<f64>(),
        available_bytes: crate::metrics::process::available_bytes().map(|b| b as f64),
        work: known.iter().map(|f| f.work).sum(),
        estimated_seconds: None,
        estimated_range_seconds: None,
        sequential: spec.sequential.is_some(),
        calibration: None,
    }
}

/// Runs the study's cheapest trials (nothing written; up to five, or
/// [`CALIBRATION_SECONDS`]) and scales their seconds per unit of work to the
/// whole study.
pub fn calibrate(spec: &Spec, opts: &RunOptions, plan: &mut Plan) -> Result<()> {
    let trials = runner::trials(spec, opts);
    let fps = footprints(spec, &trials);
    let mut cheap: Vec<(&Trial, Footprint)> = trials
        .iter()
        .zip(&fps)
        .filter_map(|(t, f)| f.map(|f| (t, f)))
        .collect();
    // cheapest first; among trials of equal work, in the order of their
    // ids (a hash of the setting), so that a size's sample spreads over
    // the grid rather than taking its first corner (one structure, one key)
    cheap.sort_by(|a, b| a.1.work.total_cmp(&b.1.work).then(a.0.id.cmp(&b.0.id)));
    // a calibration trial must be cheap: a quarter of the memory available
    // (at most 4 GB) and a bounded amount of work, else it is not run (plan
    // must never allocate what it is there to warn about)
    let budget = plan.available_bytes.map_or(2e9, |a| a / 4.0).min(4e9);
    // nor may it be a good part of the study itself: a study of one trial
    // (or a few large ones) is not run to estimate how long it runs (#40)
    let max_work = CALIBRATION_MAX_WORK.min(plan.work * CALIBRATION_MAX_SHARE);
    let fits = |f: &Footprint| f.peak_bytes <= budget && f.work <= max_work;
    if let Some((_, f)) = cheap.first()
        && !cheap.iter().any(|(_, f)| fits(f))
    {
        let too_big = f.peak_bytes > budget || f.work > CALIBRATION_MAX_WORK;
        plan.calibration = Some(if !too_big {
            format!(
                "not run: the cheapest trial is {:.0}% of the study's work (a calibration trial may be at most {:.0}% of it: it must not run the study it estimates)",
                100.0 * f.work / plan.work.max(1.0),
                100.0 * CALIBRATION_MAX_SHARE
            )
        } else {
            format!(
                "not run: the cheapest trial needs {} and {} operations, over what a calibration may take ({} and {} operations)",
                bytes(f.peak_bytes),
                sig(f.work, 3),
                bytes(budget),
                sig(CALIBRATION_MAX_WORK, 3)
            )
        });
        return Ok(());
    }
    let clock = Instant::now();
    let usable: Vec<&(&Trial, Footprint)> = cheap.iter().filter(|(_, f)| fits(f)).collect();
    // (mean work, mean seconds) per size of work timed
    let mut levels: Vec<(f64, f64)> = Vec::new();
    let mut ran = 0;
    let mut i = 0;
    // what the first trial took beyond its size's median: paid once per
    // process (tables built on first use, a peer started), so once per study
    let mut once = 0.0;
    while i < usable.len() && levels.len() < MAX_LEVELS {
        // at least three trials where they are quick, so that the first
        // trial's one-time costs (page faults, tables built on first use)
        // are a median's outlier, not the size's time
        let (mut work, mut secs, mut rates) = (0.0, 0.0, Vec::new());
        while i < usable.len()
            && rates.len() < 5
            && (rates.len() < 3 || secs < LEVEL_SECONDS)
            && secs <= LEVEL_ALONE_SECONDS
        {
            let (t, f) = usable[i];
            let start = Instant::now();
            spec.kind.run(&t.params, Seeds(t.seed)).map_err(|e| {
                Error::Other(e.context(format!("{}: calibration trial", spec.name)))
            })?;
            let took = start.elapsed().as_secs_f64();
            secs += took;
            work += f.work;
            rates.push(took / f.work.max(1.0));
            i += 1;
        }
        let count = rates.len();
        ran += count;
        // the first trial of all pays what a process pays once: the size's
        // rate is the mean of the others (trials differ: a mean, not a median)
        let skip = usize::from(levels.is_empty() && count >= 2);
        let rate = rates[skip..].iter().sum::<f64>() / (count - skip) as f64;
        let first_work = usable[i - count].1.work.max(1.0);
        if skip == 1 {
            once = ((rates[0] - rate) * first_work).max(0.0);
        }
        levels.push((work / count as f64, rate * work / count as f64));
        // the next size: the first trial with LEVEL_STEP times the work
        let last = levels[levels.len() - 1];
        let Some(next) = usable[i..]
            .iter()
            .position(|(_, f)| f.work >= last.0 * LEVEL_STEP)
        else {
            break;
        };
        i += next;
        let spent = clock.elapsed().as_secs_f64();
        let estimate = once + makespan(&predict(&levels, &fps), plan.at_once);
        let next_secs = last.1 * usable[i].1.work / last.0.max(1.0);
        if (levels.len() >= 2 && spent > CALIBRATION_SECONDS)
            || spent + next_secs > CALIBRATION_MAX_SECONDS
            || next_secs > CALIBRATION_SECONDS.max(0.1 * estimate)
        {
            break;
        }
    }
    if ran == 0 {
        return Ok(());
    }
    let secs = clock.elapsed().as_secs_f64();
    let estimate = once + makespan(&predict(&levels, &fps), plan.at_once);
    plan.estimated_seconds = Some(estimate);
    plan.estimated_range_seconds = Some((estimate / BAND, estimate * BAND));
    let (fixed, per_op) = fit(&levels);
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let (lo, hi) = (levels[0].0, levels[levels.len() - 1].0);
    plan.calibration = Some(format!(
        "{} at {} ({} operations) took {} s: a trial costs {} s plus {} s per million operations{}",
        plural(ran, "trial", "trials"),
        plural(levels.len(), "size of work", "sizes of work"),
        if levels.len() == 1 {
            sig(lo, 3)
        } else {
            format!("{} to {}", sig(lo, 3), sig(hi, 3))
        },
        sig(secs, 3),
        sig(fixed, 2),
        sig(per_op * 1e6, 2),
        if once > 0.0 {
            format!(", and the first {} s more", sig(once, 2))
        } else {
            String::new()
        }
    ));
    Ok(())
}

/// seconds = a + b·work through the timed sizes: a trial's fixed cost and
/// its cost per operation, fitted to minimise the relative error (a and b
/// kept ≥ 0; through one size, all of it per operation).
fn fit(levels: &[(f64, f64)]) -> (f64, f64) {
    let pts: Vec<(f64, f64)> = levels
        .iter()
        .map(|&(w, t)| (w.max(1.0), t.max(1e-9)))
        .collect();
    let per_op = |pts: &[(f64, f64)]| {
        pts.iter().map(|(w, t)| w / t).sum::<f64>()
            / pts.iter().map(|(w, t)| (w / t).powi(2)).sum::<f64>()
    };
    if pts.len() < 2 {
        return (0.0, per_op(&pts));
    }
    // normal equations of Σ ((a + b·w − t) / t)²
    let (mut s11, mut s12, mut s22, mut r1, mut r2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (w, t) in &pts {
        let (x1, x2) = (1.0 / t, w / t);
        s11 += x1 * x1;
        s12 += x1 * x2;
        s22 += x2 * x2;
        r1 += x1;
        r2 += x2;
    }
    let det = s11 * s22 - s12 * s12;
    let (a, b) = if det.abs() > 1e-300 {
        ((r1 * s22 - r2 * s12) / det, (s11 * r2 - s12 * r1) / det)
    } else {
        (-1.0, 0.0)
    };
    if a >= 0.0 && b >= 0.0 {
        (a, b)
    } else if a < 0.0 {
        (0.0, per_op(&pts))
    } else {
        (r1 / s11, 0.0)
    }
}

/// Each trial's seconds from the fit (0 for a trial without an estimate).
fn predict(levels: &[(f64, f64)], fps: &[Option<Footprint>]) -> Vec<f64> {
    let (a, b) = fit(levels);
    fps.iter()
        .map(|f| f.map_or(0.0, |f| a + b * f.work.max(1.0)))
        .collect()
}

/// The wall time of trials handed out in order to `workers` threads, each
/// taking the next trial when it is free (as the runner does).
fn makespan(secs: &[f64], workers: usize) -> f64 {
    let mut free = vec![0.0f64; workers.max(1)];
    for s in secs {
        let w = (0..free.len())
            .min_by(|&a, &b| free[a].total_cmp(&free[b]))
            .unwrap_or(0);
        free[w] += s;
    }
    free.into_iter().fold(0.0, f64::max)
}

/// Bytes for people: `12.3 MB`.
pub fn bytes(b: f64) -> String {
    crate::export::markdown::bytes(b, crate::export::markdown::ByteUnits::Si)
}

impl Plan {
    /// One line: what `run` and `reproduce` print first.
    pub fn line(&self) -> String {
        let mut s = format!(
            "plan {}{}: {} trials; largest structure {}; peak {} per trial, {} with {} at once and the process",
            self.study,
            if self.quick { " (quick)" } else { "" },
            self.trials,
            bytes(self.largest_structure_bytes),
            bytes(self.trial_peak_bytes),
            bytes(self.peak_bytes),
            self.at_once,
        );
        if let Some(a) = self.available_bytes {
            s += &format!(" (available: {})", bytes(a));
        }
        if self.trials_without_estimate > 0 {
            s += &format!(
                "; {} trials without an estimate",
                self.trials_without_estimate
            );
        }
        if let (Some(t), Some((lo, hi))) = (self.estimated_seconds, self.estimated_range_seconds) {
            s += &format!(
                "; {}about {} s ({} to {} s)",
                if self.sequential { "at most " } else { "" },
                sig(t, 2),
                sig(lo, 2),
                sig(hi, 2)
            );
            if self.sequential {
                s += ", fewer as settings are decided";
            }
        }
        s
    }

    /// Refuses (exit 2, one line) when the peak exceeds the memory available.
    pub fn check(&self, spec: &Spec) -> Result<()> {
        let Some(avail) = self.available_bytes else {
            return Ok(());
        };
        if self.peak_bytes <= avail {
            return Ok(());
        }
        let one = self.process_bytes + self.trial_peak_bytes;
        let change = if self.at_once > 1 && one <= avail {
            let fit = ((avail - self.process_bytes) / self.trial_peak_bytes)
                .floor()
                .max(1.0);
            format!("run fewer trials at once (--threads {fit})")
        } else {
            "make the largest trial smaller (its sizes in the spec, or --quick)".into()
        };
        Err(Error::file(
            &spec.path,
            format!(
                "needs about {} ({} trials at once of up to {} each, plus {} for the process) but {} is available: {change}",
                bytes(self.peak_bytes),
                self.at_once,
                bytes(self.trial_peak_bytes),
                bytes(self.process_bytes),
                bytes(avail),
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_follows_work_and_the_makespan_the_workers() {
        // seconds = 0.01 + 1e-8 · work, timed at three sizes
        let levels = [(1e4, 0.0101), (1e6, 0.02), (1e8, 1.01)];
        let (a, b) = fit(&levels);
        assert!(
            (a - 0.01).abs() < 1e-9 && (b - 1e-8).abs() < 1e-15,
            "{a} {b}"
        );
        let fps = [Some(Footprint::one(0.0, 1e9)), None];
        let p = predict(&levels, &fps);
        assert!((p[0] - 10.01).abs() < 1e-6 && p[1] == 0.0);
        // one size: in proportion to work
        assert_eq!(fit(&[(100.0, 1.0)]), (0.0, 0.01));
        // a fixed cost alone: no cost per operation
        let (a, b) = fit(&[(10.0, 2.0), (1000.0, 2.0)]);
        assert!((a - 2.0).abs() < 1e-9 && b.abs() < 1e-15, "{a} {b}");
        assert_eq!(makespan(&[3.0, 1.0, 1.0, 1.0], 2), 3.0);
        assert_eq!(makespan(&[1.0, 1.0, 1.0], 1), 3.0);
    }

    /// BAND is the factor the committed accuracy table measured, and the
    /// table lists every study.
    #[test]
    fn the_band_is_the_one_measured() {
        let doc = std::fs::read_to_string("docs/plan-accuracy.md").unwrap_or_default();
        let band: f64 = doc
            .lines()
            .find_map(|l| l.strip_prefix("band: "))
            .expect("docs/plan-accuracy.md states its band")
            .parse()
            .unwrap();
        assert_eq!(
            band, BAND,
            "rerun scripts/plan-accuracy.sh, then set BAND to its band"
        );
        for spec in std::fs::read_dir("experiments").unwrap() {
            let name = spec
                .unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            assert!(
                doc.contains(&format!("| `{name}`")),
                "{name} is not in docs/plan-accuracy.md"
            );
        }
    }

    #[test]
    fn bytes_are_readable() {
        assert_eq!(bytes(12.0), "12 B");
        assert_eq!(bytes(12_345_678.0), "12.3 MB");
        assert_eq!(bytes(2.5e12), "2.5 TB");
    }
}
