//===- Batch.h - a batch of sentence pairs and its shape bucket -----------===//

#ifndef TC_RUNTIME_DATA_BATCH_H
#define TC_RUNTIME_DATA_BATCH_H

#include "runtime/format/TokenFile.h"

#include <cstdint>
#include <vector>

namespace tc::rt {

/// Token conventions of the model (from the .tcx's run config).
struct Vocabulary {
  int64_t size = 0;
  int32_t pad = 0, bos = 1, eos = 2;
};

/// The arrays a training step binds: rows x sourceLength source ids,
/// rows x targetLength decoder inputs (BOS, target) and outputs (target,
/// EOS), padded with `pad`. Rows past the pairs are all padding, which the
/// loss ignores.
struct Batch {
  int64_t rows = 0, sourceLength = 0, targetLength = 0;
  std::vector<int32_t> source, targetIn, targetOut;
  int64_t tokens = 0; ///< source + target tokens that are not padding

  /// Appends `part`'s rows after this batch's (a training step's
  /// micro-batches, one after another along its leading dimension); the
  /// lengths become `part`'s, which every appended part shares.
  void append(const Batch &part);
};

/// Lays `pairs` out in a rows x sourceLength x targetLength batch; false
/// when a pair does not fit (the caller picks a larger bucket).
bool fillBatch(const std::vector<SentencePair> &pairs, const Vocabulary &vocab,
               int64_t rows, int64_t sourceLength, int64_t targetLength,
               Batch &batch);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_BATCH_H
