//===- SubwordBlankTest.cpp - blank text is what the vocabulary erases ----===//
//
// support/BlankText.h promises that every code point SentencePiece's
// default normaliser (nmt_nfkc) removes or turns into a space is blank, so
// that no line the empty-line check lets through becomes a sentence of no
// tokens (issue 29: a line of no-break spaces became a source of EOS alone).
// Checked on a vocabulary trained as tc-run prepare trains one.

#include "runtime/data/SubwordVocabulary.h"
#include "support/BlankText.h"
#include "support/TextLines.h"
#include "support/Utf8.h"

#include <gtest/gtest.h>

using namespace tc;

namespace {

TEST(SubwordBlank, EveryCodePointTheVocabularyErasesIsBlank) {
  std::string error;
  std::vector<std::vector<std::string>> texts;
  for (const char *name : {"train.en", "train.es"}) {
    auto lines = support::readUtf8Lines(std::string(TC_SOURCE_DIR) +
                                            "/test/Runtime/Inputs/text/" + name,
                                        1 << 20, error);
    ASSERT_TRUE(lines) << error;
    texts.push_back(std::move(*lines));
  }
  rt::Vocabulary vocab{200, 3, 0, 5};
  auto subwords = rt::SubwordVocabulary::train(
      {&texts[0], &texts[1]}, vocab, rt::SubwordAlgorithm::Bpe, error);
  ASSERT_TRUE(subwords) << error;
  // nmt_nfkc's rules are all in the Basic Multilingual Plane; NUL is
  // refused before text is encoded.
  int erased = 0;
  for (char32_t c = 1; c < 0x10000; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF)
      continue;
    std::string line = support::encodeUtf8(std::u32string(1, c));
    if (!subwords->encode(line).empty())
      continue;
    ++erased;
    EXPECT_TRUE(support::isBlankCodePoint(c))
        << "U+" << std::hex << uint32_t(c) << " encodes to no token";
  }
  EXPECT_GT(erased, 40); // controls, spaces, zero-width characters
}

} // namespace
