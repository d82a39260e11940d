//===- TokenFileFuzzer.cpp - binarised sentence pairs (.tok) --------------===//
//
// The pairs, and the SentencePiece model a token file carries as the
// training run reads it (parsed by libsentencepiece, which is not
// instrumented: a fault inside it shows only when it crashes).
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "runtime/data/SubwordVocabulary.h"
#include "runtime/format/TokenFile.h"

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  tc::fuzz::writeSeedIfAsked(*argc, *argv, [](const std::string &dir) {
    std::string error;
    std::vector<std::string> text = tc::fuzz::seedText();
    tc::rt::Vocabulary vocab;
    vocab.size = 40;
    auto subwords = tc::rt::SubwordVocabulary::train(
        {&text}, vocab, tc::rt::SubwordAlgorithm::Bpe, error);
    if (!subwords)
      return false;
    tc::rt::TokenData data;
    data.pairs = {{{5, 6, 2}, {5, 6}}, {{7, 2}, {7}}};
    data.vocabulary = subwords->serialized();
    return tc::rt::writeTokenFile(dir + "/seed.tok", data, error);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  std::optional<tc::rt::TokenData> tokens = tc::rt::parseTokenFile(
      std::vector<uint8_t>(data, data + size), "fuzz.tok", error);
  if (tokens && !tokens->vocabulary.empty())
    tc::rt::SubwordVocabulary::fromSerialized(tokens->vocabulary, "fuzz.tok",
                                              error);
  return 0;
}
