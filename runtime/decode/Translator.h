//===- Translator.h - many sentences through the buckets' decoders ---------===//
//
// Translates a list of sources of any length: they are sorted by length and
// cut into batches, each decoded in the smallest bucket whose source length
// holds its longest source and whose target length a quarter more (as far as
// the buckets go). The
// results come back in the order of the sources; a sentence's translation
// does not depend on the others in its batch. A source longer than every
// bucket is cut to the largest one (and counted).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_TRANSLATOR_H
#define TC_RUNTIME_DECODE_TRANSLATOR_H

#include "runtime/Device.h"
#include "runtime/data/Buckets.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

struct Translations {
  std::vector<std::vector<int32_t>> targets; ///< without BOS or EOS
  int64_t truncated = 0;  ///< sources cut to the largest bucket
  int64_t unfinished = 0; ///< translations cut at the bucket's target length
};

/// Greedy translations of `sources` (token ids, each ending with EOS) with
/// the parameters on `device`; `progress`, when given, hears how many are
/// done. None with `error` when the executable cannot decode.
std::optional<Translations>
translate(const Executable &executable, Device &device,
          const std::vector<std::vector<int32_t>> &sources, std::string &error,
          const std::function<void(size_t done)> &progress = nullptr);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_TRANSLATOR_H
