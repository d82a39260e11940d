//===- SyntheticEvaluation.cpp - exact match on the copy and reverse tasks -===//

#include "runtime/decode/SyntheticEvaluation.h"
#include "runtime/decode/GreedySearch.h"

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
  std::optional<DecoderSession> session =
      DecoderSession::open(executable, device, bucket, error);
  if (!session)
    return std::nullopt;
  int64_t maxSymbols =
      std::min(bucket.sourceLength - 1, bucket.targetLength - 1);
  if (!canDrawSyntheticTask(session->vocabulary(), maxSymbols, error))
    return std::nullopt;
  ExactMatch result;
  for (uint64_t index = 0x7fffffff; result.total < sequences; --index) {
    int64_t rows = std::min<int64_t>(bucket.batch, sequences - result.total);
    std::vector<SentencePair> pairs = syntheticPairs(
        task, session->vocabulary(), rows, maxSymbols, seed, index);
    std::vector<std::vector<int32_t>> sources;
    for (const SentencePair &pair : pairs)
      sources.push_back(pair.source);
    auto decoded = greedySearch(*session, sources, error);
    if (!decoded)
      return std::nullopt;
    for (int64_t r = 0; r < rows; ++r)
      result.correct += (*decoded)[r] == pairs[r].target;
    result.total += rows;
  }
  return result;
}

} // namespace tc::rt
