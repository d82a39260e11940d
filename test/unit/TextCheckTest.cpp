//===- TextCheckTest.cpp - blank lines, UTF-8 prefixes, numbers typed -----===//
//
// Issue 29: a line of no-break spaces passed the empty-line check (it knew
// only ' ' and '\t'); a flag's "nan" passed every range check; a NUL byte
// was tokenised.

#include "support/BlankText.h"
#include "support/NumberText.h"
#include "support/TextLines.h"
#include "support/Utf8.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace tc::support;

namespace {

TEST(BlankText, UnicodeWhitespaceAndZeroWidthCharactersAreBlank) {
  for (const char *line :
       {"", " \t ", "\xC2\xA0", "\xE3\x80\x80", "\xE2\x80\x8B", "\xE2\x80\xA8",
        "\xC2\x85", "\v", "\f", "\r", "\xEF\xBB\xBF",
        "\xE2\x80\x8C\xE2\x80\x8D", "\xE2\x81\xA0", "\xE2\x80\x8E\xE2\x80\x8F",
        "\xE1\x9A\x80 \xE2\x80\x8A", "\xE2\x81\x9F\xE2\x80\xAF", "\xE2\x96\x81",
        "\xEF\xBF\xBD", "\x01\x1F\x7F"})
    EXPECT_TRUE(isBlankLine(line)) << testing::PrintToString(line);
}

TEST(BlankText, AnyVisibleCharacterIsNotBlank) {
  for (const char *line :
       {"a", " a ", "\xC2\xA0.", "\xE3\x80\x80\xE6\x97\xA5", "\xC2\xAD" /*SHY*/,
        "0\xE2\x80\x8B", "\xF0\x9F\x98\x80" /*emoji*/,
        "\xE2\x81\xA1" /*function application*/})
    EXPECT_FALSE(isBlankLine(line)) << testing::PrintToString(line);
  // Bytes that are not UTF-8 are not blank: they are refused elsewhere.
  EXPECT_FALSE(isBlankLine("\xA0"));
  EXPECT_FALSE(isBlankLine(" \xC2"));
}

TEST(BlankText, EveryWhiteSpaceCodePointIsBlank) {
  // Unicode's White_Space property (PropList.txt).
  for (char32_t c :
       {0x9,    0xA,    0xB,    0xC,    0xD,    0x20,   0x85,   0xA0,   0x1680,
        0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
        0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000})
    EXPECT_TRUE(isBlankCodePoint(c)) << std::hex << uint32_t(c);
  EXPECT_FALSE(isBlankCodePoint(U'x'));
  EXPECT_FALSE(isBlankCodePoint(0x2010)); // hyphen, after the zero-width marks
  EXPECT_FALSE(isBlankCodePoint(0x1F600));
}

TEST(TextLines, NulIsRefusedWithItsLineAndByte) {
  std::string error;
  EXPECT_FALSE(
      splitUtf8Lines(std::string_view("ok\nG\0o\0d\n", 9), "x.en", error));
  EXPECT_EQ(error.rfind("x.en:2: a NUL byte at byte 2 of the line;", 0), 0u)
      << error;
  EXPECT_TRUE(splitUtf8Lines("ok\n\xC2\xA0\n", "x.en", error));
}

/// The lines a Utf8LineReader gives for the file `text` (each cut to
/// `keep` bytes), or its error.
std::vector<std::string> readLines(std::string_view text, std::string &error,
                                   uint64_t keep = UINT64_MAX) {
  std::string path = ::testing::TempDir() + "reader.txt";
  FILE *file = std::fopen(path.c_str(), "wb");
  std::fwrite(text.data(), 1, text.size(), file);
  std::fclose(file);
  std::vector<std::string> lines;
  auto reader = Utf8LineReader::open(path, 64 << 20, error);
  std::string line;
  while (reader && reader->next(line, error, keep))
    lines.push_back(line);
  std::remove(path.c_str());
  return lines;
}

// The streaming reader (tc-run prepare at scale) gives the lines, and the
// errors, that splitUtf8Lines gives for the whole text.
TEST(TextLines, ReaderMatchesSplitLineByLine) {
  for (std::string_view text :
       {std::string_view("a\nb\r\n\nc"), std::string_view("one\n"),
        std::string_view(""), std::string_view("\n\n"),
        std::string_view("\xC3\xA9t\xC3\xA9\r\nd\xC3\n"),
        std::string_view("ok\nG\0o\0d\nmore\n", 14)}) {
    std::string splitError, readError;
    auto split = splitUtf8Lines(text, ::testing::TempDir() + "reader.txt",
                                splitError);
    std::vector<std::string> read = readLines(text, readError);
    EXPECT_EQ(readError, splitError) << testing::PrintToString(text);
    if (split)
      EXPECT_EQ(read, *split) << testing::PrintToString(text);
    else // the lines before the bad one
      EXPECT_FALSE(readError.empty());
  }
}

// Lines across the reader's 1 MiB blocks, and one of 3 MiB read past
// without being kept (a file of one huge line must not cost its size).
TEST(TextLines, ReaderCrossesBlocksAndReadsPastLongLines) {
  std::string text = std::string(1048570, 'x') + "\nh\xC3\xA9llo\r\n" +
                     std::string(3 << 20, 'y') + "\nlast";
  std::string splitError, readError;
  auto split = splitUtf8Lines(text, "t.txt", splitError);
  ASSERT_TRUE(split) << splitError;
  // (Compared as a whole: printing 4 MiB of lines helps no one.)
  EXPECT_TRUE(readLines(text, readError) == *split) << readError;
  std::vector<std::string> cut = readLines(text, readError, 100);
  ASSERT_EQ(cut.size(), 4u) << readError;
  EXPECT_TRUE(cut[0] == std::string(100, 'x'));
  EXPECT_EQ(cut[1], "h\xC3\xA9llo");
  EXPECT_TRUE(cut[2] == std::string(100, 'y'));
  EXPECT_EQ(cut[3], "last");
  // A line past `keep` is not checked: the caller leaves it out.
  std::string bad = std::string(200, 'z') + "\xFF\nok\n";
  cut = readLines(bad, readError, 100);
  EXPECT_EQ(readError, "");
  EXPECT_EQ(cut.size(), 2u);
}

TEST(Utf8Prefix, NeverCutsACharacter) {
  // "aé€😀": 1 + 2 + 3 + 4 bytes.
  std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  EXPECT_EQ(utf8PrefixLength(text, 100), text.size());
  EXPECT_EQ(utf8PrefixLength(text, 0), 0u);
  EXPECT_EQ(utf8PrefixLength(text, 1), 1u);
  EXPECT_EQ(utf8PrefixLength(text, 2), 1u);
  EXPECT_EQ(utf8PrefixLength(text, 3), 3u);
  EXPECT_EQ(utf8PrefixLength(text, 5), 3u);
  EXPECT_EQ(utf8PrefixLength(text, 6), 6u);
  EXPECT_EQ(utf8PrefixLength(text, 9), 6u);
  EXPECT_EQ(utf8PrefixLength(text, 10), 10u);
}

TEST(NumberText, IntegersAreDecimalAndInRange) {
  std::string error;
  EXPECT_EQ(parseIntegerIn("010", 0, 100, error), 10);
  EXPECT_EQ(parseIntegerIn("-3", -5, 5, error), -3);
  for (const char *text : {"", "0x10", "+1", " 1", "1 ", "1.5", "nan", "-1",
                           "101", "9223372036854775808"}) {
    EXPECT_FALSE(parseIntegerIn(text, 0, 100, error)) << text;
    EXPECT_EQ(error,
              "'" + std::string(text) + "' is not an integer in [0, 100]");
  }
}

TEST(NumberText, NumbersAreFiniteAndInRange) {
  std::string error;
  NumberRange alpha{0, 10};
  EXPECT_EQ(parseNumberIn("0.6", alpha, error), 0.6);
  EXPECT_EQ(parseNumberIn("1e1", alpha, error), 10.0);
  EXPECT_EQ(parseNumberIn("0", alpha, error), 0.0);
  for (const char *text :
       {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e400", "-0.5",
        "10.000001", "0x1p3", "", " 1", "1,5", "1e"}) {
    EXPECT_FALSE(parseNumberIn(text, alpha, error)) << text;
    EXPECT_EQ(error, "'" + std::string(text) + "' is not a number in [0, 10]");
  }
  NumberRange positive{0, 1e6, /*minExcluded=*/true};
  EXPECT_FALSE(parseNumberIn("0", positive, error));
  EXPECT_EQ(error, "'0' is not a number in (0, 1000000]");
  EXPECT_EQ(parseNumberIn("0.0001", positive, error), 0.0001);
}

} // namespace
