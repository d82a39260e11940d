//===- CheckpointFuzzer.cpp - training checkpoints (.tcck) ----------------===//
//
// A checkpoint of a model with 16 bytes of parameters and a fixed
// fingerprint: the seed (--write-seed) is one, written by writeCheckpoint.

#include "FuzzTarget.h"

#include "runtime/train/Checkpoint.h"

namespace {
constexpr tc::rt::ModelFingerprint kFingerprint{0x7463667a7a000001ull, 0x7463u};
constexpr int64_t kParamBytes = 16;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  tc::fuzz::writeSeedIfAsked(*argc, *argv, [](const std::string &dir) {
    tc::rt::TrainingState state;
    state.step = 7;
    state.seed = 3;
    state.params.assign(kParamBytes, 1);
    state.firstMoments.assign(kParamBytes, 2);
    state.secondMoments.assign(kParamBytes, 3);
    std::string error;
    return tc::rt::writeCheckpoint(dir + "/seed.tcck", state, kFingerprint,
                                   error);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  tc::rt::parseCheckpoint(std::vector<uint8_t>(data, data + size), "fuzz.tcck",
                          kFingerprint, kParamBytes, error);
  return 0;
}
