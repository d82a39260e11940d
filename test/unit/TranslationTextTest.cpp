//===- TranslationTextTest.cpp - text translation's pieces ----------------===//
//
// Token ids as text, input lines to sources, and the output lines of
// tc-run translate (runtime/decode/TokenIdText.h, SourceLines.h,
// TranslationOutput.h). test/Runtime/translate-*.test run them end to end.
//
//===----------------------------------------------------------------------===//

#include "runtime/decode/SourceLines.h"
#include "runtime/decode/TokenIdText.h"
#include "runtime/decode/TranslationOutput.h"

#include <gtest/gtest.h>

using namespace tc::rt;

namespace {

using Ids = std::vector<int32_t>;

TEST(TokenIdText, ReadsIdsBetweenSpacesAndTabs) {
  std::string error;
  EXPECT_EQ(parseTokenIds(" 4 17\t9 ", 20, "in:1", error), (Ids{4, 17, 9}));
  EXPECT_EQ(parseTokenIds("", 20, "in:1", error), Ids{});
  EXPECT_EQ(tokenIdText({4, 17, 9}), "4 17 9");
  EXPECT_EQ(tokenIdText({}), "");
}

TEST(TokenIdText, RefusesWhatIsNotAnIdOfTheVocabulary) {
  for (const char *line : {"4 20", "-1", "4x", "4,5", "a"}) {
    std::string error;
    EXPECT_FALSE(parseTokenIds(line, 20, "in:3", error)) << line;
    EXPECT_EQ(error, std::string("in:3: '") + line +
                         "' is not a list of token ids in [0, 20); leave "
                         "out --ids to translate text");
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
  EXPECT_FALSE(sourcesOfLines({"1", "", "30"}, nullptr, vocab, LineLimit{},
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
