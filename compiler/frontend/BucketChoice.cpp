//===- BucketChoice.cpp - shape buckets chosen from the data's lengths -----===//

#include "compiler/frontend/BucketChoice.h"

#include <algorithm>
#include <limits>
#include <map>

namespace tc {

Padding measurePadding(const std::vector<PairCount> &pairs,
                       const std::vector<Bucket> &buckets) {
  std::vector<Bucket> sorted = buckets;
  contract::sortBySize(sorted); // tried as the runtime tries them
  Padding padding;
  std::vector<int64_t> members(sorted.size(), 0);
  for (const PairCount &p : pairs) {
    std::optional<size_t> fits = contract::smallestHolding(sorted, p.lengths);
    if (!fits) {
      padding.leftOut += p.count;
      continue;
    }
    members[*fits] += p.count;
    padding.tokens += p.count * (p.lengths.source + p.lengths.target);
  }
  for (size_t b = 0; b < sorted.size(); ++b) {
    int64_t batches = (members[b] + sorted[b].batch - 1) / sorted[b].batch;
    padding.positions += batches * sorted[b].batch *
                         (sorted[b].sourceLength + sorted[b].targetLength);
  }
  return padding;
}

std::vector<Bucket> chooseBuckets(const std::vector<PairCount> &pairs,
                                  int64_t count, int64_t batchTokens,
                                  int64_t maxLength) {
  // The pairs grouped by their longer side, shortest first.
  struct Key {
    int64_t source = 0, target = 0, count = 0;
  };
  std::map<int64_t, Key> byLength;
  for (const PairCount &p : pairs) {
    const contract::PairLengths &lengths = p.lengths;
    if (lengths.source > maxLength || lengths.target > maxLength)
      continue;
    Key &key = byLength[std::max(lengths.source, lengths.target)];
    key.source = std::max(key.source, lengths.source);
    key.target = std::max(key.target, lengths.target);
    key.count += p.count;
  }
  std::vector<Key> keys;
  for (const auto &[length, key] : byLength)
    keys.push_back(key);
  int64_t n = int64_t(keys.size());
  if (n == 0 || count < 1)
    return {};
  count = std::min(count, n);
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  // best[g][j]: the least cost of keys [0, j) in g buckets; cut[g][j] where
  // the last of them starts.
  std::vector<std::vector<int64_t>> best(count + 1,
                                         std::vector<int64_t>(n + 1, kNone));
  std::vector<std::vector<int64_t>> cut(count + 1,
                                        std::vector<int64_t>(n + 1, 0));
  best[0][0] = 0;
  for (int64_t g = 1; g <= count; ++g)
    for (int64_t j = 1; j <= n; ++j) {
      // Keys [i, j) in one bucket costs their pairs times its longest source
      // plus longest target, grown as i moves down.
      int64_t source = 0, target = 0, pairsIn = 0;
      for (int64_t i = j - 1; i >= g - 1; --i) {
        source = std::max(source, keys[i].source);
        target = std::max(target, keys[i].target);
        pairsIn += keys[i].count;
        if (best[g - 1][i] == kNone)
          continue;
        int64_t total = best[g - 1][i] + pairsIn * (source + target);
        if (total < best[g][j]) {
          best[g][j] = total;
          cut[g][j] = i;
        }
      }
    }
  std::vector<Bucket> buckets;
  for (int64_t g = count, j = n; g > 0; j = cut[g][j], --g) {
    int64_t i = cut[g][j];
    Bucket bucket;
    for (int64_t k = i; k < j; ++k) {
      bucket.sourceLength = std::max(bucket.sourceLength, keys[k].source);
      bucket.targetLength = std::max(bucket.targetLength, keys[k].target);
    }
    bucket.batch =
        rowsWithin(batchTokens, bucket.sourceLength, bucket.targetLength);
    buckets.insert(buckets.begin(), bucket);
  }
  return buckets;
}

} // namespace tc
