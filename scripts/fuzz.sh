#!/usr/bin/env bash
# Fuzzes every target of fuzz/ for a while (default 600 s each, one after
# the other) in the sanitizer build, growing the corpora in
# build-sanitize/fuzz/long/corpus/, and prints per target the executions,
# the coverage reached and whether it found anything. ctest runs each target
# for TC_FUZZ_SECONDS (25 s); this is the longer run (docs/robustness.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
[[ "$seconds" =~ ^[0-9]+$ ]] || { sed -n '2,8p' "$0"; exit 2; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(model-description tcx checkpoint token-file npy tc-dialect score)
[ -d build-sanitize ] || scripts/build-sanitize.sh
cmake --build build-sanitize
# Its own corpora and seeds, apart from ctest's runs (build-sanitize/fuzz/work).
work=build-sanitize/fuzz/long
status=0
for target in "${targets[@]}"; do
  log="$work/$target.log"
  mkdir -p "$work"
  if fuzz/run-fuzzer.sh build-sanitize "$target" "$seconds" "$work" \
      > "$log" 2>&1; then
    found="nothing found"
  else
    found="FOUND A FAULT: see $log and $work/artifacts/"
    status=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: //p' "$log" | tail -1)
  coverage=$(sed -nE 's/^#[0-9]+[[:space:]]+DONE +cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/\1 edges, \2 features, corpus of \3/p' "$log" | tail -1)
  echo "$target: ${runs:-?} executions in ${seconds} s, ${coverage:-?}; $found"
done
exit $status
