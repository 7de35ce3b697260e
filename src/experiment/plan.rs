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

/// The calibration runs the cheapest trials, cheapest first, until this
/// many seconds have passed (or five trials).
const CALIBRATION_SECONDS: f64 = 0.5;

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
    pub calibration: Option<String>,
}

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
    cheap.sort_by(|a, b| a.1.work.total_cmp(&b.1.work));
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
    let (mut work, mut ran) = (0.0, 0);
    for (t, f) in cheap.iter().filter(|(_, f)| fits(f)).take(5) {
        spec.kind
            .run(&t.params, Seeds(t.seed))
            .map_err(|e| Error::Other(e.context(format!("{}: calibration trial", spec.name))))?;
        work += f.work;
        ran += 1;
        if clock.elapsed().as_secs_f64() > CALIBRATION_SECONDS {
            break;
        }
    }
    if ran == 0 {
        return Ok(());
    }
    let secs = clock.elapsed().as_secs_f64();
    plan.estimated_seconds = Some(secs / work.max(1.0) * plan.work / plan.at_once as f64);
    plan.calibration = Some(format!(
        "the {ran} cheapest trials ({} operations) took {} s",
        sig(work, 3),
        sig(secs, 3)
    ));
    Ok(())
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
        if let Some(t) = self.estimated_seconds {
            s += &format!("; about {} s", sig(t, 2));
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
    fn bytes_are_readable() {
        assert_eq!(bytes(12.0), "12 B");
        assert_eq!(bytes(12_345_678.0), "12.3 MB");
        assert_eq!(bytes(2.5e12), "2.5 TB");
    }
}
