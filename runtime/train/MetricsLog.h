//===- MetricsLog.h - a training run's JSON-lines metrics file -------------===//
//
// One line per step: {"step": 12, "loss": 3.2, "learning_rate": 1e-4,
// "tokens": 320, "tokens_per_second": 4100.5, "elapsed_seconds": 2.1}, and
// after each validation {"step": 500, "valid_loss": 2.9, "valid_perplexity":
// 18.2, "valid_bleu": 12.3, "valid_chrf": 40.2, ...}.
// A resumed run first drops the lines after its checkpoint's step (it
// writes those steps again) and any line cut short; lines reach the disk
// before each checkpoint, so the file never runs behind a checkpoint.
//
// The file is the user's: a path that names the executable, the checkpoint
// or the data, or an existing file that is not a metrics file, is refused;
// an earlier run's metrics file is only continued (--resume), never
// truncated; /dev/stdout or a pipe is appended to. A failed write is an
// error that stops the run (Trainer.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_METRICSLOG_H
#define TC_RUNTIME_TRAIN_METRICSLOG_H

#include "runtime/train/Validation.h"
#include "support/OutputPath.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

struct StepMetrics {
  int64_t step = 0;
  double loss = 0; ///< per target token
  double learningRate = 0;
  int32_t tokens = 0; ///< target tokens of the step
  double tokensPerSecond = 0;
  double elapsedSeconds = 0;
};

/// How a metrics file starts: its first line's first field.
inline constexpr std::string_view kMetricsMagic = "{\"step\": ";

/// The largest metrics file a resumed run reads back.
constexpr uint64_t kMaxMetricsBytes = uint64_t(4) << 30;

class MetricsLog {
public:
  MetricsLog() = default;
  MetricsLog(const MetricsLog &) = delete;
  MetricsLog &operator=(const MetricsLog &) = delete;
  ~MetricsLog();

  /// What `output.path` is (support/OutputPath.h), or none with `error`
  /// when the policy refuses it, or it holds an earlier run's metrics and
  /// the run is not `resume`d. Checked again by open().
  static std::optional<support::OutputKind>
  check(const support::Output &output, bool resume, std::string &error);
  /// Opens `output.path` (empty: no file, every call does nothing): a new
  /// file, or for a run resumed at `resumedStep`, the old one trimmed to it.
  /// Refuses what support/OutputPath.h's policy refuses, and an earlier
  /// run's metrics unless `resume`.
  bool open(const support::Output &output, bool resume, int64_t resumedStep,
            std::string &error);
  /// Appends one line; false with `error` when it cannot be written.
  bool write(const StepMetrics &metrics, std::string &error);
  /// Appends one line of validation scores at `step`.
  bool writeValidation(int64_t step, const ValidationScores &scores,
                       double elapsedSeconds, std::string &error);
  /// Puts the lines written so far on the disk.
  bool sync(std::string &error);

private:
  bool failed(std::string &error);

  std::string path_;
  bool stream_ = false; ///< a device or pipe: appended to, never synced
  std::FILE *file_ = nullptr;
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_METRICSLOG_H
