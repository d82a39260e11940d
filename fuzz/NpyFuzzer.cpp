//===- NpyFuzzer.cpp - NumPy .npy files (tc-interpret's inputs) -----------===//

#include "FuzzTarget.h"

#include "compiler/interpreter/Npy.h"

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  tc::fuzz::writeSeedIfAsked(*argc, *argv, [](const std::string &dir) {
    std::string error;
    bool ok = true;
    int index = 0;
    for (tc::DType dtype : {tc::DType::F32, tc::DType::F16, tc::DType::F64,
                            tc::DType::I32, tc::DType::I64, tc::DType::I1}) {
      tc::Tensor tensor(dtype, {2, 3});
      ok &= tc::writeNpy(dir + "/seed" + std::to_string(index++) + ".npy",
                         tensor, error);
    }
    return ok;
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  tc::parseNpy(std::vector<uint8_t>(data, data + size), "fuzz.npy", error);
  return 0;
}
