//===- ScoreFiles.h - BLEU and chrF of a hypothesis file ------------------===//
//
// Files are read as sacreBLEU's command line reads them (sacrebleu.py,
// utils.smart_open): UTF-8, one segment per line, lines end at "\n" only (a
// lone "\r" stays inside its line), a last line without "\n" still counts,
// and each line is stripped of trailing whitespace (str.rstrip(), which
// also drops the "\r" of a "\r\n" line end). Line i of the hypothesis file
// is scored against line i of each reference file.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_SCORE_SCOREFILES_H
#define TC_RUNTIME_SCORE_SCOREFILES_H

#include "runtime/score/Bleu.h"
#include "runtime/score/Chrf.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

/// The largest hypothesis or reference file read (a WMT test set is under
/// 1 MiB).
constexpr uint64_t kMaxScoreFileBytes = uint64_t(256) << 20;

/// The segments of `text`, read from `name` (for messages), or none with
/// `error` "NAME:LINE: invalid UTF-8 at byte COLUMN; ..." when it is not
/// UTF-8.
std::optional<std::vector<std::string>> splitSegments(std::string_view text,
                                                      const std::string &name,
                                                      std::string &error);

/// The segments of the file at `path` ("-": standard input), or none with
/// `error` naming the file and what is wrong (missing, unreadable, not a
/// regular file, too large, not UTF-8).
std::optional<std::vector<std::string>> readSegments(const std::string &path,
                                                     std::string &error);

/// A corpus' BLEU and chrF and what their signatures need.
struct CorpusScores {
  size_t segments = 0;
  std::string nrefs; ///< the signatures' nrefs field
  BleuScore bleu;
  ChrfScore chrf;
};

/// Scores the segments directly.
CorpusScores scoreSegments(const std::vector<Segment> &segments);

/// Scores the hypothesis file against one or more reference files, or
/// returns none with `error` saying which file is wrong and how (one that
/// cannot be read, invalid UTF-8 with its line, a line count that differs
/// from the hypothesis', no lines at all).
std::optional<CorpusScores>
scoreFiles(const std::string &hypothesisPath,
           const std::vector<std::string> &referencePaths, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_SCORE_SCOREFILES_H
