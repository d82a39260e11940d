//===- DataSource.h - where training batches come from --------------------===//
//
// Batch i is a pure function of i (a synthetic task draws it from the seed,
// a token file takes pairs i*rows ... (i+1)*rows - 1, wrapping around at the
// end of an epoch), so a checkpoint's data position is one number.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_DATASOURCE_H
#define TC_RUNTIME_DATA_DATASOURCE_H

#include "runtime/data/SyntheticTask.h"

#include <memory>
#include <string>

namespace tc::rt {

class DataSource {
public:
  virtual ~DataSource() = default;
  /// The pairs of batch `index`, `rows` of them.
  virtual std::vector<SentencePair> batch(uint64_t index, int64_t rows) = 0;
  virtual std::string describe() const = 0;

  static std::unique_ptr<DataSource> synthetic(SyntheticTask task,
                                               const Vocabulary &vocab,
                                               int64_t maxSymbols,
                                               uint64_t seed);
  static std::unique_ptr<DataSource> pairs(std::vector<SentencePair> pairs,
                                           std::string name);
};

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_DATASOURCE_H
