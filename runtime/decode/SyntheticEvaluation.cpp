//===- SyntheticEvaluation.cpp - exact match on the copy and reverse tasks -===//

#include "runtime/decode/SyntheticEvaluation.h"
#include "runtime/decode/Translator.h"

#include <algorithm>

namespace tc::rt {

std::optional<ExactMatch>
evaluateSyntheticTask(const Executable &executable, Device &device,
                      SyntheticTask task, int64_t sequences, uint64_t seed,
                      std::string &error) {
  std::vector<BucketShape> buckets = bucketsOf(executable.root());
  if (buckets.empty()) {
    error = "the executable has no shape buckets (was it compiled from a "
            "model description?)";
    return std::nullopt;
  }
  const BucketShape &bucket = buckets.front();
  Vocabulary vocab = vocabularyOf(executable.root());
  int64_t maxSymbols = contract::maxSyntheticSymbols(bucket);
  if (!canDrawSyntheticTask(vocab, maxSymbols, error))
    return std::nullopt;
  // Drawn a training bucket's batch at a time, as before the incremental
  // decoder, so that the same seed gives the same sequences.
  std::vector<SentencePair> pairs;
  for (uint64_t index = 0x7fffffff; int64_t(pairs.size()) < sequences;
       --index) {
    int64_t rows =
        std::min<int64_t>(bucket.batch, sequences - int64_t(pairs.size()));
    for (SentencePair &pair :
         syntheticPairs(task, vocab, rows, maxSymbols, seed, index))
      pairs.push_back(std::move(pair));
  }
  std::vector<std::vector<int32_t>> sources;
  for (const SentencePair &pair : pairs)
    sources.push_back(pair.source);
  SearchOptions greedy;
  greedy.beam = 1;
  std::optional<Translations> translations =
      translate(executable, device, sources, greedy, error);
  if (!translations)
    return std::nullopt;
  ExactMatch result;
  for (size_t i = 0; i < pairs.size(); ++i)
    result.correct += translations->best(i) == pairs[i].target;
  result.total = int64_t(pairs.size());
  return result;
}

} // namespace tc::rt
