//===- Buckets.cpp - the shape buckets of an executable and their functions -===//

#include "runtime/data/Buckets.h"
#include "runtime/format/TcxBucket.h"

#include <algorithm>

namespace tc::rt {

std::vector<BucketShape> bucketsOf(const tcx::Executable &executable) {
  std::vector<BucketShape> buckets;
  if (!executable.run() || !executable.run()->buckets())
    return buckets;
  for (const tcx::Bucket *b : *executable.run()->buckets())
    buckets.push_back(tcx::shapeOf(*b));
  contract::sortBySize(buckets);
  return buckets;
}

PairLengths lengthsOf(const SentencePair &pair) {
  return contract::paddedLengths(int64_t(pair.source.size()),
                                 int64_t(pair.target.size()));
}

PairLengths lengthsOf(const TokenTable &table, uint64_t index) {
  return contract::paddedLengths(int64_t(table.sourceLength(index)),
                                 int64_t(table.targetLength(index)));
}

Vocabulary vocabularyOf(const tcx::Executable &executable) {
  Vocabulary vocab;
  if (const tcx::RunConfig *run = executable.run()) {
    vocab.size = run->vocab_size();
    vocab.pad = int32_t(run->pad_id());
    vocab.bos = int32_t(run->bos_id());
    vocab.eos = int32_t(run->eos_id());
  }
  return vocab;
}

std::optional<BucketShape>
bucketFor(const std::vector<BucketShape> &buckets,
          const std::vector<std::vector<SentencePair>> &batches) {
  int64_t rows = 0;
  PairLengths longest;
  for (const std::vector<SentencePair> &pairs : batches) {
    rows = std::max<int64_t>(rows, pairs.size());
    for (const SentencePair &pair : pairs) {
      PairLengths lengths = lengthsOf(pair);
      longest.source = std::max(longest.source, lengths.source);
      longest.target = std::max(longest.target, lengths.target);
    }
  }
  std::optional<size_t> chosen =
      contract::smallestHolding(buckets, longest, rows);
  if (!chosen)
    return std::nullopt;
  return buckets[*chosen];
}

std::optional<BucketShape> bucketFor(const std::vector<BucketShape> &buckets,
                                     const std::vector<SentencePair> &pairs) {
  return bucketFor(buckets, std::vector<std::vector<SentencePair>>{pairs});
}

} // namespace tc::rt
