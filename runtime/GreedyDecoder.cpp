//===- GreedyDecoder.cpp - translation by greedy decoding ------------------===//

#include "runtime/GreedyDecoder.h"

#include <algorithm>
#include <cstring>

namespace tc::rt {

std::optional<std::vector<std::vector<int32_t>>>
greedyDecode(const Executable &executable, CpuDevice &device,
             const BucketShape &bucket,
             const std::vector<std::vector<int32_t>> &sources,
             std::string &error) {
  const tcx::Function *encode = executable.function(bucket.encoder());
  const tcx::Function *decode = executable.function(bucket.decoder());
  if (!encode || !decode) {
    error = "the executable has no " + bucket.encoder() + " or " +
            bucket.decoder() + " function";
    return std::nullopt;
  }
  Vocabulary vocab = vocabularyOf(executable.root());
  int64_t B = bucket.batch, S = bucket.sourceLength, T = bucket.targetLength;
  std::vector<int32_t> source(B * S, vocab.pad);
  for (size_t r = 0; r < sources.size() && int64_t(r) < B; ++r)
    std::copy_n(sources[r].begin(), std::min<int64_t>(sources[r].size(), S),
                source.begin() + r * S);
  std::memcpy(device.binding(*encode, "source_ids", false), source.data(),
              source.size() * 4);
  device.run(*encode);
  const tcx::Binding *memory = nullptr;
  for (const tcx::Binding *b : *encode->outputs())
    if (b->name()->str() == "memory")
      memory = b;
  int64_t memoryBytes = 4;
  for (int64_t extent : *memory->buffer()->shape())
    memoryBytes *= extent;
  std::memcpy(device.binding(*decode, "memory", false),
              device.binding(*encode, "memory", true), memoryBytes);
  std::memcpy(device.binding(*decode, "source_ids", false), source.data(),
              source.size() * 4);

  std::vector<int32_t> prefix(B * T, vocab.pad);
  for (int64_t r = 0; r < B; ++r)
    prefix[r * T] = vocab.bos;
  std::vector<std::vector<int32_t>> decoded(sources.size());
  std::vector<bool> finished(sources.size(), false);
  int64_t V = vocab.size;
  for (int64_t t = 0; t < T; ++t) {
    std::memcpy(device.binding(*decode, "target_prefix", false), prefix.data(),
                prefix.size() * 4);
    device.run(*decode);
    const float *logits =
        reinterpret_cast<const float *>(device.binding(*decode, "logits", true));
    bool all = true;
    for (size_t r = 0; r < sources.size(); ++r) {
      if (finished[r])
        continue;
      const float *row = logits + (r * T + t) * V;
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
