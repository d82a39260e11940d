//===- ParallelText.h - two text files, line i of each one sentence pair ---===//
//
// What `tc-run prepare` reads: the source and target sides of a corpus, one
// sentence per line, UTF-8. Both files have the same number of lines and no
// line is empty (an empty line is a misaligned or a lost sentence; blank as
// support/BlankText.h says). Pairs with a line longer than the model can
// hold are dropped before anything else is done with them (LineLimit.h).
// The lines become token ids through the subword vocabulary, or, for tests
// and for data tokenised elsewhere, are read as whitespace-separated ids.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_PARALLELTEXT_H
#define TC_RUNTIME_DATA_PARALLELTEXT_H

#include "runtime/data/Batch.h"
#include "runtime/data/SubwordVocabulary.h"

#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

struct ParallelText {
  std::vector<std::string> source, target;
  std::vector<size_t> line; ///< where pair i is in the files, from 1
};

/// The lines of `sourcePath` and `targetPath`, or none with `error` naming
/// the file, the line and the fix: a missing or unreadable file, invalid
/// UTF-8, an empty line, different line counts (both named).
std::optional<ParallelText> readParallelText(const std::string &sourcePath,
                                             const std::string &targetPath,
                                             std::string &error);

/// The pairs of `text` dropped by dropLongPairs.
struct LongPairs {
  int64_t count = 0;
  size_t firstLine = 0; ///< the line of the first, from 1
};

/// Drops the pairs of `text` with a side of more than `maxBytes` bytes.
LongPairs dropLongPairs(ParallelText &text, int64_t maxBytes);

/// The pairs of `text` through `subwords` (each source ends with EOS).
std::vector<SentencePair> encodePairs(const ParallelText &text,
                                      const SubwordVocabulary &subwords,
                                      const Vocabulary &vocab);

/// The pairs of `text` read as whitespace-separated token ids (each source
/// then ends with EOS), or none with `error` naming the file, the line and
/// the word that is not an id of `vocab`.
std::optional<std::vector<SentencePair>>
parseIdPairs(const ParallelText &text, const std::string &sourcePath,
             const std::string &targetPath, const Vocabulary &vocab,
             std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_PARALLELTEXT_H
