//! The sweep engine's parallel speed-up: one study run by the real binary at
//! 1 thread and at every core count up to the machine's (alternating, each
//! `ENGINE_REPS` times, default 1), its wall time from the manifest, and
//! whether results.csv came out byte-identical. Writes
//! `reports/speed/threads.csv`:
//! `study,quick,threads,run,seconds,trials,trials_per_s,speedup_vs_1,identical_results`
//! (only for the default full-size run; `--quick` writes threads_quick.csv).
//!
//! cargo bench --bench engine [-- --quick] [study]      (default study: bloom_fpr)

use std::path::{Path, PathBuf};
use std::process::Command;

fn seconds(dir: &Path, study: &str) -> (f64, u64) {
    let m = std::fs::read_to_string(dir.join(study).join("manifest.json")).expect("a manifest");
    let v: serde_json::Value = serde_json::from_str(&m).expect("manifest JSON");
    (
        v["seconds"].as_f64().expect("manifest seconds"),
        v["trials"].as_u64().expect("manifest trials"),
    )
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let quick = args.iter().any(|a| a == "--quick");
    let study = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .cloned()
        .unwrap_or_else(|| "bloom_fpr".into());
    let reps: usize = std::env::var("ENGINE_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bin = env!("CARGO_BIN_EXE_sketchlab");
    let spec = format!("experiments/{study}.toml");
    let tmp = std::env::temp_dir().join(format!("sketchlab-engine-{}", std::process::id()));
    let counts: Vec<usize> = if cores > 1 { vec![1, cores] } else { vec![1] };
    let mut rows = Vec::new();
    let mut reference: Option<Vec<u8>> = None;
    for run in 0..reps {
        for &threads in &counts {
            let out: PathBuf = tmp.join(format!("t{threads}-{run}"));
            let mut cmd = Command::new(bin);
            cmd.args([
                "run",
                &spec,
                "--quiet",
                "--threads",
                &threads.to_string(),
                "--out",
            ])
            .arg(&out);
            if quick {
                cmd.arg("--quick");
            }
            let st = cmd.status().expect("running sketchlab");
            assert!(st.success(), "sketchlab run {spec} failed: {st}");
            let (secs, trials) = seconds(&out, &study);
            let csv = sketchlab::export::read_output_at(&out.join(&study).join("results.csv"))
                .expect("results.csv");
            let identical = match &reference {
                None => {
                    reference = Some(csv);
                    true
                }
                Some(r) => *r == csv,
            };
            println!(
                "{study}{} threads {threads} run {run}: {secs:.1} s, {trials} trials, {:.1} trials/s, results.csv identical: {identical}",
                if quick { " --quick" } else { "" },
                trials as f64 / secs
            );
            rows.push((threads, run, secs, trials, identical));
            std::fs::remove_dir_all(&out).ok();
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
    let median_secs = |t: usize| {
        let mut v: Vec<f64> = rows.iter().filter(|r| r.0 == t).map(|r| r.2).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let one = median_secs(1);
    let mut csv = String::from(
        "study,quick,threads,run,seconds,trials,trials_per_s,speedup_vs_1,identical_results\n",
    );
    for (threads, run, secs, trials, identical) in &rows {
        csv += &format!(
            "{study},{quick},{threads},{run},{secs:.3},{trials},{:.3},{:.3},{identical}\n",
            *trials as f64 / secs,
            one / secs
        );
    }
    for &t in &counts[1..] {
        println!(
            "speed-up at {t} threads (median seconds): {:.2}× (goal ≥ 1.7× at 2)",
            one / median_secs(t)
        );
    }
    std::fs::create_dir_all("reports/speed").expect("reports/speed");
    let file = if quick {
        "reports/speed/threads_quick.csv"
    } else if study == "bloom_fpr" {
        "reports/speed/threads.csv"
    } else {
        "reports/speed/threads_other.csv"
    };
    std::fs::write(file, csv).expect("writing the CSV");
    println!("wrote {file}");
}
