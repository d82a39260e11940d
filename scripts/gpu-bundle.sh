#!/usr/bin/env bash
# Makes what a GPU machine without LLVM needs to check tc there (a lent
# device machine has CUDA, PyTorch and numpy, but no MLIR and no Debian
# libraries): the executables of the GPU tests and benchmarks compiled here,
# the CPU device's reference run of the tiny model, and tc-run with its
# plug-ins and every library it needs beyond glibc and CUDA, packed in one
# tar.xz. Then, on the GPU machine: scripts/gpu-check.sh DIR.
#
#   scripts/gpu-bundle.sh [DIR] [ARCH]        (default .gpu and sm_90)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.gpu}
arch=${2:-sm_90}
build=${BUILD:-build}
compile="$build/bin/tc-compile"
run="$build/bin/tc-run"
rm -rf "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/tcx"

for model in models/tiny.toml models/copy_task.toml bench/models/base_short.toml \
             bench/models/base_gpu.toml; do
  name=$(basename "$model" .toml)
  "$compile" "$model" -o "$work/tcx/$name-cuda.tcx" --target=cuda --arch="$arch"
done
for name in tiny copy_task; do
  "$compile" "models/$name.toml" -o "$work/tcx/$name-cpu.tcx" --target=cpu
done
for name in base_short base_gpu; do
  for gpu in h100 h200; do
    "$compile" "bench/models/$name.toml" --stats --gpu=$gpu > "$work/tcx/$name-stats-$gpu.json" 2>/dev/null
  done
done

# The CPU side of test/Runtime/cuda-train.test, made here.
"$run" train "$work/tcx/tiny-cpu.tcx" --device=cpu --steps 20 --quiet \
  --metrics "$work/tcx/tiny-cpu.jsonl" --checkpoint-dir "$work/tiny"
"$run" export "$work/tcx/tiny-cpu.tcx" --checkpoint-dir "$work/tiny" -o "$work/tcx/tiny-cpu.npz"

# tc-run, its plug-ins, and the libraries they load that are neither glibc's
# nor CUDA's (the GPU machine brings those).
mkdir -p "$work/tc/bin" "$work/tc/lib"
cp "$run" "$work/tc/bin/"
cp "$build"/lib/*.so "$work/tc/lib/"
{ ldd "$run"; for plugin in "$build"/lib/*.so; do ldd "$plugin"; done; } |
  awk '$3 ~ /^\// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|libgcc_s|ld-linux[^/]*)\.so|/usr/local/cuda' |
  xargs -I{} cp -L {} "$work/tc/lib/"
tar -C "$work/tc" -cJf "$out/tc.tar.xz" .
# The executables, compressed too: a lent machine takes 64 MiB at most.
tar -C "$work/tcx" -cJf "$out/tcx.tar.xz" .
du -sh "$out"
