//===- InspectTokenFile.cpp - tc-inspect of a token file -------------------===//

#include "InspectTokenFile.h"
#include "runtime/data/Buckets.h"
#include "runtime/data/DataSource.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/format/TokenFile.h"

#include <algorithm>
#include <cstdio>

namespace tc {
namespace {

/// The `q`-quantile of `lengths` (sorted).
size_t quantile(const std::vector<size_t> &lengths, double q) {
  return lengths.empty() ? 0 : lengths[size_t(q * (lengths.size() - 1))];
}

void printLengths(const char *side, std::vector<size_t> lengths) {
  std::sort(lengths.begin(), lengths.end());
  size_t total = 0;
  for (size_t length : lengths)
    total += length;
  std::printf("%s: %zu tokens; length median %zu, 90%% %zu, 99%% %zu, "
              "longest %zu\n",
              side, total, quantile(lengths, 0.5), quantile(lengths, 0.9),
              quantile(lengths, 0.99), lengths.empty() ? 0 : lengths.back());
}

} // namespace

int inspectTokenFile(const std::string &path, bool text) {
  std::string error;
  std::unique_ptr<rt::TokenTable> table = rt::TokenTable::open(path, error);
  if (!table) {
    std::fprintf(stderr, "tc-inspect: error: %s\n", error.c_str());
    return 2;
  }
  std::unique_ptr<rt::SubwordVocabulary> vocabulary;
  if (!table->vocabulary().empty()) {
    vocabulary =
        rt::SubwordVocabulary::fromSerialized(table->vocabulary(), path, error);
    if (!vocabulary) {
      std::fprintf(stderr, "tc-inspect: error: %s\n", error.c_str());
      return 2;
    }
  }
  if (text) {
    if (!vocabulary) {
      std::fprintf(stderr,
                   "tc-inspect: error: %s holds no vocabulary to decode "
                   "with (it was prepared with --ids)\n",
                   path.c_str());
      return 2;
    }
    rt::SentencePair pair;
    for (uint64_t i = 0; i < table->size(); ++i) {
      // Ids outside the vocabulary would decode to nothing, silently.
      if (!table->pair(i, pair, error) ||
          !rt::checkPair(pair, i, vocabulary->conventions(), path, error)) {
        std::fprintf(stderr, "tc-inspect: error: %s\n", error.c_str());
        return 2;
      }
      std::printf("%s\t%s\n", vocabulary->decode(pair.source).c_str(),
                  vocabulary->decode(pair.target).c_str());
    }
    return 0;
  }
  std::printf("%s: tc token file (version %u), %llu pairs\n", path.c_str(),
              table->version(), (unsigned long long)table->size());
  if (vocabulary) {
    rt::Vocabulary ids = vocabulary->conventions();
    std::printf("vocabulary: SentencePiece, %lld pieces (%zu bytes); pad %d, "
                "bos %d, eos %d, unk %d\n",
                (long long)ids.size, table->vocabulary().size(), ids.pad,
                ids.bos, ids.eos, vocabulary->unknownId());
  }
  else
    std::printf("vocabulary: none (prepared from token ids)\n");
  const rt::TokenIds &ids = table->ids();
  std::printf("ids: %d to %d; ", ids.smallest, ids.largest);
  if (ids.sourceEnd >= 0)
    std::printf("every source ends with %d\n", ids.sourceEnd);
  else
    std::printf("the sources do not all end with one id\n");
  std::vector<size_t> sources, targets;
  for (uint64_t i = 0; i < table->size(); ++i) {
    rt::PairLengths lengths = rt::lengthsOf(*table, i);
    sources.push_back(lengths.source);
    targets.push_back(lengths.target);
  }
  printLengths("source (with EOS)", sources);
  printLengths("target (with EOS)", targets);
  return 0;
}

} // namespace tc
