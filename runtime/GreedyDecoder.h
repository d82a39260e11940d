//===- GreedyDecoder.h - translation by greedy decoding --------------------===//
//
// Runs an executable's encoder once per batch, then its decoder once per
// target position on the prefix decoded so far, taking the most probable
// token each time, until every row has produced EOS or the bucket's target
// length is reached.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_GREEDYDECODER_H
#define TC_RUNTIME_GREEDYDECODER_H

#include "runtime/Buckets.h"
#include "runtime/Device.h"

namespace tc::rt {

/// The decoded targets (without EOS) of `sources` (each ending with EOS),
/// at most the bucket's batch of them; none with `error` when the executable
/// lacks the bucket's encoder or decoder.
std::optional<std::vector<std::vector<int32_t>>>
greedyDecode(const Executable &executable, Device &device,
             const BucketShape &bucket,
             const std::vector<std::vector<int32_t>> &sources,
             std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_GREEDYDECODER_H
