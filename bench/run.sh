#!/usr/bin/env bash
# Runs bench/run.py (tc against PyTorch and JAX on this machine's CPU) from a
# built tree: Debian's python3-torch (scripts/install-deps.sh) and, in a venv
# that sees it, JAX from PyPI — pinned to the last release that works with
# Debian 12's numpy 1.24, which python3-torch 1.13 is built against; and the
# current PyTorch and JAX from PyPI in a venv of their own (below).
#
#   bench/run.sh                         # every configuration, f32 and bf16
#   bench/run.sh --configs small --steps 30
#   bench/run.sh --configs small,base_short --precisions bf16
#                                        # tc-bf16 against PyTorch's CPU autocast
#                                        # and JAX's bf16 matmuls (bench/run.py)
#   bench/run.sh micro                   # kernels against ops (bench/microbench.py)
#   bench/run.sh translation [--minutes M]  # BLEU after M minutes of training
#                                        # (bench/translation.py)
#   bench/run.sh decoding [--threads 2]  # beam search speed and BLEU against
#                                        # PyTorch and CTranslate2, incremental
#                                        # against full prefix (bench/decoding.py;
#                                        # --skip torch,ctranslate2,tc)
#   bench/run.sh gemm [--configs small]  # the step's GEMMs with OpenBLAS, BLIS
#                                        # and oneDNN (bench/gemm_shapes.py)
#   bench/run.sh data-parallel [--runs 3]  # 2 ranks x 1 thread against 1
#                                        # process x 2 threads, same global
#                                        # batch (bench/data_parallel.py)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
venv="$build/bench-venv"
if [ ! -x "$build/bin/tc-run" ]; then
  echo "bench: no tc build in $build; build first (see README.md)" >&2
  exit 2
fi
if ! dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "ok installed"; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -q --no-install-recommends python3-venv
fi
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import jax" 2>/dev/null; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" install -q "jax[cpu]==0.4.30" "numpy<2" "scipy<1.14"
fi
# The decoding bench's peer (CPU wheels from PyPI) and a BLEU cross-check.
if ! "$venv/bin/python" -c "import ctranslate2, sacrebleu" 2>/dev/null; then
  "$venv/bin/pip" install -q "ctranslate2==4.8.5" "sacrebleu==2.6.0" "numpy<2"
fi
# The strongest peers a user would pick today: the current PyTorch and JAX
# from PyPI, in a venv that sees none of Debian's packages (PyPI's torch wheel
# brings its CUDA libraries: about 6 GB, once), f32 and bf16; also what
# test/bench/gpu-dry-run.test runs bench/gpu.py --dry-run with.
# TC_BENCH_PYPI_PEERS=0 skips them.
peers_venv="$build/bench-peers-venv"
peers_python=""
if [ "${TC_BENCH_PYPI_PEERS:-1}" != 0 ] && [ -z "${1:-}" -o "${1#--}" != "${1:-}" ]; then
  if [ ! -x "$peers_venv/bin/python" ] || \
     ! "$peers_venv/bin/python" -c "import torch, jax" 2>/dev/null; then
    /usr/bin/python3 -m venv "$peers_venv"
    "$peers_venv/bin/pip" install -q --disable-pip-version-check \
      "torch==2.15.0" "jax[cpu]==0.10.2" numpy
  fi
  peers_python="$peers_venv/bin/python"
fi
script="$root/bench/run.py"
if [ "${1:-}" = micro ]; then
  script="$root/bench/microbench.py"
  shift
elif [ "${1:-}" = translation ]; then
  script="$root/bench/translation.py"
  shift
elif [ "${1:-}" = decoding ]; then
  script="$root/bench/decoding.py"
  shift
elif [ "${1:-}" = gemm ]; then
  # BLIS and oneDNN beside OpenBLAS (Debian's packages), for the comparison.
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  for p in libblis-dev libdnnl-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      $SUDO apt-get install -y -q --no-install-recommends "$p"
  done
  script="$root/bench/gemm_shapes.py"
  shift
elif [ "${1:-}" = data-parallel ]; then
  script="$root/bench/data_parallel.py"
  shift
fi
if [ "$script" = "$root/bench/run.py" ]; then
  exec "$venv/bin/python" "$script" --build "$build" --peers-python "$peers_python" "$@"
fi
exec "$venv/bin/python" "$script" --build "$build" "$@"
