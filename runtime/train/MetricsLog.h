//===- MetricsLog.h - a training run's JSON-lines metrics file -------------===//
//
// One line per step: {"step": 12, "loss": 3.2, "learning_rate": 1e-4,
// "tokens": 320, "tokens_per_second": 4100.5, "elapsed_seconds": 2.1}.
// A resumed run first drops the lines after its checkpoint's step (it
// writes those steps again) and any line cut short; lines reach the disk
// before each checkpoint, so the file never runs behind a checkpoint.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_METRICSLOG_H
#define TC_RUNTIME_TRAIN_METRICSLOG_H

#include <cstdint>
#include <cstdio>
#include <string>

namespace tc::rt {

struct StepMetrics {
  int64_t step = 0;
  double loss = 0; ///< per target token
  double learningRate = 0;
  int32_t tokens = 0; ///< target tokens of the step
  double tokensPerSecond = 0;
  double elapsedSeconds = 0;
};

class MetricsLog {
public:
  MetricsLog() = default;
  MetricsLog(const MetricsLog &) = delete;
  MetricsLog &operator=(const MetricsLog &) = delete;
  ~MetricsLog();

  /// Opens `path` (empty: no file, every call does nothing): a new file,
  /// or for a run resumed at `resumedStep`, the old one trimmed to it.
  bool open(const std::string &path, bool resume, int64_t resumedStep,
            std::string &error);
  void write(const StepMetrics &metrics);
  /// Puts the lines written so far on the disk.
  void sync();

private:
  std::FILE *file_ = nullptr;
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_METRICSLOG_H
