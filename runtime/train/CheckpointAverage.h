//===- CheckpointAverage.h - the mean of several checkpoints' parameters ---===//
//
// Section 6.1 of the paper: the base models average the last 5
// checkpoints, the big ones the last 20. The average's parameters are the
// element-wise mean (summed in double) of the checkpoints' parameters; its
// step, seed, data position, vocabulary fingerprint and Adam moments are
// the newest checkpoint's, so that it can also be trained further and
// translate knows its vocabulary.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_CHECKPOINTAVERAGE_H
#define TC_RUNTIME_TRAIN_CHECKPOINTAVERAGE_H

#include "runtime/train/Checkpoint.h"
#include "runtime/train/TrainingState.h"

#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

/// The average of the checkpoints at `paths` (at least one), each read for
/// the model of `fingerprint` and `paramBytes`; none with `error` naming
/// the first that cannot be read or is of another model.
std::optional<TrainingState>
averageCheckpoints(const std::vector<std::string> &paths,
                   const ModelFingerprint &fingerprint,
                   int64_t paramBytes, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_CHECKPOINTAVERAGE_H
