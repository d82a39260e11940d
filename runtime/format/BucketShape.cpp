//===- BucketShape.cpp - shape buckets and how sentence pairs go into them -===//

#include "runtime/format/BucketShape.h"

#include <algorithm>

namespace tc::contract {

PairLengths paddedLengths(int64_t sourceTokens, int64_t targetTokens) {
  return {sourceTokens, targetTokens + 1}; // BOS + target, target + EOS
}

int64_t maxSyntheticSymbols(const BucketShape &bucket) {
  // A source of n symbols and EOS, a target of n symbols and the positions
  // a target takes beyond its tokens.
  int64_t beyondTarget = paddedLengths(0, 0).target;
  return std::min(bucket.sourceLength - 1, bucket.targetLength - beyondTarget);
}

bool holds(const BucketShape &shape, const PairLengths &lengths, int64_t rows) {
  return shape.batch >= rows && shape.sourceLength >= lengths.source &&
         shape.targetLength >= lengths.target;
}

void sortBySize(std::vector<BucketShape> &buckets) {
  std::stable_sort(buckets.begin(), buckets.end(),
                   [](const BucketShape &a, const BucketShape &b) {
                     return a.sourceLength * a.targetLength <
                            b.sourceLength * b.targetLength;
                   });
}

std::optional<size_t> smallestHolding(const std::vector<BucketShape> &sorted,
                                      const PairLengths &lengths,
                                      int64_t rows) {
  for (size_t b = 0; b < sorted.size(); ++b)
    if (holds(sorted[b], lengths, rows))
      return b;
  return std::nullopt;
}

} // namespace tc::contract
