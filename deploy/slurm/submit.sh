#!/bin/bash
# Queues the shard array and the merge job that waits for it.
#   SKETCHLAB_SHARED=/scratch/$USER/sketchlab deploy/slurm/submit.sh [SHARDS] [extra sketchlab flags…]
# e.g. deploy/slurm/submit.sh 16 --quick
# Every job's log goes to $SKETCHLAB_SHARED/logs (sketchlab-shard-ARRAYID_TASK.out,
# sketchlab-merge-JOBID.out), not to the folder you submit from.
set -euo pipefail
shards="${1:-8}"
shift || true
export SKETCHLAB_FLAGS="${SKETCHLAB_FLAGS:-$*}"
: "${SKETCHLAB_SHARED:?set SKETCHLAB_SHARED to a folder every node can write}"
export SKETCHLAB_SHARED SKETCHLAB="${SKETCHLAB:-$PWD/target/release/sketchlab}"
here="$(cd "$(dirname "$0")" && pwd)"
logs="${SKETCHLAB_SHARED}/logs"
# Slurm does not create a log's folder: a job whose folder is missing fails with no log at all
mkdir -p "$logs"
array=$(sbatch --parsable --export=ALL --array="0-$((shards - 1))" \
    --output="$logs/sketchlab-shard-%A_%a.out" --error="$logs/sketchlab-shard-%A_%a.out" \
    "$here/sketchlab-array.sbatch")
merge=$(sbatch --parsable --export=ALL --dependency="afterok:${array%%;*}" --kill-on-invalid-dep=yes \
    --output="$logs/sketchlab-merge-%j.out" --error="$logs/sketchlab-merge-%j.out" \
    "$here/sketchlab-merge.sbatch")
echo "queued array ${array%%;*} (${shards} shards) and merge ${merge%%;*}; logs in ${logs}, results in ${SKETCHLAB_SHARED}/merged"
