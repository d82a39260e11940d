#!/usr/bin/env bash
# The CUDA kernels of a model description compiled as host C++ with the SIMT
# harness (test/simt/Simt.h): the shared object the stand-in CUDA runtime
# runs in place of the executable's CUBIN (TC_STANDIN_KERNELS, Standin.h).
#
#   simt-kernels.sh MODEL.toml OUT.so     (tc-compile on PATH)
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: simt-kernels.sh MODEL.toml OUT.so" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
source="$2.cu"
tc-compile "$1" --emit=cuda > "$source"
"${CXX:-c++}" -std=c++20 -O1 -shared -fPIC -include "$here/../simt/Simt.h" \
  -x c++ "$source" -o "$2"
