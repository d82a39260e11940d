//===- VocabularyFuzzer.cpp - SentencePiece models through encode ---------===//
//
// Any bytes as a vocabulary, through tc's checks (VocabularyCheck.h); a
// vocabulary they accept then encodes and decodes a few fixed texts, odd
// Unicode among them, in libsentencepiece. libsentencepiece is not
// instrumented: a fault inside it shows only when it crashes, which is what
// a normaliser table of random bytes did before the checks.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "runtime/data/SubwordVocabulary.h"

#include <fstream>

namespace {

/// Texts a translation input may hold.
const std::string_view kTexts[] = {
    "In the beginning God created the heaven and the earth.",
    "",
    "   \t ",
    "\xEF\xBC\xA1\xEF\xBC\xA2 \xEF\xAC\x81 \xE2\x85\xA8", // fullwidth, ligature
    "e\xCC\x81 \xE1\x84\x80\xE1\x85\xA1",                 // combining, jamo
    "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7",       // emoji with ZWJ
    "\xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7 \xE5\xA4\xA9", // RTL, CJK
    "\xE2\x80\xA8\xC2\x85\xC2\xA0\xE3\x80\x80\xE2\x80\x8B",  // Unicode spaces
    std::string_view("a\0b", 3),
    "\xFF\xFE\xED\xA0\x80\xC0\x80", // not UTF-8
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
};

bool writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  return bool(out);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  // Vocabularies as tc-run prepare trains them (SentencePiece's nmt_nfkc
  // normaliser): fuzz/seeds/ holds a smaller one with the identity rule.
  tc::fuzz::writeSeedIfAsked(*argc, *argv, [](const std::string &dir) {
    std::string error;
    std::vector<std::string> text = tc::fuzz::seedText();
    tc::rt::Vocabulary vocab;
    vocab.size = 24; // as many as unigram makes of this text
    for (auto [algorithm, name] :
         {std::pair{tc::rt::SubwordAlgorithm::Bpe, "bpe"},
          {tc::rt::SubwordAlgorithm::Unigram, "unigram"}}) {
      auto subwords =
          tc::rt::SubwordVocabulary::train({&text}, vocab, algorithm, error);
      if (!subwords ||
          !writeFile(dir + "/" + name + ".model", subwords->serialized()))
        return false;
    }
    return true;
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  auto vocabulary = tc::rt::SubwordVocabulary::fromSerialized(
      std::string(reinterpret_cast<const char *>(data), size), "fuzz.model",
      error);
  if (!vocabulary)
    return 0;
  for (std::string_view text : kTexts) {
    std::vector<int32_t> ids = vocabulary->encode(text);
    vocabulary->decode(ids);
  }
  // Ids a model may produce: any, the special ones included.
  vocabulary->decode({-1, 0, 1, 2, 3, int32_t(vocabulary->size()) - 1,
                      int32_t(vocabulary->size()), 1 << 30});
  return 0;
}
