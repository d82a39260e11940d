//===- GreedySearch.cpp - decoding by taking the most probable token -------===//

#include "runtime/decode/GreedySearch.h"

#include <algorithm>

namespace tc::rt {

std::optional<std::vector<std::vector<int32_t>>>
greedySearch(DecoderSession &session,
             const std::vector<std::vector<int32_t>> &sources,
             std::string &error) {
  if (!session.encode(sources, error))
    return std::nullopt;
  const Vocabulary &vocab = session.vocabulary();
  int64_t B = session.bucket().batch, T = session.bucket().targetLength;
  int64_t V = vocab.size;
  std::vector<int32_t> prefixes(B * T, vocab.pad);
  for (int64_t r = 0; r < B; ++r)
    prefixes[r * T] = vocab.bos;
  std::vector<std::vector<int32_t>> decoded(sources.size());
  std::vector<bool> finished(sources.size(), false);
  for (int64_t t = 0; t < T; ++t) {
    const std::vector<float> *logits = session.step(prefixes, error);
    if (!logits)
      return std::nullopt;
    bool all = true;
    for (size_t r = 0; r < sources.size(); ++r) {
      if (finished[r])
        continue;
      const float *row = logits->data() + (r * T + t) * V;
      int32_t token = int32_t(std::max_element(row, row + V) - row);
      if (token == vocab.eos)
        finished[r] = true;
      else
        decoded[r].push_back(token);
      if (t + 1 < T)
        prefixes[r * T + t + 1] = token;
      all &= finished[r];
    }
    if (all)
      break;
  }
  return decoded;
}

} // namespace tc::rt
