#!/usr/bin/env bash
# Installs every Debian package tc needs to build and test. Idempotent: packages already
# present are skipped, and apt-get runs only when something is missing.
set -euo pipefail

packages=(
  # build
  cmake ninja-build ccache g++ pkg-config
  # LLVM/MLIR 22: shared libraries, mlir-tblgen, lit and FileCheck
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  # the sanitizer and fuzzing build (build-sanitize/): clang, its sanitizer
  # and libFuzzer runtimes, its OpenMP
  clang-22 libclang-rt-22-dev libomp-22-dev
  # model descriptions (TOML)
  libtomlplusplus-dev
  # the .tcx executable format; host GEMMs
  flatbuffers-compiler libflatbuffers-dev libopenblas-dev libdnnl-dev
  # tc-run's command line; subword vocabularies
  libcli11-dev libsentencepiece-dev
  # parameter archives (.npz)
  libzip-dev
  # the demo corpus (scripts/build-corpus.py): the SWORD Bible reader and two
  # translations; training curves as a picture; the venv of sacreBLEU
  diatheke sword-text-kjv sword-text-sparv python3-matplotlib python3-venv
  # data-parallel training (mpirun, the MPI plug-in) and its tests' two
  # simulated hosts (network namespaces)
  openmpi-bin libopenmpi-dev iproute2
  # unit tests; the fibers of the SIMT harness that runs CUDA kernels on
  # the host (test/simt/Simt.h)
  libgtest-dev libboost-context-dev
  # numeric references for tests (Debian's Python: /usr/bin/python3); the
  # PyTorch side of bench/translation.py detokenises with SentencePiece
  python3 python3-numpy python3-torch python3-sentencepiece
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
