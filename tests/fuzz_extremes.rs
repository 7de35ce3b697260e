//! Extreme values where a careless or hostile user found hangs and aborts
//! (#28): log-scale charts over subnormal and huge floats (plotters looped
//! forever), `plan` over huge counts (it allocated what it should warn
//! about), and `--threads` up to 65,535 (thread start-up never ended). Each
//! case must finish, in seconds, with a clean outcome.

use proptest::prelude::*;
use sketchlab::plot::{Chart, Point, Series, Style};

const BIN: &str = env!("CARGO_BIN_EXE_sketchlab");

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_261_204),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A positive float from anywhere in f64's range: subnormals, tiny and huge
/// normals, the extremes themselves.
fn extreme() -> impl Strategy<Value = f64> {
    prop_oneof![
        (1u64..(1 << 52)).prop_map(f64::from_bits),
        (1u64..0x7fe0_0000_0000_0000).prop_map(f64::from_bits),
        prop::sample::select(vec![
            5e-324,
            f64::MIN_POSITIVE,
            1e-300,
            1e-80,
            1.0,
            1e300,
            f64::MAX
        ]),
    ]
}

/// A count from 10^9 to 10^15, log-uniform: every trial is over the
/// calibration's budget, so `plan` must not run one (and stays fast).
fn huge_count() -> impl Strategy<Value = u64> {
    (9.0f64..15.0).prop_map(|e| 10f64.powf(e).round() as u64)
}

proptest! {
    #![proptest_config(config(24))]

    /// Every chart with log axes draws (SVG and PNG) whatever its values.
    #[test]
    fn log_charts_draw_over_any_positive_values(
        xs in prop::collection::vec(extreme(), 1..5),
        ys in prop::collection::vec(extreme(), 1..5),
    ) {
        let pts: Vec<Point> = xs.iter().zip(ys.iter().cycle()).map(|(x, y)| Point::new(*x, *y)).collect();
        let chart = Chart::new("extreme", "extreme values", "x", "y")
            .log_x()
            .log_y()
            .series(Series::new("s", Style::Points, pts));
        let d = tempfile::tempdir().unwrap();
        let files = sketchlab::plot::render_all(&[chart], &[], d.path()).unwrap();
        prop_assert_eq!(files.len(), 2);
    }

    /// `plan` over huge sizes, under a 4 GB address-space limit: exit 0
    /// (planned; `run` would refuse what does not fit) or 2 (refused at
    /// validation), never an abort.
    #[test]
    fn plan_over_huge_counts_never_allocates_them(
        kind in prop::sample::select(vec!["bloom_fpr", "count_min", "minhash", "bloom_sizing"]),
        a in huge_count(),
        b in huge_count(),
    ) {
        let grid = match kind {
            "bloom_fpr" => format!("n = {a}\nbits_per_key = 8\nqueries = {b}"),
            "count_min" => format!("universe = {a}\nupdates = {b}\nreplicates = 2"),
            "minhash" => format!("union_size = {a}\nk = {}\nreplicates = 2", b % 70_000 + 1),
            _ => format!("n = {a}\np = 0.01\nqueries = {b}"),
        };
        let d = tempfile::tempdir().unwrap();
        let spec = d.path().join("p.toml");
        std::fs::write(&spec, format!("name = \"p\"\nkind = \"{kind}\"\ndescription = \"x\"\nseed = 1\n[grid]\n{grid}\n")).unwrap();
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v 4000000 && exec timeout 60 {BIN} plan {}", spec.display()))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        prop_assert!(
            matches!(o.status.code(), Some(0) | Some(2)),
            "{kind} {grid}: {:?} {err}",
            o.status
        );
    }

    /// `--threads N` for any N: refused above 4 per core (exit 2, one line),
    /// else the tiny study runs; never a hang.
    #[test]
    fn any_thread_count_runs_or_is_refused(n in prop_oneof![1u32..16, 16u32..=65_535]) {
        let d = tempfile::tempdir().unwrap();
        let spec = d.path().join("t.toml");
        std::fs::write(&spec, "name = \"t\"\nkind = \"bloom_fpr\"\ndescription = \"x\"\nseed = 1\n[grid]\nn = 100\nbits_per_key = 8\nqueries = 100\n").unwrap();
        let out = d.path().join("out");
        let o = std::process::Command::new("timeout")
            .args(["60", BIN, "run"])
            .arg(&spec)
            .args(["--quiet", "--threads", &n.to_string(), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let cores = std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1) as u32;
        let err = String::from_utf8_lossy(&o.stderr);
        if n <= 4 * cores {
            prop_assert_eq!(o.status.code(), Some(0), "{}: {}", n, err);
        } else {
            prop_assert_eq!(o.status.code(), Some(2), "{}: {}", n, err);
            prop_assert!(err.contains("--threads") && err.trim_end().lines().count() == 1);
            prop_assert!(!out.exists());
        }
    }
}
