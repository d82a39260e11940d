#!/usr/bin/env bash
# On a GPU machine, with DIR made by scripts/gpu-bundle.sh: the GPU tests
# (test/Runtime/cuda-train.test and cuda-translate.test, by hand, since lit
# and tc-compile are not there), three steps under compute-sanitizer (the
# third a graph's replay), then
# bench/gpu.py against PyTorch (tc in f32, TF32 and bf16 against PyTorch's
# peers in each), then each kernel's time in one step of base_gpu under ncu
# (f32 and bf16). Results go to $OUT (default /tmp/tc-gpu-out); each stage
# has its own time limit so that a hang costs only that stage.
#
#   scripts/gpu-check.sh [DIR]                (default .gpu)
#
# To fit a shorter lease: SKIP_TRANSLATE=1; MEMCHECK_PRECISIONS (default
# "f32 bf16"); SKIP_BENCH=1; BENCH_CONFIGS (default
# base_gpu,base_short,base_paper), BENCH_PRECISIONS (default f32,tf32,bf16: those
# gpu-bundle.sh's PRECISIONS made), BENCH_EAGER=1 (tc's rows also without
# CUDA graphs), BENCH_PEERS (default: all of bench/gpu.py --help),
# BENCH_SECONDS (the bench stage's limit, default 480: five torch.compile
# peers compile each configuration, too many for it with all three
# configurations, so name fewer); NCU_PRECISIONS (default "f32 bf16",
# "" skips ncu), NCU_CONFIG (default base_gpu).
set -uo pipefail
cd "$(dirname "$0")/.."
bundle=$(realpath "${1:-.gpu}")
out=${OUT:-/tmp/tc-gpu-out}
mkdir -p "$out"
tc=$(mktemp -d)
tar -C "$tc" -xJf "$bundle/tc.tar.xz"
tcx=$(mktemp -d)
tar -C "$tcx" -xJf "$bundle/tcx.tar.xz"
cuda_libs=$(python3 -c 'import glob, os, nvidia; print(":".join(sorted(glob.glob(os.path.join(list(nvidia.__path__)[0], "*", "lib")))))' 2>/dev/null || true)
export LD_LIBRARY_PATH="$tc/lib:/usr/local/cuda/lib64:$cuda_libs:${LD_LIBRARY_PATH:-}"
export PYTHONUNBUFFERED=1
run="$tc/bin/tc-run"
work=$(mktemp -d)
failed=0

stage() { # stage NAME SECONDS COMMAND...
  local name=$1 limit=$2
  shift 2
  echo "=== $name ($(date +%T))"
  if timeout "$limit" bash -c '"$@"' bash "$@"; then echo "=== $name: ok"; else echo "=== $name: FAILED ($?)"; failed=1; fi
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

cuda_train() {
  "$run" train "$tcx/tiny-cuda.tcx" --device=cuda --steps 20 --quiet \
    --metrics "$work/tiny-cuda.jsonl" --checkpoint-dir "$work/tiny" &&
  python3 test/Runtime/Inputs/compare-losses.py "$work/tiny-cuda.jsonl" "$tcx/tiny-cpu.jsonl" &&
  "$run" export "$tcx/tiny-cpu.tcx" --checkpoint-dir "$work/tiny" -o "$work/tiny-cuda.npz" &&
  python3 test/Runtime/Inputs/compare-parameters.py "$work/tiny-cuda.npz" "$tcx/tiny-cpu.npz" 1e-3
}

# bf16: the GPU's step against the CPU device's bf16 step. Both round to
# bf16 at the same points, but their f32 sums before a rounding differ in
# order, so now and then an element rounds to the neighbouring bf16 (2^-8
# apart), and Adam carries it on. On the H200 (2026-11-26) the first six
# losses were equal to the printed digits, the 20th 1.2e-3 apart; the
# parameters' median relative difference 8e-4, the largest 0.09 absolute
# (Adam's update of a near-zero gradient whose sign a rounding flipped).
# So: losses within 1e-2 relative; each parameter's median element within
# 1e-2 relative, every element within 0.4 (twice tiny's summed learning
# rates over 20 steps: more is a wrong value, not a rounding).
cuda_train_bf16() {
  "$run" train "$tcx/tiny-bf16-cuda.tcx" --device=cuda --steps 20 --quiet \
    --metrics "$work/tiny-bf16-cuda.jsonl" --checkpoint-dir "$work/tiny-bf16" &&
  python3 test/Runtime/Inputs/compare-losses.py "$work/tiny-bf16-cuda.jsonl" "$tcx/tiny-bf16-cpu.jsonl" 1e-2 &&
  "$run" export "$tcx/tiny-bf16-cpu.tcx" --checkpoint-dir "$work/tiny-bf16" -o "$work/tiny-bf16-cuda.npz" &&
  python3 test/Runtime/Inputs/compare-parameters.py "$work/tiny-bf16-cuda.npz" "$tcx/tiny-bf16-cpu.npz" 1e-2 0.5 0.4
}

cuda_translate() {
  "$run" train "$tcx/copy_task-cuda.tcx" --device=cuda --steps 300 --quiet --checkpoint-dir "$work/copy" &&
  python3 -c "import random; r = random.Random(1); print('\n'.join(' '.join(str(r.randint(3, 15)) for _ in range(r.randint(2, 10))) for _ in range(200)))" > "$work/source.ids" &&
  for beam in 4 1; do
    for device in cuda cpu; do
      "$run" translate "$tcx/copy_task-$device.tcx" --device=$device --checkpoint-dir "$work/copy" \
        --ids --input "$work/source.ids" --beam $beam --n-best $beam -o "$work/$device-$beam.txt" --quiet || return 1
    done
    python3 test/Runtime/Inputs/compare-nbest.py "$work/cuda-$beam.txt" "$work/cpu-$beam.txt" 1e-4 || return 1
  done
}

memcheck() { # memcheck PRECISION
  local name=tiny-cuda
  [ "$1" = f32 ] || name="tiny-$1-cuda"
  compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 3 \
    "$run" train "$tcx/$name.tcx" --device=cuda --steps 3 --quiet --checkpoint-dir "$work/memcheck-$1"
}

kernel_times() { # kernel_times PRECISION
  # Every launch of a 2-step run, one pass each (the first step also loads
  # the kernels), launched one at a time rather than as a graph; the second
  # half of the CSV is a step. f32's file keeps its old name,
  # ncu-base_gpu.csv.
  local suffix="" config=${NCU_CONFIG:-base_gpu}
  [ "$1" = f32 ] || suffix="-$1"
  ncu --clock-control none --metrics gpu__time_duration.sum --launch-count 4000 --csv \
    --log-file "$out/ncu-$config$suffix.csv" \
    "$run" train "$tcx/$config-$1-cuda.tcx" --device=cuda --steps 2 --quiet --eager-launches \
    --checkpoint-dir "$work/ncu-$1" --checkpoint-every 0 > /dev/null
}

export run tcx work out
export -f cuda_train cuda_train_bf16 cuda_translate memcheck kernel_times
stage cuda-train 60 cuda_train
stage cuda-train-bf16 60 cuda_train_bf16
[ -n "${SKIP_TRANSLATE:-}" ] || stage cuda-translate 90 cuda_translate
for precision in ${MEMCHECK_PRECISIONS-f32 bf16}; do
  stage "memcheck-$precision" 60 memcheck "$precision"
done
peers=()
[ -z "${BENCH_PEERS:-}" ] || peers=(--peers "$BENCH_PEERS")
[ -n "${SKIP_BENCH:-}" ] || stage bench "${BENCH_SECONDS:-480}" python3 bench/gpu.py \
  --build "$tc" --prebuilt "$tcx" --configs "${BENCH_CONFIGS:-base_gpu,base_short,base_paper}" \
  --precisions "${BENCH_PRECISIONS:-f32,tf32,bf16}" ${BENCH_EAGER:+--eager} "${peers[@]}"
for precision in ${NCU_PRECISIONS-f32 bf16}; do
  stage "ncu-$precision" 100 kernel_times "$precision"
done
exit $failed
