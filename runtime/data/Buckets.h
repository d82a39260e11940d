//===- Buckets.h - the shape buckets of an executable and their functions --===//
//
// An executable holds one train step, encoder and decoder per bucket
// (batch x source length x target length); a batch runs in the smallest
// bucket it fits, padded (as XLA does on TPUs), by the rules of
// runtime/format/BucketShape.h.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_BUCKETS_H
#define TC_RUNTIME_DATA_BUCKETS_H

#include "runtime/Executable.h"
#include "runtime/data/Batch.h"
#include "runtime/format/Contract.h"

#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

using contract::BucketShape;
using contract::PairLengths;

/// The buckets of the run config in the order they are tried (smallest
/// first: contract::sortBySize); empty when the executable has no run
/// config.
std::vector<BucketShape> bucketsOf(const tcx::Executable &executable);

/// The positions `pair` takes in a bucket (contract::paddedLengths).
PairLengths lengthsOf(const SentencePair &pair);
/// The same of pair `index` of `table`, from its index.
PairLengths lengthsOf(const TokenTable &table, uint64_t index);

/// The vocabulary and token conventions of the run config.
Vocabulary vocabularyOf(const tcx::Executable &executable);

/// The smallest bucket each batch of `batches` fits in, or none (the
/// micro-batches of a training step share its shape).
std::optional<BucketShape>
bucketFor(const std::vector<BucketShape> &buckets,
          const std::vector<std::vector<SentencePair>> &batches);

/// The smallest bucket `pairs` fit in, or none.
std::optional<BucketShape> bucketFor(const std::vector<BucketShape> &buckets,
                                     const std::vector<SentencePair> &pairs);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_BUCKETS_H
