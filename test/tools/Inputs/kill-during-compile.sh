#!/usr/bin/env bash
# Kills tc-compile (SIGTERM, to it alone, as `kill` or a job scheduler
# does) while its kernels' C++ compiler runs, and says whether a compiler
# outlived it. The compiler ($CXX) records its pid, then waits.
#
#   kill-during-compile.sh WORK MODEL.toml    (tc-compile on PATH)
set -uo pipefail
work=$1 model=$2
printf '#!/bin/sh\necho $$ >> %s/compilers\nexec sleep 60\n' "$work" > "$work/cxx"
chmod +x "$work/cxx"
CXX="$work/cxx" TC_CACHE_DIR="$work/cache" tc-compile "$model" -o "$work/x.tcx" 2>/dev/null &
compile=$!
for _ in $(seq 100); do [ -s "$work/compilers" ] && break; sleep 0.1; done
[ -s "$work/compilers" ] || { echo "no compiler started"; exit 1; }
sleep 0.2
kill -TERM "$compile"
wait "$compile"
echo "tc-compile killed: status $?"
sleep 1
# Running: there and not a zombie (a dead child that no one has reaped yet,
# which kill -0 still finds).
running() {
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [[ $state != Z* ]]
}
for pid in $(cat "$work/compilers"); do
  if running "$pid"; then
    echo "compiler $pid still running"
    kill "$pid"
  fi
done
echo "compilers checked: $(wc -l < "$work/compilers")"
