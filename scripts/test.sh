#!/usr/bin/env bash
# Installs what is missing, builds tc and runs every test (lit and unit tests,
# all through ctest). This is what .ci/run runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)"
