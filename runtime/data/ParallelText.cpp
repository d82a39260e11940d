//===- ParallelText.cpp - two text files, line i of each one sentence pair -===//

#include "runtime/data/ParallelText.h"
#include "runtime/data/TokenIdText.h"
#include "runtime/format/TokenFile.h"
#include "support/BlankText.h"
#include "support/TextLines.h"

#include <algorithm>

namespace tc::rt {
namespace {

/// The first blank line of a file and how many there are.
struct BlankLines {
  uint64_t first = 0, count = 0;
  void see(const std::string &line, uint64_t number) {
    if (support::isBlankLine(line) && count++ == 0)
      first = number;
  }
  /// False with `error` naming the first when there is one.
  bool none(const std::string &path, std::string &error) const {
    if (count == 0)
      return true;
    error = path + ":" + std::to_string(first) + ": an empty line (" +
            std::to_string(count) +
            " in all); every line must hold one sentence: remove the pair "
            "from both files";
    return false;
  }
};

std::unique_ptr<support::Utf8LineReader> openText(const std::string &path,
                                                  std::string &error) {
  return support::Utf8LineReader::open(path, kMaxTokenFileBytes, error);
}

/// Whether `line` is one of the long pairs `longLines` lists, moving
/// `next` past those before it.
bool isLong(const std::vector<uint64_t> &longLines, size_t &next,
            uint64_t line) {
  while (next < longLines.size() && longLines[next] < line)
    ++next;
  return next < longLines.size() && longLines[next] == line;
}

/// Whether `text`, of a pair the scan kept, passes the scan's checks:
/// false when its file was edited between the passes.
bool asScanned(const ParallelTextScan &scan, const std::string &text) {
  return int64_t(text.size()) <= scan.maxBytes && !support::isBlankLine(text);
}

std::string changedError(const std::string &path) {
  return path + " changed while it was read (between prepare's passes); "
                "prepare it again";
}

} // namespace

std::optional<ParallelTextScan> scanParallelText(const std::string &sourcePath,
                                                 const std::string &targetPath,
                                                 int64_t maxBytes,
                                                 std::string &error) {
  auto source = openText(sourcePath, error);
  if (!source)
    return std::nullopt;
  auto target = openText(targetPath, error);
  if (!target)
    return std::nullopt;
  ParallelTextScan scan{sourcePath, targetPath, maxBytes};
  BlankLines blank[2];
  std::string s, t;
  while (true) {
    // A line past the limit is read over, not kept: its first bytes show
    // it long.
    uint64_t keep = uint64_t(maxBytes) + 1;
    bool hasSource = source->next(s, error, keep);
    if (!hasSource && !error.empty())
      return std::nullopt;
    bool hasTarget = target->next(t, error, keep);
    if (!hasTarget && !error.empty())
      return std::nullopt;
    if (!hasSource || !hasTarget) {
      if (hasSource || hasTarget) { // count the longer file's lines
        support::Utf8LineReader &rest = hasSource ? *source : *target;
        std::string line;
        while (rest.next(line, error, keep)) {
        }
        if (!error.empty())
          return std::nullopt;
        error = sourcePath + " has " + std::to_string(source->lines()) +
                " lines but " + targetPath + " has " +
                std::to_string(target->lines()) +
                "; line i of each must be the two sides of pair i";
        return std::nullopt;
      }
      break;
    }
    ++scan.lines;
    scan.bytes += s.size() + t.size();
    blank[0].see(s, scan.lines);
    blank[1].see(t, scan.lines);
    if (int64_t(s.size()) > maxBytes || int64_t(t.size()) > maxBytes)
      scan.longLines.push_back(scan.lines);
  }
  if (!blank[0].none(sourcePath, error) || !blank[1].none(targetPath, error))
    return std::nullopt;
  return scan;
}

std::unique_ptr<ParallelTextReader>
ParallelTextReader::open(const ParallelTextScan &scan, std::string &error) {
  std::unique_ptr<ParallelTextReader> reader(new ParallelTextReader(scan));
  reader->source_ = openText(scan.sourcePath, error);
  if (!reader->source_)
    return nullptr;
  reader->target_ = openText(scan.targetPath, error);
  if (!reader->target_)
    return nullptr;
  return reader;
}

bool ParallelTextReader::next(size_t pairs, TextBlock &block,
                              std::string &error) {
  block.source.clear();
  block.target.clear();
  block.line.clear();
  std::string s, t;
  while (block.source.size() < pairs) {
    uint64_t keep = uint64_t(scan_.maxBytes) + 1;
    bool hasSource = source_->next(s, error, keep);
    bool hasTarget = error.empty() && target_->next(t, error, keep);
    if (!error.empty())
      return false;
    if (!hasSource || !hasTarget) {
      if (hasSource || hasTarget || source_->lines() != scan_.lines) {
        error = changedError(hasSource ? scan_.targetPath : scan_.sourcePath);
        return false;
      }
      return true;
    }
    uint64_t line = source_->lines();
    if (isLong(scan_.longLines, nextLong_, line))
      continue;
    if (!asScanned(scan_, s) || !asScanned(scan_, t)) {
      error = changedError(asScanned(scan_, s) ? scan_.targetPath
                                               : scan_.sourcePath);
      return false;
    }
    block.source.push_back(std::move(s));
    block.target.push_back(std::move(t));
    block.line.push_back(line);
  }
  return true;
}

bool CorpusSentences::next(std::string &sentence) {
  while (side_ < 2) {
    if (file_) {
      const std::string &path =
          side_ == 0 ? scan_.sourcePath : scan_.targetPath;
      if (file_->next(sentence, error_, uint64_t(scan_.maxBytes) + 1)) {
        if (isLong(scan_.longLines, nextLong_, file_->lines()))
          continue;
        if (asScanned(scan_, sentence))
          return true;
        error_ = changedError(path);
        return false;
      }
      if (!error_.empty())
        return false;
      if (file_->lines() != scan_.lines) {
        error_ = changedError(path);
        return false;
      }
    }
    if (++side_ == 2)
      break;
    file_ = openText(side_ == 0 ? scan_.sourcePath : scan_.targetPath, error_);
    nextLong_ = 0;
    if (!file_)
      return false;
  }
  return false;
}

std::vector<SentencePair> encodePairs(const TextBlock &block,
                                      const SubwordVocabulary &subwords,
                                      const Vocabulary &vocab) {
  std::vector<SentencePair> pairs(block.source.size());
  // SentencePiece's Encode is const and thread-safe.
#pragma omp parallel for schedule(dynamic, 256)
  for (size_t i = 0; i < pairs.size(); ++i) {
    pairs[i].source = subwords.encode(block.source[i]);
    pairs[i].source.push_back(vocab.eos);
    pairs[i].target = subwords.encode(block.target[i]);
  }
  return pairs;
}

std::optional<std::vector<SentencePair>>
parseIdPairs(const TextBlock &block, const std::string &sourcePath,
             const std::string &targetPath, const Vocabulary &vocab,
             std::string &error) {
  std::vector<SentencePair> pairs(block.source.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    std::string line = ":" + std::to_string(block.line[i]);
    auto source =
        parseTokenIds(block.source[i], vocab, sourcePath + line, error);
    if (!source)
      return std::nullopt;
    auto target =
        parseTokenIds(block.target[i], vocab, targetPath + line, error);
    if (!target)
      return std::nullopt;
    pairs[i].source = std::move(*source);
    pairs[i].source.push_back(vocab.eos);
    pairs[i].target = std::move(*target);
  }
  return pairs;
}

} // namespace tc::rt
