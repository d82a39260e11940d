//===- PrefixGreedySearch.cpp - greedy decoding by recomputing prefixes ----===//

#include "runtime/decode/PrefixGreedySearch.h"
#include "runtime/decode/DecoderShapes.h"

#include <algorithm>
#include <map>

namespace tc::rt {

std::optional<std::vector<std::vector<int32_t>>>
prefixGreedySearch(PrefixDecoder &session,
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

std::optional<Translations>
translateByRecompute(const Executable &executable, Device &device,
                     const std::vector<std::vector<int32_t>> &sources,
                     int64_t maxLengthOffset, std::string &error) {
  std::vector<BucketShape> buckets = bucketsOf(executable.root());
  if (buckets.empty()) {
    error = "the executable has no training buckets for --recompute-prefix "
            "to decode in; leave it out";
    return std::nullopt;
  }
  int32_t eos = vocabularyOf(executable.root()).eos;
  Translations translations;
  translations.nBest.resize(sources.size());
  std::vector<std::vector<int32_t>> cut = sources;
  std::map<size_t, std::vector<size_t>> byBucket;
  for (size_t i = 0; i < cut.size(); ++i) {
    bool wasCut = false;
    size_t chosen = decoderShapeCutting(
        buckets, cut[i], eos, int64_t(cut[i].size()) + maxLengthOffset,
        wasCut);
    translations.truncated += wasCut;
    byBucket[chosen].push_back(i);
  }
  for (auto &[b, indices] : byBucket) {
    std::optional<PrefixDecoder> session =
        PrefixDecoder::open(executable, device, buckets[b], error);
    if (!session)
      return std::nullopt;
    for (size_t first = 0; first < indices.size();
         first += size_t(buckets[b].batch)) {
      std::vector<std::vector<int32_t>> batch;
      for (size_t k = first;
           k < std::min(indices.size(), first + size_t(buckets[b].batch)); ++k)
        batch.push_back(cut[indices[k]]);
      auto decoded = prefixGreedySearch(*session, batch, error);
      if (!decoded)
        return std::nullopt;
      for (size_t k = 0; k < batch.size(); ++k)
        translations.record(indices[first + k],
                            {Hypothesis{std::move((*decoded)[k])}});
    }
  }
  return translations;
}

} // namespace tc::rt
