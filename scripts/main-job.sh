#!/usr/bin/env bash
# The main job: install what is missing, build tc, compile the copy-task model
# description into its tc graph and show it.
# (Training it on the CPU arrives with tc-run; see docs/README.md.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh

model=models/copy_task.toml
out=build/copy_task.mlir
echo "== tc-compile $model --stats"
build/bin/tc-compile "$model" --stats
build/bin/tc-compile "$model" --emit=tc > "$out"
echo "== the graph ($(wc -l < "$out") lines, written to $out); its first lines:"
head -c 3000 "$out" | cut -c1-160 | head -25
