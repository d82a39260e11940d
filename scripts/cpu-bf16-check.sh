#!/usr/bin/env bash
# On a machine whose CPU has bf16 instructions (avx512_bf16, amx_bf16), with
# DIR made by scripts/cpu-bf16-bundle.sh: issue 31's CPU speed check
# (acceptance 3). Needs python3 with PyTorch 2.x and numpy; no LLVM, no
# tc-compile, no network.
#
#  1. the CPU's bf16 flags, and one tc bf16 training step of small under
#     ONEDNN_VERBOSE=1: which oneDNN kernels ran (avx512_core_bf16, amx);
#  2. for small and base_short, at 1 thread and at all cores, 3 runs each
#     (bench/run.py --prebuilt DIR): tc f32 and tc bf16 against PyTorch on
#     the CPU with the same shapes and threads: f32 eager (torch) and bf16
#     autocast eager (torch-bf16), fused Adam;
#  3. PyTorch bf16 under torch.compile (torch-bf16-compile), 1 run each,
#     in a stage of its own (it compiles in every process: if it is slow
#     there, only its stage runs out of time);
#  4. one markdown table of all of it (bench/run.py --table): ms per step
#     (median, min..max), tc bf16 / tc f32 and the fastest torch bf16 / tc
#     bf16 (above 1, tc is faster).
#
# Everything goes to $OUT (default /tmp/tc-cpu-bf16-out): each stage's
# output, oneDNN's log, table.md. Each stage has a time limit; in all about
# 6 minutes on 16 cores.
#
#   scripts/cpu-bf16-check.sh [DIR] [--allow-slow-bf16]   (default .cpu-bf16)
#
# --allow-slow-bf16: on a CPU without bf16 instructions, run tc's bf16 anyway
# (its GEMMs widened to f32; the PyTorch bf16 peers emulated): for checking
# this script where the bundle is made, not for its numbers. Knobs:
# THREADS (default "1,$(nproc)"), RUNS (3), SMALL_STEPS (10),
# BASE_SHORT_STEPS (3), WARMUP (2), SMALL_SECONDS and BASE_SHORT_SECONDS
# (their stages' time limits, 100 and 130), PEERS (torch,torch-bf16: bench/run.py's
# names), COMPILE=0 skips torch.compile (COMPILE_PEERS: its stage's peers,
# default torch-bf16-compile), PYTHON (default python3: the one
# with PyTorch).
set -uo pipefail
cd "$(dirname "$0")/.."
bundle=.cpu-bf16
slow=""
for arg in "$@"; do
  case $arg in
    --allow-slow-bf16) slow=--allow-slow-bf16 ;;
    *) bundle=$arg ;;
  esac
done
bundle=$(realpath "$bundle")
out=${OUT:-/tmp/tc-cpu-bf16-out}
mkdir -p "$out"
tc=$(mktemp -d)
tar -C "$tc" -xJf "$bundle/tc.tar.xz"
tcx=$(mktemp -d)
tar -C "$tcx" -xJf "$bundle/tcx.tar.xz"
export LD_LIBRARY_PATH="$tc/lib:${LD_LIBRARY_PATH:-}"
export PYTHONUNBUFFERED=1
threads=${THREADS:-1,$(nproc)}
runs=${RUNS:-3}
warmup=${WARMUP:-2}
python=${PYTHON:-python3}
failed=0

stage() { # stage NAME SECONDS COMMAND...: its output to $OUT/NAME.txt too
  local name=$1 limit=$2
  shift 2
  echo "=== $name ($(date +%T), at most $limit s)"
  if timeout "$limit" bash -c '"$@"' bash "$@" 2>&1 | tee "$out/$name.txt"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
    echo "=== $name: ok"
  else
    echo "=== $name: FAILED or out of time"
    failed=1
  fi
}

cpu() {
  grep -m1 "model name" /proc/cpuinfo
  echo "cores: $(nproc); bf16 flags: $(grep -m1 -o -w -E 'avx512_bf16|amx_bf16|amx_tile' /proc/cpuinfo | sort -u | tr '\n' ' ')"
  "$python" -c 'import torch, numpy; print("torch", torch.__version__, "numpy", numpy.__version__)'
}

# One bf16 step of small; the oneDNN primitives that ran, counted by kind
# and implementation (the field after "cpu" names the kernel: brg:avx512_core_amx,
# brg:avx512_core_bf16, gemm:jit...).
onednn_kernels() {
  ONEDNN_VERBOSE=1 DNNL_VERBOSE=1 OMP_NUM_THREADS=$(nproc) "$tc/bin/tc-run" train "$tcx/small-bf16-cpu.tcx" \
    --device=cpu --steps 1 --quiet --checkpoint-dir "$(mktemp -d)" --checkpoint-every 0 \
    $slow > "$out/onednn-verbose.log" 2>&1 || return 1
  # oneDNN 2.x writes dnnl_verbose lines, 3.x onednn_verbose.
  grep -E '^(onednn|dnnl)_verbose.*,exec,' "$out/onednn-verbose.log" |
    awk -F, '{for (i = 1; i < NF; i++) if ($i == "cpu") {print $(i + 1), $(i + 2); break}}' |
    sort | uniq -c | sort -rn | tee "$out/onednn-kernels-count.txt"
  grep -m3 -E '^(onednn|dnnl)_verbose,info' "$out/onednn-verbose.log"
  if [ ! -s "$out/onednn-kernels-count.txt" ]; then
    echo "no oneDNN primitive ran: tc's bf16 GEMMs did not reach oneDNN's matmul"
    [ -n "$slow" ]  # expected on the widened path (--allow-slow-bf16) only
  fi
}

# --no-mfu: measuring the GEMM rates that MFU divides by took the whole
# stage's time on a 16-core Xeon (2026-11-26), leaving no step times.
bench() { # bench CONFIG STEPS PEERS [run.py flags...]
  local config=$1 steps=$2 peers=$3
  shift 3
  "$python" bench/run.py --build "$tc" --prebuilt "$tcx" --configs "$config" \
    --threads "$threads" --runs "$runs" --steps "$steps" --warmup "$warmup" \
    --peers "$peers" --peers-python "$python" --json "$out/rows.jsonl" ${slow:+--tc-allow-slow-bf16} \
    --no-mfu "$@"
}

export tc tcx out slow threads runs warmup python
export -f cpu onednn_kernels bench
rm -f "$out/rows.jsonl"
stage cpu 30 cpu
stage onednn-kernels 40 onednn_kernels
peers=${PEERS:-torch,torch-bf16}
stage small "${SMALL_SECONDS:-100}" bench small "${SMALL_STEPS:-10}" "$peers"
stage base_short "${BASE_SHORT_SECONDS:-130}" bench base_short "${BASE_SHORT_STEPS:-3}" "$peers"
if [ "${COMPILE:-1}" != 0 ]; then
  stage torch-compile 90 bench small,base_short 3 "${COMPILE_PEERS:-torch-bf16-compile}" \
    --no-tc --runs 1 --precisions bf16
fi
stage table 20 "$python" bench/run.py --table "$out/rows.jsonl"
cp "$out/table.txt" "$out/table.md" 2>/dev/null
exit $failed
