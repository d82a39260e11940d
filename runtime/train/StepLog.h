//===- StepLog.h - what a training run reports of its steps ----------------===//
//
// After each step: a line of the metrics file (MetricsLog.h) and the
// progress bar (runtime/report/Progress.h), with the job's throughput: tokens per
// second of training time, which leaves out the time validation took; at
// the end, the share of padding among the positions trained on.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_STEPLOG_H
#define TC_RUNTIME_TRAIN_STEPLOG_H

#include "runtime/report/Progress.h"
#include "runtime/train/DataParallel.h"
#include "runtime/train/MetricsLog.h"
#include "runtime/train/TrainingStep.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace tc::rt {

class StepLog {
public:
  /// A log of the steps after `firstStep` (the run's, to `options.steps`)
  /// to `metrics`, and to stderr unless `options.quiet`.
  StepLog(MetricsLog &metrics, const TrainOptions &options, int64_t firstStep);

  /// Seconds since the run started.
  double elapsed() const;
  /// Runs `validation` (handed the seconds elapsed when it starts) without
  /// counting its time as training time; returns what it returns.
  bool untimed(const std::function<bool(double elapsedSeconds)> &validation);
  /// Logs step `step`, `elapsedSeconds` into the run: its outputs, and the
  /// job's tokens and padded positions (`report`, summed over the ranks);
  /// false with `error` when the metrics file cannot be written.
  bool write(int64_t step, const StepOutputs &out, const StepReport &report,
             double elapsedSeconds, std::string &error);
  /// Ends the progress bar.
  void finish();
  /// "tc-run: trained on 9547 tokens in 14336 padded positions: padding
  /// share 33.4%" on stderr (after a step).
  void printPaddingShare() const;

private:
  MetricsLog &metrics_;
  bool quiet_;
  Progress progress_;
  std::chrono::steady_clock::time_point start_ =
      std::chrono::steady_clock::now();
  double validationSeconds_ = 0;
  int64_t tokens_ = 0, slots_ = 0;
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_STEPLOG_H
