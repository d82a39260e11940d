//===- DataSource.cpp - where training batches come from ------------------===//

#include "runtime/data/DataSource.h"
#include "runtime/Random.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/format/TokenFile.h"
#include "support/Fnv1a.h"

#include <algorithm>

namespace tc::rt {
namespace {

class SyntheticSource : public DataSource {
public:
  SyntheticSource(SyntheticTask task, Vocabulary vocab, int64_t rows,
                  int64_t maxSymbols, uint64_t seed)
      : task(task), vocab(vocab), rows(rows), maxSymbols(maxSymbols),
        seed(seed) {}
  std::optional<std::vector<SentencePair>> batch(uint64_t index,
                                                 std::string &) override {
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

/// Batches of a token file's pairs, read from it as batches are drawn
/// (TokenTable): what a rank holds is the file's index (16 bytes a pair)
/// and the pairs' indices grouped into batches (8 bytes a pair), not the
/// pairs.
class PairSource : public DataSource {
public:
  PairSource(std::unique_ptr<TokenTable> pairs, std::string subwords,
             std::string name, const std::vector<BucketShape> &buckets,
             const Vocabulary &vocab, uint64_t seed)
      : table(std::move(pairs)), subwords(std::move(subwords)),
        name(std::move(name)), vocab(vocab), seed(seed) {
    // Each pair into the smallest bucket it fits, in file order.
    std::vector<std::vector<uint64_t>> members(buckets.size());
    for (uint64_t i = 0; i < table->size(); ++i) {
      std::optional<size_t> chosen =
          contract::smallestHolding(buckets, lengthsOf(*table, i));
      if (chosen)
        members[*chosen].push_back(i);
      else
        ++left;
    }
    for (size_t b = 0; b < buckets.size(); ++b)
      for (size_t start = 0; start < members[b].size();
           start += buckets[b].batch) {
        size_t end =
            std::min<size_t>(start + buckets[b].batch, members[b].size());
        batches.push_back({grouped.size(), end - start});
        grouped.insert(grouped.end(), members[b].begin() + start,
                       members[b].begin() + end);
      }
  }
  std::optional<std::vector<SentencePair>> batch(uint64_t index,
                                                 std::string &error) override {
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
    const Batch &chosen = batches[order[index % batches.size()]];
    std::vector<SentencePair> pairs;
    for (size_t k = 0; k < chosen.count; ++k) {
      uint64_t i = grouped[chosen.first + k];
      pairs.emplace_back();
      if (!table->pair(i, pairs.back(), error))
        return std::nullopt;
      // The start checked the header's summary of the ids; the ids
      // themselves are checked here, as they are read.
      if (!checkPair(pairs.back(), i, vocab, name, error)) {
        error += " (the file is damaged: its header says otherwise)";
        return std::nullopt;
      }
    }
    return pairs;
  }
  std::string describe() const override {
    return name + " (" + std::to_string(table->size() - left) + " pairs, " +
           std::to_string(batches.size()) +
           (batches.size() == 1 ? " batch)" : " batches)");
  }
  /// The pairs' lengths, the ids' range, the vocabulary and the batches,
  /// not the path: the file moved or named another way (./train.tok) is
  /// the same data, and another file under the same name is not. The ids
  /// themselves are not read (a file may hold gigabytes of them).
  std::string identity() const override {
    uint64_t hash = support::kFnv1aStart;
    for (uint64_t i = 0; i < table->size(); ++i) {
      uint32_t lengths[2] = {table->sourceLength(i), table->targetLength(i)};
      hash = support::fnv1a(lengths, sizeof lengths, hash);
    }
    const TokenIds &ids = table->ids();
    int32_t range[3] = {ids.smallest, ids.largest, ids.sourceEnd};
    hash = support::fnv1a(range, sizeof range, hash);
    hash = support::fnv1a(subwords.data(), subwords.size(), hash);
    return "token pairs " + std::to_string(hash) + " (" +
           std::to_string(table->size() - left) + " pairs, " +
           std::to_string(batches.size()) + " batches)";
  }
  int64_t skipped() const override { return left; }
  const std::string &vocabulary() const override { return subwords; }
  bool empty() const { return batches.empty(); }

private:
  /// A batch: `count` pairs from `grouped[first]` on.
  struct Batch {
    size_t first, count;
  };
  std::unique_ptr<TokenTable> table;
  std::string subwords;
  std::string name;
  Vocabulary vocab;
  std::vector<uint64_t> grouped; ///< pair indices, batch after batch
  std::vector<Batch> batches;
  uint64_t seed;
  std::vector<size_t> order; ///< of the batches in epoch orderEpoch
  uint64_t orderEpoch = 0;
  int64_t left = 0;
};

/// Whether the ids `table`'s header summarises fit `vocab` (every id in
/// it, every source ending with EOS); otherwise `error` names the first
/// pair that does not, found by a pass over the pairs.
bool checkIds(const TokenTable &table, const Vocabulary &vocab,
              const std::string &file, std::string &error) {
  const TokenIds &ids = table.ids();
  if (table.size() == 0 ||
      (ids.smallest >= 0 && (vocab.size == 0 || ids.largest < vocab.size) &&
       ids.sourceEnd == vocab.eos))
    return true;
  SentencePair pair;
  for (uint64_t i = 0; i < table.size(); ++i)
    if (!table.pair(i, pair, error) || !checkPair(pair, i, vocab, file, error))
      return false;
  error = file + ": its header's id range [" + std::to_string(ids.smallest) +
          ", " + std::to_string(ids.largest) + "] or source end " +
          std::to_string(ids.sourceEnd) +
          " does not match its ids (the file is damaged; rebuild it with "
          "tc-run prepare)";
  return false;
}

} // namespace

bool checkPair(const SentencePair &pair, uint64_t index,
               const Vocabulary &vocab, const std::string &file,
               std::string &error) {
  for (const std::vector<int32_t> *side : {&pair.source, &pair.target})
    for (int32_t id : *side) {
      if (id < 0 || (vocab.size > 0 && id >= vocab.size)) {
        error = file + ": pair " + std::to_string(index) + " has token id " +
                std::to_string(id) + ", outside the vocabulary [0, " +
                std::to_string(vocab.size) + ")";
        return false;
      }
      // Batching adds padding after a sentence; inside one it would be
      // masked where it is a source and get no embedding gradient
      // (padding_id) where it is a target.
      if (id == vocab.pad) {
        error = file + ": the " + (side == &pair.source ? "source" : "target") +
                " of pair " + std::to_string(index) + " holds the padding id " +
                std::to_string(id) +
                ", which only batching adds after a sentence; rebuild the "
                "file with tc-run prepare";
        return false;
      }
    }
  if (pair.source.empty() || pair.source.back() != vocab.eos) {
    error = file + ": the source of pair " + std::to_string(index) +
            " does not end with EOS (" + std::to_string(vocab.eos) +
            "); rebuild the file with tc-run prepare";
    return false;
  }
  return true;
}

bool checkPairs(const std::vector<SentencePair> &pairs, const Vocabulary &vocab,
                const std::string &file, std::string &error) {
  for (size_t i = 0; i < pairs.size(); ++i)
    if (!checkPair(pairs[i], i, vocab, file, error))
      return false;
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
  bool fromDescription = file.empty() && synthetic.empty();
  if (fromDescription)
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
    std::unique_ptr<TokenTable> table = TokenTable::open(file, error);
    if (!table) {
      if (fromDescription)
        error = "the model description's [data] train (a path from the "
                "working directory; --data FILE.tok overrides it): " +
                error;
      return nullptr;
    }
    // The vocabulary first: a mismatch there explains any bad pair.
    std::string subwordBytes;
    if (!table->vocabulary().empty()) {
      auto subwords =
          SubwordVocabulary::fromSerialized(table->vocabulary(), file, error);
      if (!subwords || !subwords->fits(vocab, file + "'s vocabulary", error))
        return nullptr;
      // The run keeps the checked model, the bytes its fingerprint is of.
      subwordBytes = subwords->serialized();
    }
    if (!checkIds(*table, vocab, file, error))
      return nullptr;
    auto source = std::make_unique<PairSource>(
        std::move(table), std::move(subwordBytes), file, buckets, vocab, seed);
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
  int64_t maxSymbols = contract::maxSyntheticSymbols(first);
  if (!canDrawSyntheticTask(vocab, maxSymbols, error))
    return nullptr;
  return std::make_unique<SyntheticSource>(*task, vocab, first.batch,
                                           maxSymbols, seed);
}

} // namespace tc::rt
