//===- GreedyDecoder.cpp - translation by greedy decoding ------------------===//

#include "runtime/GreedyDecoder.h"

#include <algorithm>
#include <cstring>

namespace tc::rt {

std::optional<std::vector<std::vector<int32_t>>>
greedyDecode(const Executable &executable, Device &device,
             const BucketShape &bucket,
             const std::vector<std::vector<int32_t>> &sources,
             std::string &error) {
  using contract::FunctionRole;
  namespace binding = contract::binding;
  std::string encoder = contract::functionName(FunctionRole::Encode, bucket);
  std::string decoder = contract::functionName(FunctionRole::Decode, bucket);
  const tcx::Function *encode =
      executable.function(tcx::FunctionRole::Encode, bucket);
  const tcx::Function *decode =
      executable.function(tcx::FunctionRole::Decode, bucket);
  if (!encode || !decode) {
    error = "the executable has no " + encoder + " or " + decoder + " function";
    return std::nullopt;
  }
  Vocabulary vocab = vocabularyOf(executable.root());
  int64_t B = bucket.batch, S = bucket.sourceLength, T = bucket.targetLength;
  if (int64_t(sources.size()) > B) {
    error = std::to_string(sources.size()) + " sources for a bucket of " +
            std::to_string(B);
    return std::nullopt;
  }
  for (const std::vector<int32_t> &s : sources)
    if (int64_t(s.size()) > S) {
      error = "a source of " + std::to_string(s.size()) +
              " tokens is longer than the bucket's " + std::to_string(S);
      return std::nullopt;
    }
  std::vector<int32_t> source(B * S, vocab.pad);
  for (size_t r = 0; r < sources.size(); ++r)
    std::copy(sources[r].begin(), sources[r].end(), source.begin() + r * S);
  std::vector<uint8_t> memory(bindingBytes(*encode, binding::kMemory, true));
  bool bound = device.writeInput(*encode, binding::kSourceIds, source.data(),
                                 source.size() * 4);
  if (bound)
    device.run(*encode);
  if (!bound ||
      !device.readOutput(*encode, binding::kMemory, memory.data(),
                         memory.size()) ||
      !device.writeInput(*decode, binding::kMemory, memory.data(),
                         memory.size()) ||
      !device.writeInput(*decode, binding::kSourceIds, source.data(),
                         source.size() * 4)) {
    error = encoder + " and " + decoder + " do not take and return " +
            std::string(binding::kSourceIds) + " and " +
            std::string(binding::kMemory) + " as expected";
    return std::nullopt;
  }

  std::vector<int32_t> prefix(B * T, vocab.pad);
  for (int64_t r = 0; r < B; ++r)
    prefix[r * T] = vocab.bos;
  std::vector<std::vector<int32_t>> decoded(sources.size());
  std::vector<bool> finished(sources.size(), false);
  int64_t V = vocab.size;
  std::vector<float> logits(B * T * V);
  for (int64_t t = 0; t < T; ++t) {
    if (!device.writeInput(*decode, binding::kTargetPrefix, prefix.data(),
                           prefix.size() * 4)) {
      error = decoder + " takes no " + std::string(binding::kTargetPrefix) +
              " of " +
              std::to_string(B) + "x" + std::to_string(T);
      return std::nullopt;
    }
    device.run(*decode);
    if (!device.readOutput(*decode, binding::kLogits, logits.data(),
                           logits.size() * 4)) {
      error = decoder + " returns no " + std::string(binding::kLogits) +
              " of " + std::to_string(B) +
              "x" + std::to_string(T) + "x" + std::to_string(V);
      return std::nullopt;
    }
    bool all = true;
    for (size_t r = 0; r < sources.size(); ++r) {
      if (finished[r])
        continue;
      const float *row = logits.data() + (r * T + t) * V;
      int32_t token = int32_t(std::max_element(row, row + V) - row);
      if (token == vocab.eos)
        finished[r] = true;
      else
        decoded[r].push_back(token);
      if (t + 1 < T)
        prefix[r * T + t + 1] = token;
      all &= finished[r];
    }
    if (all)
      break;
  }
  return decoded;
}

} // namespace tc::rt
