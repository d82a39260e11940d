//===- Translator.h - many sentences through the incremental decoder -------===//
//
// Translates a list of sources of any length. A source is decoded in the
// decoder shape (tc-compile's decode_step functions) with the smallest
// source length that holds it (runtime/decode/DecoderShapes.h), so its shape
// depends on its own length only (and, with SearchOptions::batchSentences,
// on how many sentences are decoded at a time: the fewest compiled rows
// that hold them); a source longer than every shape is cut to the longest
// (and counted).
// Within a shape, sources are encoded a step's rows at a time and given
// rows as rows free up: each sentence takes `beam` rows until its search
// is done, then a waiting sentence takes them. SearchOptions::batchSentences
// caps the sentences decoded (and encoded) at a time. Every row is computed apart
// from the others, so a sentence's translation does not depend on which
// sentences share its step (test/Runtime/translate-determinism.test).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_TRANSLATOR_H
#define TC_RUNTIME_DECODE_TRANSLATOR_H

#include "runtime/Device.h"
#include "runtime/decode/BeamSearch.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

struct Translations {
  /// Per source, its best hypotheses (SearchOptions::nBest), best first.
  std::vector<std::vector<Hypothesis>> nBest;
  int64_t truncated = 0;  ///< sources cut to the longest decoder shape
  int64_t unfinished = 0; ///< best translations ended by the length limit
  int64_t targetTokens = 0; ///< tokens of the best translations, with EOS

  /// The best translation of source `i` (without BOS or EOS).
  const std::vector<int32_t> &best(size_t i) const {
    return nBest[i].front().tokens;
  }
  /// Records the hypotheses `found` (best first) of source `i`.
  void record(size_t i, std::vector<Hypothesis> found);
};

/// Whether `executable`'s decoder serves a beam of `width`: every decoder
/// shape's widest step has `width` rows and returns each row's 2 x `width`
/// most probable tokens (or every token); else `error` naming the widest
/// beam it serves and the description keys that serve this one.
bool checkBeamWidth(const Executable &executable, int64_t width,
                    std::string &error);

/// Translations of `sources` (token ids, each ending with EOS) with the
/// parameters on `device`; `progress`, when given, hears how many are done
/// and how many target tokens they have. None with `error` when the
/// executable cannot decode.
std::optional<Translations>
translate(const Executable &executable, Device &device,
          const std::vector<std::vector<int32_t>> &sources,
          const SearchOptions &options, std::string &error,
          const std::function<void(size_t done, int64_t tokens)> &progress =
              nullptr);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_TRANSLATOR_H
