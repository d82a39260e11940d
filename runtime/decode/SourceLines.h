//===- SourceLines.h - lines of text as the sources to translate ----------===//
//
// Every line that is not blank (support/BlankText.h) is a source; a blank
// one is not translated. A line longer than the model can take is cut
// (runtime/data/LineLimit.h), not skipped, so that every line gives a line
// out; then it is encoded with the run's vocabulary, or read as token ids
// (runtime/data/TokenIdText.h), and ends with EOS.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_SOURCELINES_H
#define TC_RUNTIME_DECODE_SOURCELINES_H

#include "runtime/data/Batch.h"
#include "runtime/data/LineLimit.h"
#include "runtime/data/SubwordVocabulary.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

struct SourceLines {
  std::vector<std::vector<int32_t>> sources; ///< each ending with EOS
  std::vector<size_t> lineOf; ///< the line (from 0) of each source
  int64_t cut = 0;            ///< lines cut to the limit
};

/// The sources of `lines` (read from `inputName`), encoded with `subwords`,
/// or read as token ids where it is null; none with `error` for a line that
/// is not token ids.
std::optional<SourceLines> sourcesOfLines(const std::vector<std::string> &lines,
                                          const SubwordVocabulary *subwords,
                                          const Vocabulary &vocab,
                                          const LineLimit &limit,
                                          const std::string &inputName,
                                          std::string &error);

/// `line` cut to at most `maxBytes` bytes: at a character, and for token
/// ids (`ids`) after a space or tab where there is one (a cut number is
/// another id).
std::string_view cutLine(std::string_view line, int64_t maxBytes, bool ids);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_SOURCELINES_H
