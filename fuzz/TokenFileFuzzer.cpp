//===- TokenFileFuzzer.cpp - binarised sentence pairs (.tok) --------------===//

#include "FuzzTarget.h"

#include "runtime/data/TokenFile.h"

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  tc::fuzz::writeSeedIfAsked(*argc, *argv, [](const std::string &dir) {
    std::vector<tc::rt::SentencePair> pairs = {{{5, 6, 2}, {5, 6}},
                                               {{7, 2}, {7}}};
    std::string error;
    return tc::rt::writeTokenFile(dir + "/seed.tok", pairs, error);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  tc::rt::parseTokenFile(std::vector<uint8_t>(data, data + size), "fuzz.tok",
                         error);
  return 0;
}
