//===- ParallelText.cpp - two text files, line i of each one sentence pair -===//

#include "runtime/data/ParallelText.h"
#include "runtime/format/TokenFile.h"
#include "support/BlankText.h"
#include "support/TextLines.h"

#include <algorithm>
#include <sstream>

namespace tc::rt {
namespace {

/// False with `error` naming the first blank line of `lines` and how many
/// there are.
bool checkNoBlankLines(const std::vector<std::string> &lines,
                       const std::string &path, std::string &error) {
  auto blank = [](const std::string &line) {
    return support::isBlankLine(line);
  };
  auto first = std::find_if(lines.begin(), lines.end(), blank);
  if (first == lines.end())
    return true;
  int64_t count = std::count_if(lines.begin(), lines.end(), blank);
  error = path + ":" + std::to_string(first - lines.begin() + 1) +
          ": an empty line (" + std::to_string(count) +
          " in all); every line must hold one sentence: remove the pair "
          "from both files";
  return false;
}

/// The ids of `line` (line `number` of `path`), or none with `error`.
std::optional<std::vector<int32_t>> parseIds(const std::string &line,
                                             const std::string &path,
                                             size_t number,
                                             const Vocabulary &vocab,
                                             std::string &error) {
  std::istringstream words(line);
  std::vector<int32_t> ids;
  std::string word;
  while (words >> word) {
    char *end = nullptr;
    long id = std::strtol(word.c_str(), &end, 10);
    if (*end != '\0' || id < 0 || (vocab.size > 0 && id >= vocab.size)) {
      error = path + ":" + std::to_string(number) + ": '" + word +
              "' is not a token id in [0, " + std::to_string(vocab.size) + ")";
      return std::nullopt;
    }
    ids.push_back(int32_t(id));
  }
  return ids;
}

} // namespace

std::optional<ParallelText> readParallelText(const std::string &sourcePath,
                                             const std::string &targetPath,
                                             std::string &error) {
  ParallelText text;
  for (auto [path, lines] : {std::pair{&sourcePath, &text.source},
                             std::pair{&targetPath, &text.target}}) {
    auto read = support::readUtf8Lines(*path, kMaxTokenFileBytes, error);
    if (!read)
      return std::nullopt;
    *lines = std::move(*read);
  }
  if (text.source.size() != text.target.size()) {
    error = sourcePath + " has " + std::to_string(text.source.size()) +
            " lines but " + targetPath + " has " +
            std::to_string(text.target.size()) +
            "; line i of each must be the two sides of pair i";
    return std::nullopt;
  }
  if (!checkNoBlankLines(text.source, sourcePath, error) ||
      !checkNoBlankLines(text.target, targetPath, error))
    return std::nullopt;
  text.line.resize(text.source.size());
  for (size_t i = 0; i < text.line.size(); ++i)
    text.line[i] = i + 1;
  return text;
}

LongPairs dropLongPairs(ParallelText &text, int64_t maxBytes) {
  LongPairs dropped;
  size_t kept = 0;
  for (size_t i = 0; i < text.source.size(); ++i) {
    if (int64_t(text.source[i].size()) > maxBytes ||
        int64_t(text.target[i].size()) > maxBytes) {
      if (dropped.count++ == 0)
        dropped.firstLine = text.line[i];
      continue;
    }
    if (kept != i) { // a string moved onto itself may be left empty
      text.source[kept] = std::move(text.source[i]);
      text.target[kept] = std::move(text.target[i]);
      text.line[kept] = text.line[i];
    }
    ++kept;
  }
  text.source.resize(kept);
  text.target.resize(kept);
  text.line.resize(kept);
  return dropped;
}

std::vector<SentencePair> encodePairs(const ParallelText &text,
                                      const SubwordVocabulary &subwords,
                                      const Vocabulary &vocab) {
  std::vector<SentencePair> pairs(text.source.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    pairs[i].source = subwords.encode(text.source[i]);
    pairs[i].source.push_back(vocab.eos);
    pairs[i].target = subwords.encode(text.target[i]);
  }
  return pairs;
}

std::optional<std::vector<SentencePair>>
parseIdPairs(const ParallelText &text, const std::string &sourcePath,
             const std::string &targetPath, const Vocabulary &vocab,
             std::string &error) {
  std::vector<SentencePair> pairs(text.source.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    auto source =
        parseIds(text.source[i], sourcePath, text.line[i], vocab, error);
    if (!source)
      return std::nullopt;
    auto target =
        parseIds(text.target[i], targetPath, text.line[i], vocab, error);
    if (!target)
      return std::nullopt;
    pairs[i].source = std::move(*source);
    pairs[i].source.push_back(vocab.eos);
    pairs[i].target = std::move(*target);
  }
  return pairs;
}

} // namespace tc::rt
