#!/usr/bin/env bash
# The main job: install what is missing, build tc, compile the copy-task
# model for the CPU, train it, and evaluate it: greedy decoding of 1,000
# fresh random sequences, which must come back exactly (exact-match rate).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh

model=models/copy_task.toml
work=build/main-job
rm -rf "$work" && mkdir -p "$work"
echo "== tc-compile $model -o $work/copy_task.tcx --target=cpu"
build/bin/tc-compile "$model" -o "$work/copy_task.tcx" --target=cpu
build/bin/tc-inspect "$work/copy_task.tcx" | head -4
echo "== tc-run train (checkpoints and metrics in $work)"
start=$(date +%s)
build/bin/tc-run train "$work/copy_task.tcx" --checkpoint-dir "$work/checkpoints" \
  --metrics "$work/metrics.jsonl"
echo "== training took $(( $(date +%s) - start )) s"
echo "== tc-run eval"
build/bin/tc-run eval "$work/copy_task.tcx" --checkpoint-dir "$work/checkpoints" \
  --sequences 1000
