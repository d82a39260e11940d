//===- Buckets.cpp - the shape buckets of an executable and their functions -===//

#include "runtime/data/Buckets.h"

#include <algorithm>

namespace tc::rt {

std::vector<BucketShape> bucketsOf(const tcx::Executable &executable) {
  std::vector<BucketShape> buckets;
  if (!executable.run() || !executable.run()->buckets())
    return buckets;
  for (const tcx::Bucket *b : *executable.run()->buckets())
    buckets.push_back({b->batch(), b->source_length(), b->target_length()});
  std::stable_sort(buckets.begin(), buckets.end(),
                   [](const BucketShape &a, const BucketShape &b) {
                     return a.sourceLength * a.targetLength <
                            b.sourceLength * b.targetLength;
                   });
  return buckets;
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
  int64_t rows = 0, source = 0, target = 0;
  for (const std::vector<SentencePair> &pairs : batches) {
    rows = std::max<int64_t>(rows, pairs.size());
    for (const SentencePair &pair : pairs) {
      source = std::max<int64_t>(source, pair.source.size());
      target = std::max<int64_t>(target, pair.target.size() + 1); // BOS/EOS
    }
  }
  for (const BucketShape &bucket : buckets)
    if (bucket.batch >= rows && bucket.sourceLength >= source &&
        bucket.targetLength >= target)
      return bucket;
  return std::nullopt;
}

std::optional<BucketShape> bucketFor(const std::vector<BucketShape> &buckets,
                                     const std::vector<SentencePair> &pairs) {
  return bucketFor(buckets, std::vector<std::vector<SentencePair>>{pairs});
}

} // namespace tc::rt
