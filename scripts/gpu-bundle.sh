#!/usr/bin/env bash
# Makes what a GPU machine without LLVM needs to check tc there (a lent
# device machine has CUDA, PyTorch and numpy, but no MLIR and no Debian
# libraries): the executables of the GPU tests and benchmarks compiled here,
# the CPU device's reference run of the tiny model, and tc-run with its
# plug-ins and every library it needs beyond glibc and CUDA, packed in one
# tar.xz. The benchmark's configurations come in each precision
# (NAME-P-cuda.tcx, and NAME-P-stats-GPU.json: the step model's prediction
# for the H100 and the H200), for bench/gpu.py --prebuilt. Then, on the GPU
# machine: scripts/gpu-check.sh DIR.
#
#   scripts/gpu-bundle.sh [DIR] [ARCH]        (default .gpu and sm_90)
#   PRECISIONS="f32 bf16" scripts/gpu-bundle.sh   (default: f32 tf32 bf16)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bundle-common.sh
out=${1:-.gpu}
arch=${2:-sm_90}
precisions=${PRECISIONS:-f32 tf32 bf16}
build=${BUILD:-build}
compile="$build/bin/tc-compile"
run="$build/bin/tc-run"
rm -rf "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/tcx"

for name in tiny copy_task; do
  "$compile" "models/$name.toml" -o "$work/tcx/$name-cuda.tcx" --target=cuda --arch="$arch"
  "$compile" "models/$name.toml" -o "$work/tcx/$name-cpu.tcx" --target=cpu
done
# tiny in bf16, for the GPU's bf16 step against the CPU device's.
"$compile" models/tiny.toml -o "$work/tcx/tiny-bf16-cuda.tcx" --target=cuda --arch="$arch" --precision=bf16
"$compile" models/tiny.toml -o "$work/tcx/tiny-bf16-cpu.tcx" --target=cpu --precision=bf16
for precision in $precisions; do
  # f32 is tc-compile's default (bench/models name no precision).
  flags=()
  [ "$precision" = f32 ] || flags=(--precision="$precision")
  for name in base_short base_gpu base_paper; do
    "$compile" "bench/models/$name.toml" -o "$work/tcx/$name-$precision-cuda.tcx" \
      --target=cuda --arch="$arch" "${flags[@]}"
    for gpu in h100 h200; do
      "$compile" "bench/models/$name.toml" --stats --target=cuda --gpu=$gpu "${flags[@]}" \
        > "$work/tcx/$name-$precision-stats-$gpu.json" 2>/dev/null
    done
  done
done

# The CPU side of test/Runtime/cuda-train.test, made here.
"$run" train "$work/tcx/tiny-cpu.tcx" --device=cpu --steps 20 --quiet \
  --metrics "$work/tcx/tiny-cpu.jsonl" --checkpoint-dir "$work/tiny"
"$run" export "$work/tcx/tiny-cpu.tcx" --checkpoint-dir "$work/tiny" -o "$work/tcx/tiny-cpu.npz"
# The same in bf16 (on a CPU without bf16 instructions, its portable path).
"$run" train "$work/tcx/tiny-bf16-cpu.tcx" --device=cpu --steps 20 --quiet --allow-slow-bf16 \
  --metrics "$work/tcx/tiny-bf16-cpu.jsonl" --checkpoint-dir "$work/tiny-bf16" 2>/dev/null
"$run" export "$work/tcx/tiny-bf16-cpu.tcx" --checkpoint-dir "$work/tiny-bf16" -o "$work/tcx/tiny-bf16-cpu.npz"

# tc-run with its plug-ins and libraries (scripts/bundle-common.sh).
pack_tc_run "$build" "$out/tc.tar.xz"
# The executables, compressed too: a lent machine takes 64 MiB at most.
tar -C "$work/tcx" -cJf "$out/tcx.tar.xz" .
check_bundle_size "$out" gpu-bundle
