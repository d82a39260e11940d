//===- StepLog.cpp - what a training run reports of its steps --------------===//

#include "runtime/train/StepLog.h"

#include <cstdio>

namespace tc::rt {

StepLog::StepLog(MetricsLog &metrics, const TrainOptions &options,
                 int64_t firstStep)
    : metrics_(metrics), quiet_(options.quiet),
      progress_(firstStep, options.steps, stderr, options.maxSeconds) {}

double StepLog::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start_)
      .count();
}

bool StepLog::untimed(
    const std::function<bool(double elapsedSeconds)> &validation) {
  double began = elapsed();
  bool ok = validation(began);
  validationSeconds_ += elapsed() - began;
  return ok;
}

bool StepLog::write(int64_t step, const StepOutputs &out,
                    const StepReport &report, double elapsedSeconds,
                    std::string &error) {
  tokens_ += report.tokens;
  slots_ += report.slots;
  double trainingSeconds = elapsedSeconds - validationSeconds_;
  double throughput = trainingSeconds > 0 ? tokens_ / trainingSeconds : 0.0;
  if (!metrics_.write({step, out.lossPerToken(), out.learningRate, out.tokens,
                       throughput, elapsedSeconds},
                      error))
    return false;
  if (!quiet_)
    progress_.update(step, out.lossPerToken(), out.learningRate, throughput);
  return true;
}

void StepLog::finish() {
  if (!quiet_)
    progress_.finish();
}

void StepLog::printPaddingShare() const {
  if (!quiet_ && slots_ > 0)
    std::fprintf(stderr,
                 "tc-run: trained on %lld tokens in %lld padded positions: "
                 "padding share %.1f%%\n",
                 (long long)tokens_, (long long)slots_,
                 100.0 * double(slots_ - tokens_) / double(slots_));
}

} // namespace tc::rt
