#!/bin/bash
# Queues the shard array and the merge job that waits for it.
#   SKETCHLAB_SHARED=/scratch/$USER/sketchlab deploy/slurm/submit.sh [SHARDS] [extra sketchlab flags…]
# e.g. deploy/slurm/submit.sh 16 --quick
set -euo pipefail
shards="${1:-8}"
shift || true
export SKETCHLAB_FLAGS="${SKETCHLAB_FLAGS:-$*}"
: "${SKETCHLAB_SHARED:?set SKETCHLAB_SHARED to a folder every node can write}"
export SKETCHLAB_SHARED SKETCHLAB="${SKETCHLAB:-$PWD/target/release/sketchlab}"
here="$(cd "$(dirname "$0")" && pwd)"
array=$(sbatch --parsable --export=ALL --array="0-$((shards - 1))" "$here/sketchlab-array.sbatch")
sbatch --export=ALL --dependency="afterok:${array%%;*}" "$here/sketchlab-merge.sbatch"
echo "queued array ${array} (${shards} shards) and its merge; results in ${SKETCHLAB_SHARED}/merged"
