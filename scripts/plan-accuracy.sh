#!/usr/bin/env bash
# How close `sketchlab plan` comes to the time a study takes: runs a quick
# reproduce (or reads one), plans every quick study with the same threads,
# and writes docs/plan-accuracy.md (a table of planned against measured
# seconds per study, and the factor 90% of them fall within, which
# src/experiment/plan.rs's BAND must equal: tests/cli.rs checks it).
#
#   scripts/plan-accuracy.sh [QUICK_RUN_DIR]     (default: a fresh quick reproduce)
#
# Run it on a quiet machine from a clean tree at a committed revision; both
# figures are timings, so they move with the machine and its load.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/sketchlab
threads=2
run="${1:-}"
if [ -z "$run" ]; then
    run="$(mktemp -d)/quick"
    "$bin" reproduce --quick --threads "$threads" --out "$run" --quiet
fi
[ -f "$run/run.json" ] || { echo "plan-accuracy: $run has no run.json" >&2; exit 2; }
plans="$(mktemp -d)"
trap 'rm -rf "$plans"' EXIT
for spec in experiments/*.toml; do
    name="$(basename "$spec" .toml)"
    "$bin" plan "$name" --quick --threads "$threads" --json >"$plans/$name.json"
done
python3 - "$run" "$plans" "$(git rev-parse HEAD)" "$(git status --porcelain | wc -l)" "$(nproc)" <<'PY'
import json, math, os, sys
run, plans, rev, dirty, cores = sys.argv[1:]
info = json.load(open(f"{run}/run.json"))
rows, logs = [], []
for path in sorted(os.listdir(plans)):
    name = path[: -len(".json")]
    p = json.load(open(os.path.join(plans, path)))
    m = json.load(open(f"{run}/{name}/manifest.json"))
    est = p.get("estimated_seconds")
    rows.append((name, p["trials"], est, m["seconds"], p["sequential"]))
    if est and m["seconds"] > 0 and not p["sequential"]:
        logs.append(abs(math.log(est / m["seconds"])))
logs.sort()
q = lambda f: math.exp(logs[min(len(logs) - 1, int(f * len(logs)))])
within2 = sum(l <= math.log(2) for l in logs)
band = math.ceil(q(0.9) * 10) / 10
sig = lambda x: "—" if x is None else (f"{x:.3g}" if x >= 0.001 else f"{x:.1e}")
out = [
    "# How close `plan` comes",
    "",
    "Written by `scripts/plan-accuracy.sh` (do not edit by hand): every quick study",
    f"planned with `sketchlab plan NAME --quick --threads {info['threads']}` beside the seconds its",
    f"trials took in one `reproduce --quick --threads {info['threads']}` (its manifest's `seconds`)",
    f"at git revision {info['git_revision']}, planned at {rev}{' (dirty tree)' if dirty != '0' else ''}, on {cores} cores. Both are timings",
    "on a shared machine: rerun the script to measure yours.",
    "",
    f"The whole quick run took **{info['seconds']:.0f} s** (its run.json: every study's trials, summaries,",
    "charts and the report).",
    "",
    f"**{within2} of {len(logs)}** studies planned within 2× of the time measured; half are",
    f"within {q(0.5):.2f}× and 90% within **{band}×**, the range `plan` prints",
    "(`about 6 s (2.9 to 13 s)`). The misses are mostly studies of milliseconds, where a",
    "process's one-time costs outweigh the trials. A sequential study (marked) stops each setting once",
    "it is decided, so its plan is an upper bound and is left out of those figures.",
    "",
    f"band: {band}",
    "",
    "| study | trials | planned s | measured s | planned ÷ measured |",
    "|---|---|---|---|---|",
]
for name, trials, est, secs, seq in rows:
    ratio = "—" if not est or secs <= 0 else f"{est / secs:.2f}"
    out.append(f"| `{name}`{' (sequential)' if seq else ''} | {trials} | {sig(est)} | {sig(secs)} | {ratio} |")
open("docs/plan-accuracy.md", "w").write("\n".join(out) + "\n")
print(f"plan-accuracy: {within2} of {len(logs)} within 2x; 90% within {band}x -> docs/plan-accuracy.md")
PY
