//===- GreedySearch.h - decoding by taking the most probable token ---------===//
//
// A search policy over a DecoderSession: one decoder run per target
// position on the prefix decoded so far, the most probable token of each
// row taken, until every row has produced EOS or the bucket's target length
// is reached.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_GREEDYSEARCH_H
#define TC_RUNTIME_DECODE_GREEDYSEARCH_H

#include "runtime/decode/DecoderSession.h"

namespace tc::rt {

/// The decoded targets (without EOS) of `sources` (each ending with EOS, at
/// most the bucket's batch of them); none with `error` when the session
/// cannot encode or step them.
std::optional<std::vector<std::vector<int32_t>>>
greedySearch(DecoderSession &session,
             const std::vector<std::vector<int32_t>> &sources,
             std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_GREEDYSEARCH_H
