//===- DataSource.h - where training batches come from --------------------===//
//
// Batch i is a pure function of (seed, i), so a checkpoint's data position
// is one number. A synthetic task draws batch i from its own random stream;
// a token file's pairs are grouped once, each into the smallest shape bucket
// that fits it, and cut into batches of that bucket's size; every epoch
// visits all the batches in its own order, drawn from (seed, epoch): batch i
// is the (i mod count)-th of epoch i / count.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_DATASOURCE_H
#define TC_RUNTIME_DATA_DATASOURCE_H

#include "runtime/data/Buckets.h"
#include "runtime/data/SyntheticTask.h"

#include <memory>
#include <optional>
#include <string>

namespace tc::rt {

class DataSource {
public:
  virtual ~DataSource() = default;
  /// The pairs of batch `index`, which fit one of the buckets; none with
  /// `error` naming the file and pair when a pair read is bad (a damaged
  /// token file).
  virtual std::optional<std::vector<SentencePair>>
  batch(uint64_t index, std::string &error) = 0;
  /// "copy task, 1 to 11 symbols", "train.tok (3 pairs, 1 batch)".
  virtual std::string describe() const = 0;
  /// What a checkpoint records of the data (as a fingerprint), so that a
  /// run resumes on the same data only: describe() unless the data have
  /// an identity apart from their name.
  virtual std::string identity() const { return describe(); }
  /// Pairs left out because no bucket fits them.
  virtual int64_t skipped() const { return 0; }
  /// The serialised subword vocabulary the pairs were made with; empty
  /// when they were not made from text.
  virtual const std::string &vocabulary() const;
};

/// Where a run's data comes from: a token file, else a synthetic task, else
/// the executable's run config.
struct DataChoice {
  std::string tokenFile;
  std::string synthetic;
};

/// Whether every id of `pair` (pair `index` of `file`) is inside `vocab`
/// and its source ends with EOS; false with `error` naming the pair.
bool checkPair(const SentencePair &pair, uint64_t index,
               const Vocabulary &vocab, const std::string &file,
               std::string &error);

/// checkPair of each of `pairs`, read from `file` in this order.
bool checkPairs(const std::vector<SentencePair> &pairs, const Vocabulary &vocab,
                const std::string &file, std::string &error);

/// The data source for `choice` with `seed`, or null with `error` saying
/// why (no data named, an unknown task, a bad token file).
std::unique_ptr<DataSource> makeDataSource(const tcx::Executable &executable,
                                           const DataChoice &choice,
                                           uint64_t seed, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_DATASOURCE_H
