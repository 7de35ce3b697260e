//! `sketchlab hllpp-bias`.

use crate::error::Result;
use crate::export;
use std::path::Path;

/// `sketchlab hllpp-bias`: simulates the bias tables for p = 4..=18 and
/// writes them with their provenance (byte-identical at any thread count).
pub(super) fn hllpp_bias(
    trials: u64,
    seed: u64,
    file: &Path,
    pool: &rayon::ThreadPool,
    quiet: bool,
) -> Result<()> {
    use crate::structures::hyperloglog::hllpp;
    use rayon::prelude::*;
    // the output must be a new name or a regular file with one name (not a
    // device, a FIFO, a folder or a link): checked before any work
    crate::export::contain::check_file(file)?;
    let started = std::time::Instant::now();
    let mut points = Vec::new();
    for p in 4..=18u32 {
        let runs: Vec<Vec<f64>> = pool.install(|| {
            (0..trials)
                .into_par_iter()
                .map(|t| hllpp::simulate_trial(p, seed, t))
                .collect()
        });
        points.extend(hllpp::table_points(p, &runs));
    }
    let provenance = [
        "HyperLogLog++ bias tables (Heule, Nunkesser, Hall 2013, section 5.2), derived by sketchlab's own simulation, not copied from any implementation.".to_string(),
        format!("made by: sketchlab hllpp-bias --trials {trials} --seed {seed} {}", file.display()),
        format!("method: for each p in 4..=18, {trials} sketches (m = 2^p registers, Redis's index/rank layout) fed distinct ideal 64-bit hash words (splitmix64 of a counter from a per-trial start); at n = ceil(5m*j/{}) for j = 1..{} (deduplicated), raw_mean = the mean over the sketches of the raw estimate alpha_m*m^2/sum(2^-M), bias = raw_mean - n.", hllpp::POINTS, hllpp::POINTS),
        "use: hllpp subtracts the mean bias of the 6 points whose raw_mean is nearest the raw estimate, when that estimate is at most 5m.".to_string(),
        format!("trials: {trials}"),
        format!("seed: {seed}"),
    ];
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        export::contain::dir_within(dir, Path::new(""))?;
    }
    // written whole or not at all; a failed write (a full disk) is I/O, exit 1
    export::write_atomic(file, hllpp::to_csv(&points, &provenance).as_bytes())?;
    if !quiet {
        super::say(format_args!(
            "wrote {} ({} points, {trials} sketches per p, {:.1} s)",
            file.display(),
            points.len(),
            started.elapsed().as_secs_f64()
        ));
    }
    Ok(())
}
