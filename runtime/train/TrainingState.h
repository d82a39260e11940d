//===- TrainingState.h - what a run needs to continue bit-identically ------===//

#ifndef TC_RUNTIME_TRAIN_TRAININGSTATE_H
#define TC_RUNTIME_TRAIN_TRAININGSTATE_H

#include "runtime/Device.h"

#include <cstdint>
#include <vector>

namespace tc::rt {

struct TrainingState {
  int64_t step = 0; ///< steps completed
  uint64_t seed = 0;
  uint64_t dataPosition = 0;    ///< batches consumed
  uint64_t dataFingerprint = 0; ///< which data (a hash of its description)
  /// Which vocabulary made the data (vocabularyFingerprint(), or 0: none,
  /// or unknown in a checkpoint older than the fingerprint).
  uint64_t vocabularyFingerprint = 0;
  /// False for a checkpoint older than the fingerprint (version 2), whose
  /// 0 says nothing; true where 0 means "no vocabulary" (ids, a synthetic
  /// task).
  bool vocabularyRecorded = true;
  std::vector<uint8_t> params, firstMoments, secondMoments;
};

/// Copies a state's parameters and moments (when present: a fresh run has
/// none, the device's are zero) into the device.
void loadState(Device &device, const TrainingState &state);
/// Copies the device's parameters and moments (`paramBytes` each) into a
/// state.
void saveState(Device &device, int64_t paramBytes, TrainingState &state);
/// Frees the state's copies while the device holds them.
void releaseState(TrainingState &state);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_TRAININGSTATE_H
