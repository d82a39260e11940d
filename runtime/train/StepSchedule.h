//===- StepSchedule.h - what a run does after a training step --------------===//
//
// After step s a run checkpoints every --checkpoint-every steps and
// validates every --valid-every steps, except after its last step (where
// the end of the run checkpoints, and validates, once); the ranks of a
// data-parallel job compare their parameters every --check-ranks-every
// steps; a run past its --time-limit stops after the step in flight, unless
// that was its last. Every rank follows the same schedule, which they check
// at the start (its fingerprint), so that they talk at the same steps.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_STEPSCHEDULE_H
#define TC_RUNTIME_TRAIN_STEPSCHEDULE_H

#include "runtime/train/Trainer.h"

#include <cstdint>

namespace tc::rt {

class StepSchedule {
public:
  explicit StepSchedule(const TrainOptions &options);

  /// What rank 0 does after a step that is not the run's last.
  struct Work {
    bool checkpoint = false, validate = false;
    bool any() const { return checkpoint || validate; }
  };
  Work after(int64_t step) const;

  /// Whether step `step` is one to validate (on schedule; the last step of
  /// a run is validated in any case).
  bool validates(int64_t step) const;
  /// Whether the ranks compare their parameters after `step`.
  bool checksRanks(int64_t step) const;
  /// Whether a run `elapsedSeconds` into it stops after `step`.
  bool outOfTime(int64_t step, double elapsedSeconds) const;

  /// A hash of the options above (DataParallel.h's StartFingerprint).
  int64_t fingerprint() const;

private:
  int64_t steps_;
  int64_t checkpointEvery_;
  int64_t validateEvery_; ///< 0: no validation
  int64_t checkRanksEvery_;
  double maxSeconds_;
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_STEPSCHEDULE_H
