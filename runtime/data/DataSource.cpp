//===- DataSource.cpp - where training batches come from ------------------===//

#include "runtime/data/DataSource.h"

namespace tc::rt {
namespace {

class SyntheticSource : public DataSource {
public:
  SyntheticSource(SyntheticTask task, Vocabulary vocab, int64_t maxSymbols,
                  uint64_t seed)
      : task(task), vocab(vocab), maxSymbols(maxSymbols), seed(seed) {}
  std::vector<SentencePair> batch(uint64_t index, int64_t rows) override {
    return syntheticPairs(task, vocab, rows, maxSymbols, seed, index);
  }
  std::string describe() const override {
    return std::string(task == SyntheticTask::Copy ? "copy" : "reverse") +
           " task, 1 to " + std::to_string(maxSymbols) + " symbols";
  }

private:
  SyntheticTask task;
  Vocabulary vocab;
  int64_t maxSymbols;
  uint64_t seed;
};

class PairSource : public DataSource {
public:
  PairSource(std::vector<SentencePair> pairs, std::string name)
      : all(std::move(pairs)), name(std::move(name)) {}
  std::vector<SentencePair> batch(uint64_t index, int64_t rows) override {
    std::vector<SentencePair> chosen;
    for (int64_t r = 0; r < rows; ++r)
      chosen.push_back(all[(index * rows + r) % all.size()]);
    return chosen;
  }
  std::string describe() const override {
    return name + " (" + std::to_string(all.size()) + " pairs)";
  }

private:
  std::vector<SentencePair> all;
  std::string name;
};

} // namespace

std::unique_ptr<DataSource> DataSource::synthetic(SyntheticTask task,
                                                  const Vocabulary &vocab,
                                                  int64_t maxSymbols,
                                                  uint64_t seed) {
  return std::make_unique<SyntheticSource>(task, vocab, maxSymbols, seed);
}

std::unique_ptr<DataSource> DataSource::pairs(std::vector<SentencePair> pairs,
                                              std::string name) {
  return std::make_unique<PairSource>(std::move(pairs), std::move(name));
}

} // namespace tc::rt
