//===- ScoreTest.cpp - BLEU, chrF and 13a against sacreBLEU ---------------===//
//
// Every expected value here was computed by sacreBLEU 2.6.0 (the version
// scripts/test-venv.sh pins): Tokenizer13a()(text) for the tokeniser, and
// BLEU().corpus_score / CHRF().corpus_score (their defaults) for the
// scores, printed with repr(). test/Runtime/score-sacrebleu.test compares
// whole files with the sacrebleu command itself.
//
//===----------------------------------------------------------------------===//

#include "runtime/score/Bleu.h"
#include "runtime/score/Chrf.h"
#include "runtime/score/ScoreFiles.h"
#include "runtime/score/Signature.h"
#include "runtime/score/Tokenize13a.h"
#include "runtime/score/Unicode.h"

#include "TestDirectory.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace tc::rt;

namespace {

// The arithmetic is sacreBLEU's operation by operation: scores agree to
// rounding, far inside the 0.01 that matters.
constexpr double kTolerance = 1e-9;

TEST(ScoreTokenize13a, MatchesSacreBleu) {
  struct Case {
    const char *text, *tokens;
  } cases[] = {
      {"Hello, world!", "Hello , world !"},
      {"It costs $1,000.50 (approx.) today.",
       "It costs $ 1,000.50 ( approx . ) today ."},
      // Periods and commas between digits stay; a hyphen after a digit
      // splits, one before a digit does not.
      {"1,000 and 3.14, then 2-3 and well-known a-1 1-a",
       "1,000 and 3.14 , then 2 - 3 and well-known a-1 1 - a"},
      {"end.. a.b ,x 5.a a.5 .5 5. x,",
       "end . . a . b , x 5 . a a . 5 . 5 5 . x ,"},
      {"U.S.A. e.g. 3.", "U . S . A . e . g . 3 ."},
      // Entities, replaced in sacreBLEU's order (quot, amp, lt, gt), each
      // over the whole segment: "&amp;lt;" ends as "<".
      {"&quot;Quoted&quot; &amp; &lt;tag&gt; &amp;lt;",
       "\" Quoted \" & < tag > <"},
      {"x&y &quot &amp;amp;", "x & y & quot & amp ;"},
      {"<skipped> before<skipped>after", "beforeafter"},
      {"hyphen-\nated line\nbreak", "hyphenated line break"},
      // Non-ASCII punctuation is not split.
      {"¿Dónde está? ¡Aquí! «Sí», dijo él.",
       "¿Dónde está ? ¡Aquí ! «Sí» , dijo él ."},
      {"don't stop 'quoted' \"double\"", "don't stop 'quoted' \" double \""},
      {"path/to/file_name~x {a|b} [c] ^d` @e #f %g *h +i =j ;k :l ?m",
       "path / to / file _ name ~ x { a | b } [ c ] ^ d ` @ e # f % g * h + "
       "i = j ; k : l ? m"},
      // Python's whitespace: tab, no-break space, ideographic space; a
      // zero-width space is not whitespace.
      {"a\tb\u00a0c\u3000d\u200be", "a b c d\u200be"},
      {"", ""},
      {"   ", ""},
  };
  for (const Case &c : cases)
    EXPECT_EQ(tokenize13a(std::string(c.text)), c.tokens) << c.text;
}

struct Expected {
  double bleu;
  std::array<int64_t, 4> counts, totals;
  std::array<double, 4> precisions;
  double brevityPenalty;
  int64_t hypLen, refLen;
  double chrf;
};

std::vector<Segment> corpus(std::vector<std::string> hypotheses,
                            std::vector<std::vector<std::string>> references) {
  std::vector<Segment> segments(hypotheses.size());
  for (size_t i = 0; i < segments.size(); ++i) {
    segments[i].hypothesis = hypotheses[i];
    for (const std::vector<std::string> &stream : references)
      segments[i].references.push_back(stream[i]);
  }
  return segments;
}

void expectScores(const std::vector<Segment> &segments, const Expected &e) {
  BleuScore bleu = corpusBleu(segments);
  EXPECT_NEAR(bleu.score, e.bleu, kTolerance);
  EXPECT_EQ(bleu.statistics.correct, e.counts);
  EXPECT_EQ(bleu.statistics.total, e.totals);
  for (int n = 0; n < 4; ++n)
    EXPECT_NEAR(bleu.precisions[n], e.precisions[n], kTolerance) << n;
  EXPECT_NEAR(bleu.brevityPenalty, e.brevityPenalty, kTolerance);
  EXPECT_EQ(bleu.statistics.hypothesisLength, e.hypLen);
  EXPECT_EQ(bleu.statistics.referenceLength, e.refLen);
  EXPECT_NEAR(corpusChrf(segments).score, e.chrf, kTolerance);
}

TEST(Score, PerfectMatchIs100) {
  expectScores(corpus({"the cat sat on the mat"}, {{"the cat sat on the mat"}}),
               {100.00000000000004,
                {6, 5, 4, 3},
                {6, 5, 4, 3},
                {100, 100, 100, 100},
                1.0,
                6,
                6,
                100.0});
}

TEST(Score, NoOverlapIs0) {
  expectScores(corpus({"abc def ghi jkl"}, {{"xyz uvw rst opq"}}),
               {0.0, {0, 0, 0, 0}, {4, 3, 2, 1}, {0, 0, 0, 0}, 1.0, 4, 4, 0.0});
}

TEST(Score, EmptyHypothesisIs0) {
  // No hypothesis word: BP = 0; no character: chrF has no order to average.
  expectScores(corpus({""}, {{"the cat sat on the mat"}}),
               {0.0, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, 0.0, 0, 6, 0.0});
}

TEST(Score, EmptyHypothesisAmongOthersCostsBrevity) {
  expectScores(corpus({"", "the cat sat on the mat"},
                      {{"a dog", "the cat sat on the mat"}}),
               {71.65313105737896,
                {6, 5, 4, 3},
                {6, 5, 4, 3},
                {100, 100, 100, 100},
                0.7165313105737893,
                6,
                8,
                92.76914579380899});
}

TEST(Score, BrevityPenalty) {
  // BP = exp(1 - 6/5).
  expectScores(corpus({"the cat sat on the"}, {{"the cat sat on the mat"}}),
               {81.87307530779823,
                {5, 4, 3, 2},
                {5, 4, 3, 2},
                {100, 100, 100, 100},
                0.8187307530779819,
                5,
                6,
                82.47762218711755});
}

TEST(Score, PartialMatch) {
  expectScores(
      corpus({"the cat sat on a red mat"}, {{"the cat sat on the mat"}}),
      {43.47208719449914,
       {5, 3, 2, 1},
       {7, 6, 5, 4},
       {71.42857142857143, 50.0, 40.0, 25.0},
       1.0,
       7,
       6,
       64.27088327399632});
}

TEST(Score, ExpSmoothingAndMissingOrders) {
  // Orders 2 and 3 match nothing: 100 / (2 * 2) and 100 / (4 * 1); there is
  // no 4-gram at all, so without effective order BLEU is 0. chrF counts
  // code points: "ñ" and "ó" are one character each.
  expectScores(corpus({"el niño comió"}, {{"el nino comio"}}),
               {0.0,
                {1, 0, 0, 0},
                {3, 2, 1, 0},
                {33.333333333333336, 25.0, 25.0, 0.0},
                1.0,
                3,
                3,
                43.193241943241944});
  // Two words: a perfect match, yet BLEU 0 (no 3- or 4-grams); chrF 100.
  expectScores(
      corpus({"the cat"}, {{"the cat"}}),
      {0.0, {2, 1, 0, 0}, {2, 1, 0, 0}, {100, 100, 0, 0}, 1.0, 2, 2, 100.0});
}

TEST(Score, ChrfIgnoresWhitespace) {
  expectScores(
      corpus({"a b c"}, {{"abc"}}),
      {0.0, {0, 0, 0, 0}, {3, 2, 1, 0}, {0, 0, 0, 0}, 1.0, 3, 1, 100.0});
}

TEST(Score, ChrfCountsNoHypothesisNgramsOfOrdersTheReferenceLacks) {
  expectScores(corpus({"abcdefg hij"}, {{"ab"}}), {0.0,
                                                   {0, 0, 0, 0},
                                                   {2, 1, 0, 0},
                                                   {0, 0, 0, 0},
                                                   1.0,
                                                   2,
                                                   1,
                                                   47.945205479452056});
  ChrfStatistics statistics = chrfStatistics("abcdefg hij", {"ab"});
  EXPECT_EQ(statistics.orders[0].hypothesis, 10);
  EXPECT_EQ(statistics.orders[1].hypothesis, 9);
  EXPECT_EQ(statistics.orders[2].hypothesis, 0);
  EXPECT_EQ(statistics.orders[2].reference, 0);
}

TEST(Score, SeveralReferences) {
  std::vector<Segment> segments =
      corpus({"the cat is on the mat", "there is a cat here"},
             {{"the cat sat on the mat", "a cat is here"},
              {"there is a cat on the mat", "there is a cat here"}});
  expectScores(segments, {64.93358309501981,
                          {11, 7, 4, 2},
                          {11, 9, 7, 5},
                          {100.0, 77.77777777777777, 57.142857142857146, 40.0},
                          1.0,
                          11,
                          11,
                          79.58195127652672});
  EXPECT_EQ(referenceCount(segments), "2");
  segments[1].references.pop_back();
  EXPECT_EQ(referenceCount(segments), "var");
}

TEST(Score, Signatures) {
  EXPECT_EQ(formatSignature(bleuSignatureFields("1")),
            "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0+tc");
  EXPECT_EQ(formatSignature(chrfSignatureFields("1")),
            "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0+tc");
  EXPECT_EQ(chrfName(), "chrF2");
  BleuScore bleu =
      corpusBleu(corpus({"the cat sat on the"}, {{"the cat sat on the mat"}}));
  EXPECT_EQ(
      formatScoreLine(bleuName(), "nrefs:1", bleu.score, bleuDetails(bleu)),
      "BLEU|nrefs:1 = 81.87 100.0/100.0/100.0/100.0 (BP = 0.819 "
      "ratio = 0.833 hyp_len = 5 ref_len = 6)");
}

TEST(ScoreUnicode, StrictUtf8) {
  EXPECT_FALSE(findInvalidUtf8("plain ¿ñ? 😀"));
  EXPECT_EQ(findInvalidUtf8("ab\xC3"), 2u);            // cut short
  EXPECT_EQ(findInvalidUtf8("a\xC0\xAF"), 1u);         // overlong '/'
  EXPECT_EQ(findInvalidUtf8("\xED\xA0\x80"), 0u);      // a surrogate
  EXPECT_EQ(findInvalidUtf8("x\xF4\x90\x80\x80"), 1u); // above U+10FFFF
  EXPECT_EQ(findInvalidUtf8("\xE9t\xE9"), 0u);         // Latin-1
  EXPECT_EQ(decodeUtf8("ñ"), U"ñ");
  EXPECT_EQ(encodeUtf8(U"¿😀?"), "¿😀?");
}

class ScoreFiles : public testing::Test {
protected:
  void SetUp() override { dir = tc::test::freshTestDirectory("score"); }
  std::string write(const std::string &name, const std::string &text) {
    std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::filesystem::path dir;
  std::string error;
};

TEST_F(ScoreFiles, ReadsLinesAsSacreBleuDoes) {
  // "\n" ends a line, a lone "\r" does not; trailing whitespace (a "\r\n"
  // line end's "\r", a no-break space) is stripped; a last line without
  // "\n" counts.
  std::optional<std::vector<std::string>> segments =
      splitSegments("a \r\nb\rc\n\nd\u00a0\t\ne", "x", error);
  ASSERT_TRUE(segments) << error;
  EXPECT_EQ(*segments, (std::vector<std::string>{"a", "b\rc", "", "d", "e"}));
  EXPECT_EQ(splitSegments("", "x", error)->size(), 0u);
  EXPECT_EQ(splitSegments("\n", "x", error)->size(), 1u);
}

TEST_F(ScoreFiles, ScoresAFile) {
  std::string hyp = write("hyp.txt", "the cat sat on the\n");
  std::string ref = write("ref.txt", "the cat sat on the mat\n");
  std::optional<CorpusScores> scores = scoreFiles(hyp, {ref}, error);
  ASSERT_TRUE(scores) << error;
  EXPECT_NEAR(scores->bleu.score, 81.87307530779823, kTolerance);
  EXPECT_NEAR(scores->chrf.score, 82.47762218711755, kTolerance);
  EXPECT_EQ(scores->nrefs, "1");
}

TEST_F(ScoreFiles, RefusesBadInput) {
  std::string hyp = write("hyp.txt", "one\ntwo\n");
  std::string ref = write("ref.txt", "one\ntwo\nthree\n");
  EXPECT_FALSE(scoreFiles(hyp, {ref}, error));
  EXPECT_NE(error.find("hyp.txt has 2 lines"), std::string::npos) << error;
  EXPECT_NE(error.find("ref.txt has 3 lines"), std::string::npos) << error;

  EXPECT_FALSE(scoreFiles((dir / "missing.txt").string(), {ref}, error));
  EXPECT_NE(error.find("missing.txt: cannot open"), std::string::npos) << error;

  std::string latin1 = write("latin1.txt", "one\ntw\xF3\n");
  EXPECT_FALSE(scoreFiles(hyp, {latin1}, error));
  EXPECT_NE(error.find("latin1.txt:2: invalid UTF-8 at byte 3"),
            std::string::npos)
      << error;

  std::string empty = write("empty.txt", "");
  EXPECT_FALSE(scoreFiles(empty, {empty}, error));
  EXPECT_NE(error.find("nothing to score"), std::string::npos) << error;

  // Standard input is read once (a second "-" read no lines).
  EXPECT_FALSE(scoreFiles("-", {"-"}, error));
  EXPECT_EQ(error, "- (standard input) is given twice; it can be read once: "
                   "give the other files by name");
  EXPECT_FALSE(scoreFiles(hyp, {"-", ref, "-"}, error));
  EXPECT_NE(error.find("given twice"), std::string::npos) << error;
}

} // namespace
