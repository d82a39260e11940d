//===- BucketChoice.h - shape buckets chosen from the data's lengths -------===//
//
// `tc-compile --buckets-from TRAIN.tok`: the static shapes (source length x
// target length) that waste the least work on padding for the lengths of
// the training pairs, each bucket's batch from the token budget
// (training.batch_tokens). The runtime puts a pair in the smallest bucket
// it fits and pads the batch to it (runtime/format/BucketShape.h); the
// padding share is the part of a batch's positions that hold no token.
//
// The choice: pairs sorted by their longer side, cut into `count` groups by
// dynamic programming so that the sum over pairs of their group's source
// plus target length is least; each group's bucket is the longest source and
// target of its pairs. The share that is reported is then measured the way
// the runtime batches (smallest fitting bucket, the last batch of a bucket
// padded with empty rows), for the chosen buckets and for any others.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_FRONTEND_BUCKETCHOICE_H
#define TC_COMPILER_FRONTEND_BUCKETCHOICE_H

#include "compiler/frontend/ModelDescription.h"

#include <cstdint>
#include <vector>

namespace tc {

/// How many pairs take `lengths` positions in a bucket
/// (contract::paddedLengths).
struct PairCount {
  contract::PairLengths lengths;
  int64_t count = 0;
};

/// The padding of `pairs` batched in `buckets`.
struct Padding {
  int64_t tokens = 0, positions = 0;
  int64_t leftOut = 0; ///< pairs no bucket fits
  double share() const {
    return positions > 0 ? double(positions - tokens) / double(positions) : 0;
  }
};

Padding measurePadding(const std::vector<PairCount> &pairs,
                       const std::vector<Bucket> &buckets);

/// At most `count` buckets for `pairs` (those longer than `maxLength` on a
/// side are left out), with batch_tokens / max(source, target) rows each.
std::vector<Bucket> chooseBuckets(const std::vector<PairCount> &pairs,
                                  int64_t count, int64_t batchTokens,
                                  int64_t maxLength);

} // namespace tc

#endif // TC_COMPILER_FRONTEND_BUCKETCHOICE_H
