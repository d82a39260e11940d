//===- StepSchedule.cpp - what a run does after a training step ------------===//

#include "runtime/train/StepSchedule.h"
#include "runtime/format/TcxFile.h"

#include <string>

namespace tc::rt {
namespace {

/// Whether `step` is a multiple of `period` (0: never).
bool isDue(int64_t step, int64_t period) {
  return period > 0 && step % period == 0;
}

} // namespace

StepSchedule::StepSchedule(const TrainOptions &options)
    : steps_(options.steps), checkpointEvery_(options.checkpointEvery),
      validateEvery_(
          options.validation.tokenFile.empty() ? 0 : options.validation.every),
      checkRanksEvery_(options.checkRanksEvery),
      maxSeconds_(options.maxSeconds) {}

StepSchedule::Work StepSchedule::after(int64_t step) const {
  if (step == steps_)
    return {};
  return {isDue(step, checkpointEvery_), validates(step)};
}

bool StepSchedule::validates(int64_t step) const {
  return isDue(step, validateEvery_);
}

bool StepSchedule::checksRanks(int64_t step) const {
  return isDue(step, checkRanksEvery_);
}

bool StepSchedule::outOfTime(int64_t step, double elapsedSeconds) const {
  return maxSeconds_ > 0 && elapsedSeconds >= maxSeconds_ && step < steps_;
}

int64_t StepSchedule::fingerprint() const {
  std::string text = std::to_string(checkpointEvery_) + " " +
                     std::to_string(validateEvery_) + " " +
                     std::to_string(checkRanksEvery_) + " " +
                     std::to_string(maxSeconds_ > 0);
  return int64_t(tcx::checksum(reinterpret_cast<const uint8_t *>(text.data()),
                               text.size()));
}

} // namespace tc::rt
