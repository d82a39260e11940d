//===- TrainingStep.h - one training step of one rank ----------------------===//
//
// A rank's micro-batches of an update (DataParallel.h's Shard) drawn from
// the data, padded to the smallest bucket that holds them all and laid one
// after another along the step's leading dimension; bound with the RNG
// state (the rank's seed, the step) to the bucket's training step, which
// runs and returns the job's loss, target tokens and learning rate.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_TRAININGSTEP_H
#define TC_RUNTIME_TRAIN_TRAININGSTEP_H

#include "runtime/train/DataParallel.h"
#include "runtime/train/RunSetup.h"

#include <cstdint>
#include <string>

namespace tc::rt {

/// What one training step returned.
struct StepOutputs {
  float loss = 0, learningRate = 0;
  int32_t tokens = 0;
  int64_t batchTokens = 0; ///< source and target tokens fed
  int64_t batchSlots = 0;  ///< source and target positions, with padding

  /// The loss per target token: the job's (loss and tokens are summed over
  /// the ranks by the step).
  double lossPerToken() const { return tokens > 0 ? loss / tokens : 0.0; }
};

/// Runs step `step` on this rank's micro-batches (`shard`); false with
/// `error` when they fit no bucket or the function does not bind as a
/// training step.
bool runStep(const Executable &executable, Device &device, Run &run,
             const Shard &shard, int64_t step, StepOutputs &out,
             std::string &error);

/// Whether step `step`'s loss is finite; false with `error` (the run stops
/// without a checkpoint) when it is not.
bool checkFiniteLoss(const StepOutputs &out, int64_t step, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_TRAININGSTEP_H
