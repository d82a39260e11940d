//===- ParallelText.h - two text files, line i of each one sentence pair ---===//
//
// What `tc-run prepare` reads: the source and target sides of a corpus, one
// sentence per line, UTF-8. Both files have the same number of lines and no
// line is empty (an empty line is a misaligned or a lost sentence; blank as
// support/BlankText.h says). Pairs with a line longer than the model can
// hold are left out before anything else is done with them (LineLimit.h).
// The lines become token ids through the subword vocabulary, or, for tests
// and for data tokenised elsewhere, are read as whitespace-separated ids.
//
// A corpus of WMT's size (gigabytes) is never held whole: a first pass
// checks both files in step and notes the long pairs, then the vocabulary
// trains on the sentences streamed (CorpusSentences), then a second pass
// encodes the pairs a block at a time, on every core.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_PARALLELTEXT_H
#define TC_RUNTIME_DATA_PARALLELTEXT_H

#include "runtime/data/Batch.h"
#include "runtime/data/SubwordVocabulary.h"
#include "support/TextLines.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

/// What the first pass over a corpus found.
struct ParallelTextScan {
  std::string sourcePath, targetPath;
  int64_t maxBytes = 0; ///< of a side of a pair kept
  uint64_t lines = 0; ///< of each file
  uint64_t bytes = 0; ///< of both
  /// The pairs left out: a side is longer than the model can hold. Their
  /// line numbers (from 1), in order.
  std::vector<uint64_t> longLines;
  uint64_t pairs() const { return lines - longLines.size(); }
};

/// Reads both files in step, keeping nothing but the long pairs' line
/// numbers (a side of more than `maxBytes` bytes), or none with `error`
/// naming the file, the line and the fix: a missing or unreadable file,
/// invalid UTF-8, a NUL byte, an empty line (the first, and how many),
/// different line counts (both named).
std::optional<ParallelTextScan> scanParallelText(const std::string &sourcePath,
                                                 const std::string &targetPath,
                                                 int64_t maxBytes,
                                                 std::string &error);

/// A block of a corpus's pairs, the long ones left out.
struct TextBlock {
  std::vector<std::string> source, target;
  std::vector<uint64_t> line; ///< where pair i is in the files, from 1
};

/// The pairs of a scanned corpus a block at a time, in file order.
class ParallelTextReader {
public:
  /// Reads `scan`'s files again (null with `error` when they cannot be).
  static std::unique_ptr<ParallelTextReader>
  open(const ParallelTextScan &scan, std::string &error);
  /// The next block of at most `pairs` pairs (empty at the end); false with
  /// `error` when a file changed since the scan or cannot be read.
  bool next(size_t pairs, TextBlock &block, std::string &error);

private:
  explicit ParallelTextReader(const ParallelTextScan &scan) : scan_(scan) {}
  const ParallelTextScan &scan_;
  std::unique_ptr<support::Utf8LineReader> source_, target_;
  size_t nextLong_ = 0; ///< the first of scan_.longLines not yet passed
};

/// The sentences a joint vocabulary trains on: every kept source line,
/// then every kept target line, read from the files as they are needed.
class CorpusSentences : public SentenceSource {
public:
  explicit CorpusSentences(const ParallelTextScan &scan) : scan_(scan) {}
  bool next(std::string &sentence) override;
  /// What stopped the sentences early (a file changed since the scan);
  /// empty when they ran to the end.
  const std::string &error() const { return error_; }

private:
  const ParallelTextScan &scan_;
  int side_ = -1; ///< 0 source, 1 target; -1 before the first
  std::unique_ptr<support::Utf8LineReader> file_;
  size_t nextLong_ = 0;
  std::string error_;
};

/// The pairs of `block` through `subwords` (each source ends with EOS),
/// encoded on every OpenMP thread.
std::vector<SentencePair> encodePairs(const TextBlock &block,
                                      const SubwordVocabulary &subwords,
                                      const Vocabulary &vocab);

/// The pairs of `block` read as whitespace-separated token ids (each
/// source then ends with EOS), or none with `error` naming the file, the
/// line and the word that is not an id of `vocab`.
std::optional<std::vector<SentencePair>>
parseIdPairs(const TextBlock &block, const std::string &sourcePath,
             const std::string &targetPath, const Vocabulary &vocab,
             std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_PARALLELTEXT_H
