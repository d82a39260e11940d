#!/usr/bin/env bash
# Installs what is missing, builds tc and runs every test (lit and unit tests,
# all through ctest), then again in the sanitizer build with the fuzz targets
# (docs/robustness.md). This is what .ci/run runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
# The real sacreBLEU, pinned, for test/Runtime/score-sacrebleu.test.
scripts/test-venv.sh build
(cd build && ctest --output-on-failure -j "$(nproc)")

# The same tests under AddressSanitizer + UndefinedBehaviorSanitizer, the
# fuzz targets' regression inputs, and a short run of each fuzz target. The
# copy-task demo (a minute of training in the normal build, several under
# the sanitizers) runs only in the normal build: the sanitizer build covers
# its training, checkpoint and evaluation paths in test/Runtime.
scripts/build-sanitize.sh
scripts/test-venv.sh build-sanitize
(cd build-sanitize &&
  ctest --output-on-failure -j "$(nproc)" -E '^lit/e2e/')
