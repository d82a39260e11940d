//===- Batch.cpp - a batch of sentence pairs and its shape bucket ---------===//

#include "runtime/data/Batch.h"
#include "runtime/data/Buckets.h"

#include <algorithm>
#include <cstddef>

namespace tc::rt {

bool fillBatch(const std::vector<SentencePair> &pairs, const Vocabulary &vocab,
               int64_t rows, int64_t sourceLength, int64_t targetLength,
               Batch &batch) {
  BucketShape shape{rows, sourceLength, targetLength};
  for (const SentencePair &pair : pairs)
    if (!contract::holds(shape, lengthsOf(pair), int64_t(pairs.size())))
      return false;
  batch = Batch{rows, sourceLength, targetLength, {}, {}, {}, 0};
  batch.source.assign(rows * sourceLength, vocab.pad);
  batch.targetIn.assign(rows * targetLength, vocab.pad);
  batch.targetOut.assign(rows * targetLength, vocab.pad);
  for (size_t r = 0; r < pairs.size(); ++r) {
    const SentencePair &pair = pairs[r];
    std::copy(pair.source.begin(), pair.source.end(),
              batch.source.begin() + r * sourceLength);
    int32_t *in = batch.targetIn.data() + r * targetLength;
    int32_t *out = batch.targetOut.data() + r * targetLength;
    in[0] = vocab.bos;
    std::copy(pair.target.begin(), pair.target.end(), in + 1);
    std::copy(pair.target.begin(), pair.target.end(), out);
    out[pair.target.size()] = vocab.eos;
    PairLengths lengths = lengthsOf(pair);
    batch.tokens += lengths.source + lengths.target;
  }
  return true;
}

void Batch::append(const Batch &part) {
  source.insert(source.end(), part.source.begin(), part.source.end());
  targetIn.insert(targetIn.end(), part.targetIn.begin(), part.targetIn.end());
  targetOut.insert(targetOut.end(), part.targetOut.begin(),
                   part.targetOut.end());
  tokens += part.tokens;
  rows += part.rows;
  sourceLength = part.sourceLength;
  targetLength = part.targetLength;
}

} // namespace tc::rt
