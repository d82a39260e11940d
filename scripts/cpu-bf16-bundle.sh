#!/usr/bin/env bash
# Makes what a machine with a bf16 CPU but no LLVM needs to measure tc's CPU
# bf16 training there (issue 31, acceptance 3; a lent GPU machine's host is
# an Intel Xeon with avx512_bf16 and amx_bf16, PyTorch and numpy, but no
# MLIR, tc-compile or Debian libraries): bench/models' small and base_short
# compiled here for the CPU in f32 and in bf16 (NAME-P-cpu.tcx, for
# bench/run.py --prebuilt), and tc-run with every library it needs beyond
# glibc (scripts/bundle-common.sh), each a tar.xz. Then, there:
# scripts/cpu-bf16-check.sh DIR.
#
#   scripts/cpu-bf16-bundle.sh [DIR]          (default .cpu-bf16)
#   CONFIGS="small" scripts/cpu-bf16-bundle.sh    (default: small base_short)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bundle-common.sh
out=${1:-.cpu-bf16}
build=${BUILD:-build}
rm -rf "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/tcx"
for name in ${CONFIGS:-small base_short}; do
  # f32 is tc-compile's default (bench/models name no precision).
  "$build/bin/tc-compile" "bench/models/$name.toml" --target=cpu -o "$work/tcx/$name-f32-cpu.tcx"
  "$build/bin/tc-compile" "bench/models/$name.toml" --target=cpu --precision=bf16 \
    -o "$work/tcx/$name-bf16-cpu.tcx"
done
pack_tc_run "$build" "$out/tc.tar.xz"
tar -C "$work/tcx" -cJf "$out/tcx.tar.xz" .
check_bundle_size "$out" cpu-bf16-bundle
