#!/usr/bin/env bash
# Callgrind profiles of the versus workloads where sketchlab misses its goal:
# ours and the best crate's, one workload per process (examples/profile.rs),
# instructions and simulated cache misses per operation, and where they go
# by source file. Writes reports/speed/profiles/<workload>_<ours|peer>.txt
# and prints a table. Needs valgrind (apt-get install valgrind).
#   scripts/profile.sh [N] [WORKLOAD...]      (N default 2e5)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-2e5}
shift || true
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(bloom_insert bloom_query blocked_query hll_insert cms_update cms_query cuckoo_insert)
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }
# line tables for callgrind_annotate, in a target dir of their own
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release --example profile --target-dir target/profile -q
bin=target/profile/release/examples/profile
out=reports/speed/profiles
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-14s %-5s %12s %10s %10s\n' workload who Ir/op D1miss/op LLmiss/op
for w in "${workloads[@]}"; do
  for who in ours peer; do
    cg="$tmp/$w.$who.cg"
    valgrind --tool=callgrind --cache-sim=yes --callgrind-out-file="$cg" \
      --toggle-collect='profile::region*' "$bin" "$w" "$who" "$n" >/dev/null 2>"$tmp/log"
    {
      echo "# $w, $who, n = $n: callgrind, collection inside profile::region only"
      callgrind_annotate --auto=no --inclusive=no --threshold=99 "$cg" | sed -n '/^Ir/,$p' | head -40
    } > "$out/${w}_${who}.txt"
    python3 - "$cg" "$n" "$w" "$who" <<'PY'
import sys
cg, n, w, who = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
events, totals = None, None
for line in open(cg):
    if line.startswith("events:"):
        events = line.split()[1:]
    if line.startswith("totals:") or line.startswith("summary:"):
        totals = [int(x) for x in line.split()[1:]]
d = dict(zip(events, totals))
d1 = d.get("D1mr", 0) + d.get("D1mw", 0)
ll = d.get("DLmr", 0) + d.get("DLmw", 0)
print(f"{w:<14} {who:<5} {d['Ir']/n:12.1f} {d1/n:10.3f} {ll/n:10.3f}")
PY
  done
done
