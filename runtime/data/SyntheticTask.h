//===- SyntheticTask.h - copy and reverse tasks for demos and tests -------===//
//
// Random sequences of symbols (ids from EOS + 1 to the vocabulary size, so
// never padding, BOS or EOS) of random length; the target is the source
// (copy) or the source reversed (reverse). Batch i is a pure function of
// (seed, i): the data position a checkpoint stores is the batch index.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_SYNTHETICTASK_H
#define TC_RUNTIME_DATA_SYNTHETICTASK_H

#include "runtime/data/Batch.h"
#include "runtime/format/BucketShape.h"

#include <optional>
#include <string>

namespace tc::rt {

enum class SyntheticTask { Copy, Reverse };

std::optional<SyntheticTask> parseSyntheticTask(const std::string &name);

/// Whether the task can be drawn for `vocab` with sequences of up to
/// `maxSymbols` symbols: false with `error` when the vocabulary has no
/// symbol besides padding, BOS and EOS, or the bucket has no room for one.
bool canDrawSyntheticTask(const Vocabulary &vocab, int64_t maxSymbols,
                          std::string &error);

/// `rows` pairs of symbol sequences of 1 to `maxSymbols` symbols (the task
/// must be drawable: canDrawSyntheticTask).
std::vector<SentencePair> syntheticPairs(SyntheticTask task,
                                         const Vocabulary &vocab, int64_t rows,
                                         int64_t maxSymbols, uint64_t seed,
                                         uint64_t batchIndex);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_SYNTHETICTASK_H
