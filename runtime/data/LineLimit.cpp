//===- LineLimit.cpp - the longest line of text a model can take ---------===//

#include "runtime/data/LineLimit.h"
#include "runtime/data/Buckets.h"

#include <algorithm>

namespace tc::rt {

std::string LineLimit::describe() const {
  std::string text = std::to_string(bytes) + " bytes (";
  if (tokens > 0 && bytes == kMaxBytesPerToken * tokens)
    return text + std::to_string(kMaxBytesPerToken) +
           " bytes per token of the longest bucket, " + std::to_string(tokens) +
           " tokens)";
  return text + "tc's limit for a line of any model)";
}

LineLimit lineLimitOf(const tcx::Executable &executable) {
  LineLimit limit;
  for (const BucketShape &bucket : bucketsOf(executable))
    limit.tokens =
        std::max({limit.tokens, bucket.sourceLength, bucket.targetLength});
  if (limit.tokens > 0 && limit.tokens < kMaxLineBytes / kMaxBytesPerToken)
    limit.bytes = kMaxBytesPerToken * limit.tokens;
  return limit;
}

} // namespace tc::rt
