//===- SyntheticTask.cpp - copy and reverse tasks for demos and tests -----===//

#include "runtime/data/SyntheticTask.h"
#include "runtime/Random.h"

#include <algorithm>

namespace tc::rt {

std::optional<SyntheticTask> parseSyntheticTask(const std::string &name) {
  if (name == "copy")
    return SyntheticTask::Copy;
  if (name == "reverse")
    return SyntheticTask::Reverse;
  return std::nullopt;
}

namespace {
/// In 64 bits: the ids of an executable's run config are not bounded.
int64_t firstSymbolOf(const Vocabulary &vocab) {
  return int64_t(std::max({vocab.pad, vocab.bos, vocab.eos})) + 1;
}
} // namespace

bool canDrawSyntheticTask(const Vocabulary &vocab, int64_t maxSymbols,
                          std::string &error) {
  int64_t first = firstSymbolOf(vocab);
  if (vocab.size <= first) {
    error = "a synthetic task draws symbols from id " + std::to_string(first) +
            " (after padding, BOS and EOS) up to the vocabulary size, but "
            "the vocabulary has " +
            std::to_string(vocab.size) +
            " ids; compile the model with a larger vocab_size";
    return false;
  }
  if (maxSymbols < 1) {
    error = "a synthetic task needs shape buckets of source and target "
            "length 2 or more (one symbol and EOS)";
    return false;
  }
  return true;
}

std::vector<SentencePair> syntheticPairs(SyntheticTask task,
                                         const Vocabulary &vocab, int64_t rows,
                                         int64_t maxSymbols, uint64_t seed,
                                         uint64_t batchIndex) {
  // One stream per batch, from 2^31 up (parameters use 0, 1, 2, ...).
  RandomStream random(seed, 0x80000000u | uint32_t(batchIndex & 0x7fffffffu));
  int64_t firstSymbol = firstSymbolOf(vocab);
  std::vector<SentencePair> pairs(rows);
  for (SentencePair &pair : pairs) {
    int64_t n = random.integer(1, maxSymbols + 1);
    for (int64_t i = 0; i < n; ++i)
      pair.target.push_back(int32_t(random.integer(firstSymbol, vocab.size)));
    pair.source = pair.target;
    if (task == SyntheticTask::Reverse)
      std::reverse(pair.target.begin(), pair.target.end());
    pair.source.push_back(vocab.eos);
  }
  return pairs;
}

} // namespace tc::rt
