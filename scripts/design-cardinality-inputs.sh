#!/usr/bin/env bash
# The design-cardinality inputs a stop note quotes, before → after: run each
# through BINARY (default: target/release/sketchlab) with --format json, and
# print the recommendation, its runner-up (lg_k, estimator, bytes, RSE with
# its 95% interval, distinct × replicates, streamed or replayed) and the wall
# time. A benchmark, not a test: times depend on the machine and its load.
#   scripts/design-cardinality-inputs.sh [BINARY] [TAG]
set -euo pipefail
bin=${1:-target/release/sketchlab}
tag=${2:-now}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for args in "--error 0.01 --distinct 1e3" \
            "--error 0.02 --merge-nodes 200 --distinct 1e6" \
            "--error 0.005 --merge-nodes 1000 --distinct 1e9" \
            "--error 0.01 --distinct 1e8" \
            "--error 0.002 --distinct 1e7"; do
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$bin" design cardinality $args --format json --out "$out" > /dev/null 2>&1
  end=$(date +%s.%N)
  python3 - "$out/cardinality.json" "$tag" "$args" "$start" "$end" <<'PY'
import json, sys
path, tag, args, start, end = sys.argv[1:]
r = json.load(open(path))["recommendation"]
def line(name):
    m = next((x for x in r["measured"] if x["structure"] == name), None)
    if m is None:
        return str(name)
    return (f"{name} lg_k={m['lg_k']} {m['estimator']} {m['bytes']} B "
            f"RSE {m['rse']*100:.3f}% [{m['rse_lo']*100:.3f}, {m['rse_hi']*100:.3f}] "
            f"at {m['distinct']} x {m['replicates']} {m.get('method', '')}")
print(f"{tag} | {args} | {line(r['smallest'])} | runner-up {line(r['runner_up'])} | {float(end) - float(start):.1f} s")
PY
done
