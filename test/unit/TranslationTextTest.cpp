//===- TranslationTextTest.cpp - text translation's pieces ----------------===//
//
// Token ids as text, input lines to sources, and the output lines of
// tc-run translate (runtime/data/TokenIdText.h, SourceLines.h,
// TranslationOutput.h). test/Runtime/translate-*.test run them end to end.
//
//===----------------------------------------------------------------------===//

#include "runtime/decode/SourceLines.h"
#include "runtime/data/TokenIdText.h"
#include "runtime/decode/TranslationOutput.h"

#include <gtest/gtest.h>

using namespace tc::rt;

namespace {

using Ids = std::vector<int32_t>;

const Vocabulary kVocabulary{20, 0, 1, 2};

TEST(TokenIdText, ReadsIdsBetweenSpacesAndTabs) {
  std::string error;
  EXPECT_EQ(parseTokenIds(" 4 17\t9\r", kVocabulary, "in:1", error),
            (Ids{4, 17, 9}));
  EXPECT_EQ(parseTokenIds("", kVocabulary, "in:1", error), Ids{});
  EXPECT_EQ(tokenIdText({4, 17, 9}), "4 17 9");
  EXPECT_EQ(tokenIdText({}), "");
}

TEST(TokenIdText, RefusesWhatIsNotAnIdOfTheVocabulary) {
  for (auto [line, word] : std::vector<std::pair<const char *, const char *>>{
           {"4 20", "20"}, {"-1", "-1"}, {"4x 5", "4x"}, {"4,5", "4,5"},
           {"3 a", "a"}}) {
    std::string error;
    EXPECT_FALSE(parseTokenIds(line, kVocabulary, "in:3", error)) << line;
    EXPECT_EQ(error, std::string("in:3: '") + word +
                         "' is not a token id in [0, 20)");
  }
}

// Without a vocabulary size (an executable without run settings) ids are
// still i32: 4294967296 was taken as 0, the padding id, past its check.
TEST(TokenIdText, IdsAreI32WithoutAVocabularySize) {
  const Vocabulary unsized{0, 0, 1, 2};
  std::string error;
  EXPECT_EQ(parseTokenIds("2147483647", unsized, "in:1", error),
            (Ids{2147483647}));
  for (const char *word : {"2147483648", "4294967296", "4294967299"}) {
    EXPECT_FALSE(parseTokenIds(word, unsized, "in:2", error)) << word;
    EXPECT_EQ(error, std::string("in:2: '") + word +
                         "' is not a token id in [0, 2147483648)");
  }
}

// tc adds padding, BOS and EOS itself: one in a sentence would end it early
// (EOS in a source) or be ignored by the loss (padding in a target).
TEST(TokenIdText, RefusesPaddingBosAndEos) {
  for (auto [line, what] : std::vector<std::pair<const char *, const char *>>{
           {"4 0", "'0' is padding"},
           {"1 4", "'1' is the start of sentence (BOS)"},
           {"4 2 5", "'2' is the end of sentence (EOS)"}}) {
    std::string error;
    EXPECT_FALSE(parseTokenIds(line, kVocabulary, "in:3", error)) << line;
    EXPECT_EQ(error, std::string("in:3: ") + what +
                         ", which tc adds itself; give a sentence's ids "
                         "without 0, 1 or 2");
  }
}

TEST(SourceLines, BlankLinesAreNotSources) {
  Vocabulary vocab{20, 0, 1, 2};
  std::string error;
  auto sources = sourcesOfLines({"5 6", "", " \t", "7"}, nullptr, vocab,
                                LineLimit{}, "in", error);
  ASSERT_TRUE(sources) << error;
  EXPECT_EQ(sources->sources, (std::vector<Ids>{{5, 6, 2}, {7, 2}}));
  EXPECT_EQ(sources->lineOf, (std::vector<size_t>{0, 3}));
  EXPECT_EQ(sources->cut, 0);
}

TEST(SourceLines, ALongLineIsCutAtAnId) {
  Vocabulary vocab{2000, 0, 1, 2};
  LineLimit limit;
  limit.bytes = 6;
  std::string error;
  auto sources =
      sourcesOfLines({"11 12 13", "1234"}, nullptr, vocab, limit, "in", error);
  ASSERT_TRUE(sources) << error;
  EXPECT_EQ(sources->sources, (std::vector<Ids>{{11, 12, 2}, {1234, 2}}));
  EXPECT_EQ(sources->cut, 1);
  EXPECT_EQ(cutLine("123 456", 5, true), "123");
  EXPECT_EQ(cutLine("123 456", 5, false), "123 4");
  EXPECT_EQ(cutLine("12345", 3, true), "123"); // no space to cut at
}

TEST(SourceLines, TheLineOfABadIdIsNamed) {
  Vocabulary vocab{20, 0, 1, 2};
  std::string error;
  EXPECT_FALSE(sourcesOfLines({"4", "", "30"}, nullptr, vocab, LineLimit{},
                              "in.txt", error));
  EXPECT_EQ(error.substr(0, 15), "in.txt:3: '30' ");
}

Translations twoSentences() {
  Translations t;
  t.nBest = {{{{4, 5}, -1.5, -1.25, false}, {{4}, -2, -2.5, false}},
             {{{9}, -0.5, -0.75, false}, {{}, -3, -3, true}}};
  return t;
}

TEST(TranslationOutput, OneLinePerLineIn) {
  SourceLines sources;
  sources.lineOf = {0, 2};
  EXPECT_EQ(translationText(twoSentences(), sources, 4, nullptr, false),
            "4 5\n\n9\n\n");
}

TEST(TranslationOutput, NBestLinesNumberTheInputLines) {
  SourceLines sources;
  sources.lineOf = {0, 2};
  EXPECT_EQ(translationText(twoSentences(), sources, 4, nullptr, true),
            "0 ||| 4 5 ||| -1.25\n0 ||| 4 ||| -2.5\n"
            "2 ||| 9 ||| -0.75\n2 |||  ||| -3\n");
}

} // namespace
