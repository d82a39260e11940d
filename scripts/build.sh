#!/usr/bin/env bash
# Configures and builds tc into build/ (Ninja, ccache when present).
# Usage: scripts/build.sh [extra cmake arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build
