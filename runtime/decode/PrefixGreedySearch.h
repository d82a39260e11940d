//===- PrefixGreedySearch.h - greedy decoding by recomputing prefixes ------===//
//
// A search policy over a PrefixDecoder: one decoder run per target
// position on the prefix decoded so far, the most probable token of each
// row taken, until every row has produced EOS or the bucket's target length
// is reached.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_PREFIXGREEDYSEARCH_H
#define TC_RUNTIME_DECODE_PREFIXGREEDYSEARCH_H

#include "runtime/decode/PrefixDecoder.h"
#include "runtime/decode/Translator.h"

#include <optional>

namespace tc::rt {

/// The decoded targets (without EOS) of `sources` (each ending with EOS, at
/// most the bucket's batch of them); none with `error` when the session
/// cannot encode or step them.
std::optional<std::vector<std::vector<int32_t>>>
prefixGreedySearch(PrefixDecoder &session,
                   const std::vector<std::vector<int32_t>> &sources,
                   std::string &error);

/// Greedy translations of `sources` this way (one hypothesis each), each
/// batch of one training bucket: the smallest whose source length holds its
/// sources and whose target length holds the source length +
/// `maxLengthOffset` (else the longest target among them:
/// runtime/decode/DecoderShapes.h). Sources longer than every bucket are
/// refused with `error`.
std::optional<Translations>
translateByRecompute(const Executable &executable, Device &device,
                     const std::vector<std::vector<int32_t>> &sources,
                     int64_t maxLengthOffset, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_PREFIXGREEDYSEARCH_H
