//===- Trainer.h - the training loop of tc-run ------------------------------===//
//
// Runs training steps of an executable on a device: batches from a data
// source, padded to their shape bucket; the RNG state (seed, step) as the
// step's input; loss, learning rate and throughput to a progress bar and a
// JSON-lines metrics file; checkpoints every K steps, at the end, and when
// SIGINT or SIGTERM asks the run to stop (after the step in flight).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_TRAINER_H
#define TC_RUNTIME_TRAIN_TRAINER_H

#include "runtime/Device.h"
#include "runtime/data/DataSource.h"
#include "support/OutputPath.h"

#include <string>
#include <vector>

namespace tc::rt {

struct TrainOptions {
  int64_t steps = 0;           ///< train until this many steps are done
  std::string checkpointDir;   ///< empty: no checkpoints
  int64_t checkpointEvery = 0; ///< 0: only at the end and on a signal
  bool resume = false;         ///< continue from checkpointDir's checkpoint
  std::string metricsPath;     ///< empty: no metrics file
  std::string executablePath;  ///< which the metrics must never overwrite
  uint64_t seed = 1;           ///< of a new run (a resumed one keeps its own)
  DataChoice data;
  bool quiet = false; ///< no progress output
};

struct TrainResult {
  enum Kind { Finished, Stopped, Failed } kind = Finished;
  int signal = 0;   ///< what stopped the run
  int64_t step = 0; ///< steps done
};

/// The files a run reads or owns, which none of its outputs (metrics,
/// profile) may overwrite: the executable, the data, the checkpoint and
/// its directory's lock.
std::vector<support::ProtectedFile> protectedFiles(const TrainOptions &options);

TrainResult train(const Executable &executable, Device &device,
                  const TrainOptions &options, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_TRAINER_H
