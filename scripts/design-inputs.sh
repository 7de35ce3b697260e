#!/usr/bin/env bash
# The eleven design inputs the #60 stop note quotes, before → after: each
# through BINARY (default: target/release/sketchlab), printing the review's
# answer (its first line; an older build prints its recommendation lines
# instead) and the wall time. A benchmark, not a test: times depend on the
# machine and its load, and the old build needs --hit-rate and --qps.
#   scripts/design-inputs.sh [BINARY]
set -uo pipefail
bin=${1:-target/release/sketchlab}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
words=$(realpath data/words.txt)
cases=(
  "filter --n-expected 2e7 --n-max 2e7 --fpr 0.1% --needs deletes --hit-rate 0.02 --qps 10000"
  "filter --n-expected 4026531 --n-max 4026531 --fpr 0.1% --needs inserts --hit-rate 0.02 --qps 10000"
  "filter --n-expected 1e5 --n-max 1e5 --fpr 1% --keys $words --hit-rate 0.02 --qps 10000"
  "cardinality --error 0.1% --distinct 1e9"
  "cardinality --error 0.5% --distinct 1e9 --merge-nodes 1000"
  "cardinality --error 2% --groups 1e4 --distinct 1000"
  "frequency --epsilon 0.001 --delta 0.01 --stream-length 1e9"
  "heavy-hitters --stream-length 1e8 --top 100 --error 0.01%"
  "heavy-hitters --stream-length 1e8 --phi 0.1% --memory 64e3 --stream adversarial"
  "quantiles --stream-length 1e8 --rank-error 0.1%"
  "quantiles --stream-length 1e9 --relative-error 1% --quantiles 0.5,0.99,0.999 --merge-nodes 100"
)
for args in "${cases[@]}"; do
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  text=$("$bin" design $args --out "$out" 2>&1)
  rc=$?
  end=$(date +%s.%N)
  printf '=== design %s\n    %.1f s, exit %d\n%s\n' "$args" "$(echo "$end - $start" | bc)" "$rc" \
    "$(printf '%s\n' "$text" | grep -v '^design review ->' | head -3)"
done
