//===- ScoreFiles.cpp - BLEU and chrF of a hypothesis file ----------------===//

#include "runtime/score/ScoreFiles.h"
#include "runtime/score/Signature.h"
#include "runtime/score/Unicode.h"
#include "support/FileBytes.h"

#include <algorithm>
#include <cstdio>

namespace tc::rt {
namespace {

/// `line` (valid UTF-8) without its trailing whitespace, as str.rstrip().
std::string_view stripTrailing(std::string_view line) {
  while (!line.empty()) {
    // The last code point starts at the last byte that is not a
    // continuation byte (10xxxxxx).
    size_t start = line.size() - 1;
    while (start > 0 &&
           (static_cast<unsigned char>(line[start]) & 0xC0) == 0x80)
      --start;
    std::u32string last = decodeUtf8(line.substr(start));
    if (last.size() != 1 || !isPythonSpace(last[0]))
      break;
    line.remove_suffix(line.size() - start);
  }
  return line;
}

std::string plural(size_t count, const char *noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

} // namespace

std::optional<std::vector<std::string>> splitSegments(std::string_view text,
                                                      const std::string &name,
                                                      std::string &error) {
  if (std::optional<size_t> bad = findInvalidUtf8(text)) {
    size_t lineStart = text.rfind('\n', *bad);
    lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
    size_t line = 1;
    for (size_t i = 0; i < lineStart; ++i)
      line += text[i] == '\n';
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X",
                  static_cast<unsigned char>(text[*bad]));
    error = name + ":" + std::to_string(line) + ": invalid UTF-8 at byte " +
            std::to_string(*bad - lineStart + 1) + " of the line (" + byte +
            "); hypotheses and references must be UTF-8 text (convert "
            "the file, e.g. iconv -f LATIN1 -t UTF-8)";
    return std::nullopt;
  }
  std::vector<std::string> segments;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    segments.emplace_back(stripTrailing(text.substr(start, end - start)));
    start = end + 1;
  }
  return segments;
}

std::optional<std::vector<std::string>> readSegments(const std::string &path,
                                                     std::string &error) {
  std::optional<std::string> text =
      support::readTextOrStandardInput(path, kMaxScoreFileBytes, error);
  if (!text)
    return std::nullopt;
  return splitSegments(*text, path == "-" ? "standard input" : path, error);
}

CorpusScores scoreSegments(const std::vector<Segment> &segments) {
  CorpusScores scores;
  scores.segments = segments.size();
  scores.nrefs = referenceCount(segments);
  scores.bleu = corpusBleu(segments);
  scores.chrf = corpusChrf(segments);
  return scores;
}

std::optional<CorpusScores>
scoreFiles(const std::string &hypothesisPath,
           const std::vector<std::string> &referencePaths, std::string &error) {
  if (referencePaths.empty()) {
    error = "no reference file: give one with --reference";
    return std::nullopt;
  }
  // Standard input is read once: a second "-" would read nothing.
  if (std::count(referencePaths.begin(), referencePaths.end(), "-") +
          (hypothesisPath == "-") >
      1) {
    error = "- (standard input) is given twice; it can be read once: give "
            "the other files by name";
    return std::nullopt;
  }
  std::optional<std::vector<std::string>> hypotheses =
      readSegments(hypothesisPath, error);
  if (!hypotheses)
    return std::nullopt;
  std::vector<Segment> segments(hypotheses->size());
  for (size_t i = 0; i < segments.size(); ++i)
    segments[i].hypothesis = std::move((*hypotheses)[i]);

  for (const std::string &referencePath : referencePaths) {
    std::optional<std::vector<std::string>> references =
        readSegments(referencePath, error);
    if (!references)
      return std::nullopt;
    if (references->size() != segments.size()) {
      error = "the hypothesis " + hypothesisPath + " has " +
              plural(segments.size(), "line") + " but the reference " +
              referencePath + " has " + plural(references->size(), "line") +
              "; line i of the hypothesis is scored against line i of the "
              "reference, so both need one segment per line, as many "
              "lines each (an empty line is an empty segment)";
      return std::nullopt;
    }
    for (size_t i = 0; i < segments.size(); ++i)
      segments[i].references.push_back(std::move((*references)[i]));
  }
  if (segments.empty()) {
    error = "the hypothesis " + hypothesisPath +
            " and its reference have no lines: nothing to score";
    return std::nullopt;
  }
  return scoreSegments(segments);
}

} // namespace tc::rt
