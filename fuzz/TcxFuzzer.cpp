//===- TcxFuzzer.cpp - .tcx executables: header, flatbuffer, verifier ----===//
//
// Loading is all a .tcx gets before its code runs: the header, the
// flatbuffer verifier and tc's own verifier (runtime/Verifier.cpp) must
// refuse every inconsistent file. The code module itself is native code,
// trusted once loaded (docs/robustness.md), so it is not run here.

#include "runtime/Executable.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  auto executable = tc::rt::Executable::fromBytes(
      std::vector<uint8_t>(data, data + size), "fuzz.tcx", error);
  if (executable) {
    // What the runtime computes from a verified file before running it.
    executable->sharedSpaceSizes();
    if (executable->root().functions())
      for (const tc::tcx::Function *f : *executable->root().functions())
        executable->spaceSizes(*f);
  }
  return 0;
}
