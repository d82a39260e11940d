#!/usr/bin/env bash
# Creates BUILD_DIR/test-venv: a Python virtual environment with the real
# sacreBLEU from PyPI, pinned, which test/Runtime/score-sacrebleu.test runs
# against `tc-run score` (lit's %venv-python), and lizard, which
# test/style/check_function_lengths.py measures functions with. Debian's Python makes it (it
# needs Debian's python3-venv). Idempotent: when the venv already has the
# pinned version it returns at once.
# Usage: scripts/test-venv.sh BUILD_DIR
set -euo pipefail

# The sacreBLEU release whose BLEU and chrF tc reproduces
# (runtime/score/Signature.h says the same version); its dependencies are
# pinned too, so that every machine compares against the same code.
SACREBLEU_VERSION=2.6.0
requirements=(
  "sacrebleu==${SACREBLEU_VERSION}"
  "colorama==0.4.6" "lxml==6.1.3" "numpy==2.4.6" "portalocker==4.4.2"
  "regex==2026.11.15" "tabulate==0.10.0"
  "lizard==1.24.3" "pathspec==1.1.1" "pygments==2.21.0"
)

if [ $# -ne 1 ]; then
  echo "usage: scripts/test-venv.sh BUILD_DIR" >&2
  exit 2
fi
venv="$1/test-venv"
python="$venv/bin/python3"

if [ -x "$python" ] &&
  "$python" -c "import sys, sacrebleu, lizard; sys.exit(sacrebleu.__version__ != '${SACREBLEU_VERSION}' or lizard.version != '1.24.3')" 2>/dev/null; then
  echo "test-venv: $venv has sacrebleu ${SACREBLEU_VERSION} and lizard 1.24.3"
  exit 0
fi

base_python=/usr/bin/python3
[ -x "$base_python" ] || base_python="$(command -v python3)"
if ! "$base_python" -c "import ensurepip, venv" 2>/dev/null; then
  echo "test-venv: error: $base_python cannot make a virtual environment;" \
    "install Debian's python3-venv (scripts/install-deps.sh)" >&2
  exit 1
fi

echo "test-venv: creating $venv with sacrebleu ${SACREBLEU_VERSION}"
rm -rf "$venv"
"$base_python" -m venv "$venv"
"$python" -m pip install --quiet --disable-pip-version-check \
  --no-input "${requirements[@]}"
"$python" -c "import sacrebleu; print('test-venv: sacrebleu', sacrebleu.__version__)"
