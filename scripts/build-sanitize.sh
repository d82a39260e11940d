#!/usr/bin/env bash
# Configures and builds the sanitizer build into build-sanitize/: clang 22,
# AddressSanitizer + UndefinedBehaviorSanitizer on all of tc, assertions on,
# and the libFuzzer targets of fuzz/ (cmake/Sanitizers.cmake). The CUDA
# target is left out: its NVRTC tests run in the normal build.
# Usage: scripts/build-sanitize.sh [extra cmake arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -G Ninja -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g1" "-DCMAKE_C_FLAGS_RELEASE=-O1 -g1" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DTC_FUZZ=ON -DTC_CUDA=OFF "$@"
cmake --build build-sanitize
