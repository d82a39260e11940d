//===- Translator.cpp - many sentences through the buckets' decoders -------===//

#include "runtime/decode/Translator.h"
#include "runtime/decode/GreedySearch.h"

#include <algorithm>
#include <numeric>

namespace tc::rt {
namespace {

/// The target length a source of `length` tokens is given: a quarter more,
/// since a translation may run longer than its source (in the demo corpus
/// the median target has as many tokens as its source, 90% have at most a
/// sixth more, 99% at most 36% more). More room costs T^2 decoder positions
/// per sentence until the incremental decoder comes.
int64_t roomFor(int64_t length) { return length + (length + 3) / 4; }

/// The bucket to decode sources of up to `length` tokens in: the smallest
/// whose source length holds them and whose target length is
/// roomFor(length), else the one whose source length holds them with the
/// longest target length; none when no bucket's source length holds them.
const BucketShape *bucketForDecoding(const std::vector<BucketShape> &buckets,
                                     int64_t length) {
  const BucketShape *longest = nullptr;
  for (const BucketShape &bucket : buckets) { // smallest first
    if (bucket.sourceLength < length)
      continue;
    if (bucket.targetLength >= roomFor(length))
      return &bucket;
    if (!longest || bucket.targetLength > longest->targetLength)
      longest = &bucket;
  }
  return longest;
}

} // namespace

std::optional<Translations>
translate(const Executable &executable, Device &device,
          const std::vector<std::vector<int32_t>> &sources, std::string &error,
          const std::function<void(size_t done)> &progress) {
  std::vector<BucketShape> buckets = bucketsOf(executable.root());
  if (buckets.empty()) {
    error = "the executable has no shape buckets (was it compiled from a "
            "model description?)";
    return std::nullopt;
  }
  int64_t longestSource = 0;
  for (const BucketShape &bucket : buckets)
    longestSource = std::max(longestSource, bucket.sourceLength);
  Vocabulary vocab = vocabularyOf(executable.root());

  Translations result;
  result.targets.resize(sources.size());
  std::vector<std::vector<int32_t>> cut(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    cut[i] = sources[i];
    if (int64_t(cut[i].size()) > longestSource) {
      cut[i].resize(longestSource);
      cut[i].back() = vocab.eos;
      ++result.truncated;
    }
  }
  std::vector<size_t> order(sources.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return cut[a].size() < cut[b].size();
  });

  size_t done = 0;
  for (size_t first = 0; first < order.size();) {
    // Sorted by length: the batch's last source is its longest.
    const BucketShape *bucket = nullptr;
    size_t end = first;
    for (size_t next = first; next < order.size(); ++next) {
      const BucketShape *fits =
          bucketForDecoding(buckets, int64_t(cut[order[next]].size()));
      if (bucket && (fits != bucket || int64_t(next - first) >= bucket->batch))
        break;
      bucket = fits;
      end = next + 1;
    }
    std::optional<DecoderSession> session =
        DecoderSession::open(executable, device, *bucket, error);
    if (!session)
      return std::nullopt;
    std::vector<std::vector<int32_t>> batch;
    for (size_t k = first; k < end; ++k)
      batch.push_back(cut[order[k]]);
    auto decoded = greedySearch(*session, batch, error);
    if (!decoded)
      return std::nullopt;
    for (size_t k = first; k < end; ++k) {
      std::vector<int32_t> &target = (*decoded)[k - first];
      // Greedy search stops a row at the bucket's length: T tokens, no EOS.
      result.unfinished += int64_t(target.size()) >= bucket->targetLength;
      result.targets[order[k]] = std::move(target);
    }
    done += end - first;
    if (progress)
      progress(done);
    first = end;
  }
  return result;
}

} // namespace tc::rt
