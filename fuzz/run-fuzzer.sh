#!/usr/bin/env bash
# Fuzzes one target of fuzz/ for a while from a seed corpus of the
# repository's own files, and fails if it finds a crash, a hang (an input
# over 10 s), a leak or a sanitizer report.
#
#   fuzz/run-fuzzer.sh BUILD_DIR TARGET SECONDS WORK_DIR [libFuzzer flags]
#
# BUILD_DIR is a build configured with -DTC_FUZZ=ON (scripts/test.sh makes
# build-sanitize/). The corpus grows in WORK_DIR/corpus/TARGET, kept between
# runs; a crashing input is written to WORK_DIR/artifacts/ (copy it into
# test/fuzz/TARGET/ with the fix, so that it is replayed by ctest).
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,12p' "$0"; exit 2; }
build=$(cd "$1" && pwd) target=$2 seconds=$3 work=$4
shift 4
source_dir=$(cd "$(dirname "$0")/.." && pwd)
fuzzer="$build/bin/fuzz-$target"
[ -x "$fuzzer" ] || { echo "run-fuzzer: no $fuzzer; configure with -DTC_FUZZ=ON"; exit 2; }

corpus="$work/corpus/$target" seeds="$work/seeds/$target"
mkdir -p "$corpus" "$seeds" "$work/artifacts"
rm -rf "${seeds:?}"/*
# Repository files as seeds, named by their path (names repeat across
# directories).
copy_seeds() {
  find "$@" -type f | while IFS= read -r file; do
    relative=${file#"$source_dir"/}
    cp "$file" "$seeds/${relative//\//_}"
  done
}
limits=()
case "$target" in
  model-description)
    copy_seeds "$source_dir/models" "$source_dir/test" -name '*.toml' ;;
  tc-dialect)
    copy_seeds "$source_dir/test/Dialect" "$source_dir/test/Interpreter" \
      "$source_dir/test/Transforms" -name '*.mlir'
    # Whole test files parse slowly; their first 4 KiB hold a few ops each.
    limits=(-max_len=4096) ;;
  tcx)
    # A small executable, compiled by this build's tc-compile.
    TC_CACHE_DIR="$work/kernel-cache" "$build/bin/tc-compile" \
      "$source_dir/fuzz/seeds/small.mlir" -o "$seeds/small.tcx" --target=cpu ;;
  checkpoint|token-file|npy)
    "$fuzzer" --write-seed="$seeds" ;;
  vocabulary)
    # Two trained as tc-run prepare trains (nmt_nfkc, 232 KiB each, nearly
    # all of it the normaliser's table) and a small one with no table.
    "$fuzzer" --write-seed="$seeds"
    cp "$source_dir"/fuzz/seeds/*.model "$seeds/" ;;
  score)
    # A reference line, then hypothesis lines: the score test's texts.
    for hypothesis in "$source_dir"/test/Runtime/Inputs/score/*.hyp; do
      { head -1 "${hypothesis%.hyp}.ref" 2>/dev/null || echo; cat "$hypothesis"; } \
        > "$seeds/$(basename "$hypothesis")"
    done ;;
  *) echo "run-fuzzer: unknown target $target"; exit 2 ;;
esac

# ASan's leak check runs at exit (libFuzzer's -detect_leaks): the seeds and
# the corpus first, then mutations for SECONDS.
exec "$fuzzer" "$corpus" "$seeds" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/$target-" \
  -print_final_stats=1 "${limits[@]}" "$@"
