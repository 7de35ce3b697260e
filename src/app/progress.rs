//! Where a run is: a redrawn bar on a terminal, else (a CI log, `nohup`) a
//! line with the trials done and the ETA every ten seconds.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// How often a run whose stderr is not a terminal (a CI log, `nohup`) says
/// where it is.
const PROGRESS_LINE_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// The run's progress: a bar on a terminal, a line every ten seconds
/// elsewhere, nothing with `--quiet`.
pub(super) fn progress(total: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    if !std::io::stderr().is_terminal() {
        // no bar to redraw: one line every ten seconds while the run lasts
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let weak = bar.downgrade();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(PROGRESS_LINE_EVERY);
                let Some(bar) = weak.upgrade() else { break };
                if bar.is_finished() {
                    break;
                }
                let (pos, len) = (bar.position(), bar.length().unwrap_or(0));
                let eta = if pos > 0 && len > pos {
                    format!(", ETA {}", indicatif::HumanDuration(bar.eta()))
                } else {
                    String::new()
                };
                eprintln!(
                    "progress: {} {pos}/{len} trials, {} elapsed{eta}",
                    bar.message(),
                    indicatif::HumanDuration(bar.elapsed())
                );
            }
        });
        return bar;
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:>16} [{bar:40}] {pos}/{len} trials  {elapsed_precise}  ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}
