#!/usr/bin/env bash
# The CUDA kernels of a model description compiled as host C++ with the SIMT
# harness (test/simt/Simt.h): the shared object the stand-in CUDA runtime
# runs in place of the executable's CUBIN (TC_STANDIN_KERNELS, Standin.h).
#
#   simt-kernels.sh MODEL.toml OUT.so [TC-COMPILE FLAGS...]
#                                   (tc-compile on PATH; e.g. --fusion=none)
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: simt-kernels.sh MODEL.toml OUT.so [TC-COMPILE FLAGS...]" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
model="$1" out="$2"
shift 2
source="$out.cu"
tc-compile "$model" --emit=cuda "$@" > "$source"
"${CXX:-c++}" -std=c++20 -O1 -shared -fPIC -include "$here/../simt/Simt.h" \
  -x c++ "$source" -o "$out" -lboost_context
