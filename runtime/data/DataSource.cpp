//===- DataSource.cpp - where training batches come from ------------------===//

#include "runtime/data/DataSource.h"
#include "runtime/Random.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/format/TokenFile.h"

#include <algorithm>

namespace tc::rt {
namespace {

class SyntheticSource : public DataSource {
public:
  SyntheticSource(SyntheticTask task, Vocabulary vocab, int64_t rows,
                  int64_t maxSymbols, uint64_t seed)
      : task(task), vocab(vocab), rows(rows), maxSymbols(maxSymbols),
        seed(seed) {}
  std::vector<SentencePair> batch(uint64_t index) override {
    return syntheticPairs(task, vocab, rows, maxSymbols, seed, index);
  }
  std::string describe() const override {
    return std::string(task == SyntheticTask::Copy ? "copy" : "reverse") +
           " task, 1 to " + std::to_string(maxSymbols) + " symbols";
  }

private:
  SyntheticTask task;
  Vocabulary vocab;
  int64_t rows, maxSymbols;
  uint64_t seed;
};

class PairSource : public DataSource {
public:
  PairSource(TokenData data, std::string name,
             const std::vector<BucketShape> &buckets, uint64_t seed)
      : all(std::move(data.pairs)), subwords(std::move(data.vocabulary)),
        name(std::move(name)), seed(seed) {
    // Each pair into the smallest bucket it fits, in file order.
    std::vector<std::vector<size_t>> members(buckets.size());
    for (size_t i = 0; i < all.size(); ++i) {
      std::optional<size_t> chosen =
          contract::smallestHolding(buckets, lengthsOf(all[i]));
      if (chosen)
        members[*chosen].push_back(i);
      else
        ++left;
    }
    for (size_t b = 0; b < buckets.size(); ++b)
      for (size_t start = 0; start < members[b].size();
           start += buckets[b].batch)
        batches.emplace_back(
            members[b].begin() + start,
            members[b].begin() +
                std::min<size_t>(start + buckets[b].batch, members[b].size()));
  }
  std::vector<SentencePair> batch(uint64_t index) override {
    uint64_t epoch = index / batches.size();
    if (order.empty() || epoch != orderEpoch) {
      // Each epoch's order of the batches from its own random stream.
      order.resize(batches.size());
      for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
      RandomStream random(seed, 0x7ffffffeu, epoch * 4 * order.size());
      for (size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[random.integer(0, int64_t(i))]);
      orderEpoch = epoch;
    }
    std::vector<SentencePair> chosen;
    for (size_t i : batches[order[index % batches.size()]])
      chosen.push_back(all[i]);
    return chosen;
  }
  std::string describe() const override {
    return name + " (" + std::to_string(all.size() - left) + " pairs, " +
           std::to_string(batches.size()) +
           (batches.size() == 1 ? " batch)" : " batches)");
  }
  int64_t skipped() const override { return left; }
  const std::string &vocabulary() const override { return subwords; }
  bool empty() const { return batches.empty(); }

private:
  std::vector<SentencePair> all;
  std::string subwords;
  std::string name;
  std::vector<std::vector<size_t>> batches;
  uint64_t seed;
  std::vector<size_t> order; ///< of the batches in epoch orderEpoch
  uint64_t orderEpoch = 0;
  int64_t left = 0;
};

} // namespace

bool checkPairs(const std::vector<SentencePair> &pairs, const Vocabulary &vocab,
                const std::string &file, std::string &error) {
  for (size_t i = 0; i < pairs.size(); ++i) {
    for (const std::vector<int32_t> *side :
         {&pairs[i].source, &pairs[i].target})
      for (int32_t id : *side)
        if (id < 0 || (vocab.size > 0 && id >= vocab.size)) {
          error = file + ": pair " + std::to_string(i) + " has token id " +
                  std::to_string(id) + ", outside the model's vocabulary [0, " +
                  std::to_string(vocab.size) + ")";
          return false;
        }
    if (pairs[i].source.empty() || pairs[i].source.back() != vocab.eos) {
      error = file + ": the source of pair " + std::to_string(i) +
              " does not end with EOS (" + std::to_string(vocab.eos) +
              "); rebuild the file with tc-run prepare";
      return false;
    }
  }
  return true;
}

const std::string &DataSource::vocabulary() const {
  static const std::string none;
  return none;
}

std::unique_ptr<DataSource> makeDataSource(const tcx::Executable &x,
                                           const DataChoice &choice,
                                           uint64_t seed, std::string &error) {
  std::vector<BucketShape> buckets = bucketsOf(x);
  if (buckets.empty()) {
    error = "the executable has no shape buckets (was it compiled from a "
            "model description?)";
    return nullptr;
  }
  Vocabulary vocab = vocabularyOf(x);
  std::string file = choice.tokenFile, synthetic = choice.synthetic;
  if (file.empty() && synthetic.empty())
    if (const tcx::RunConfig *run = x.run()) {
      synthetic = run->synthetic() ? run->synthetic()->str() : "";
      file = run->train_data() ? run->train_data()->str() : "";
    }
  if (!file.empty() && !synthetic.empty()) {
    error = "both a token file (" + file + ") and a synthetic task (" +
            synthetic + ") were given; train on one of them";
    return nullptr;
  }
  if (!file.empty()) {
    std::optional<TokenData> data = readTokenFile(file, error);
    if (!data)
      return nullptr;
    // The vocabulary first: a mismatch there explains any bad pair.
    if (!data->vocabulary.empty()) {
      auto subwords =
          SubwordVocabulary::fromSerialized(data->vocabulary, file, error);
      if (!subwords || !subwords->fits(vocab, file + "'s vocabulary", error))
        return nullptr;
      // The run keeps the checked model, the bytes its fingerprint is of.
      data->vocabulary = subwords->serialized();
    }
    if (!checkPairs(data->pairs, vocab, file, error))
      return nullptr;
    auto source =
        std::make_unique<PairSource>(std::move(*data), file, buckets, seed);
    if (source->empty()) {
      error = file + ": no sentence pair fits a shape bucket of the model";
      return nullptr;
    }
    return source;
  }
  std::optional<SyntheticTask> task = parseSyntheticTask(synthetic);
  if (!task) {
    error = synthetic.empty()
                ? "no training data: pass --data FILE.tok or --synthetic "
                  "copy|reverse (or set [data] in the model description)"
                : "unknown synthetic task '" + synthetic +
                      "'; expected copy or reverse";
    return nullptr;
  }
  const BucketShape &first = buckets.front();
  int64_t maxSymbols = maxSyntheticSymbols(first);
  if (!canDrawSyntheticTask(vocab, maxSymbols, error))
    return nullptr;
  return std::make_unique<SyntheticSource>(*task, vocab, first.batch,
                                           maxSymbols, seed);
}

} // namespace tc::rt
