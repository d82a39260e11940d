//===- Trainer.h - the training loop of tc-run ------------------------------===//
//
// Runs training steps of an executable on a device: batches from a data
// source, padded to their shape bucket; the RNG state (seed, step) as the
// step's input; loss, learning rate and throughput to a progress bar and a
// JSON-lines metrics file; checkpoints every K steps, at the end, and when
// SIGINT or SIGTERM asks the run to stop (after the step in flight);
// validation every K steps with the best checkpoint kept and early stopping;
// the last N checkpoints kept; a wall-time limit; data parallelism over the
// ranks of an mpirun job (DataParallel.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_TRAINER_H
#define TC_RUNTIME_TRAIN_TRAINER_H

#include "runtime/Device.h"
#include "runtime/data/DataSource.h"
#include "runtime/train/Validation.h"
#include "support/OutputPath.h"

#include <string>
#include <vector>

namespace tc::rt {

/// Scoring on held-out pairs during training (Validation.h), the best
/// checkpoint and early stopping.
struct ValidationOptions {
  std::string tokenFile;  ///< empty: no validation
  int64_t every = 0;      ///< steps between validations (and at the end)
  int64_t translate = 0;  ///< sources decoded for BLEU and chrF (0: all)
  /// What decides best.tcck; none: BLEU when the data is text, else loss.
  std::optional<ValidationMetric> metric;
  int64_t patience = 0; ///< stop after this many without improvement (0: never)
};

struct TrainOptions {
  int64_t steps = 0;           ///< train until this many steps are done
  std::string checkpointDir;   ///< empty: no checkpoints
  int64_t checkpointEvery = 0; ///< 0: only at the end and on a signal
  bool resume = false;         ///< continue from checkpointDir's checkpoint
  std::string metricsPath;     ///< empty: no metrics file
  std::string executablePath;  ///< which the metrics must never overwrite
  uint64_t seed = 1;           ///< of a new run (a resumed one keeps its own)
  std::string initialParameters; ///< a .npz to start from (empty: the seed's)
  DataChoice data;
  ValidationOptions validation;
  int64_t keepLast = 0;   ///< numbered checkpoints kept (0: none)
  double maxSeconds = 0;  ///< stop after the step that passes this (0: never)
  bool quiet = false;     ///< no progress output
  /// Of a data-parallel job (DataParallel.h): how long a sum over the ranks
  /// may wait for them (seconds; 0: for ever), and the steps between
  /// comparisons of the ranks' parameters (0: never).
  double collectiveTimeout = 60;
  int64_t checkRanksEvery = 100;
};

struct TrainResult {
  /// Refused: the run did not start (its data, checkpoint, --init archive
  /// or options are wrong: bad input); Failed: it started and failed.
  enum Kind { Finished, Stopped, Refused, Failed } kind = Finished;
  /// Why a finished run ended before its steps: "" (it did not), "the time
  /// limit", "early stopping".
  std::string endedEarly;
  int signal = 0;   ///< what stopped the run
  int64_t step = 0; ///< steps done
};

/// The check of a run's output `path` given as `flag` ("--metrics",
/// "--profile"; files that start with `magic`): support/OutputPath.h's
/// policy, with the run's inputs (the executable, the data, the initial
/// parameters) and its checkpoint directory.
support::Output runOutput(const TrainOptions &options, const std::string &flag,
                          const std::string &path, std::string_view magic);

/// Trains on `device` as one rank of `ranks` (DataParallel.h): rank 0 owns
/// the checkpoints, the metrics and validation.
TrainResult train(const Executable &executable, Device &device,
                  Communicator &ranks, const TrainOptions &options,
                  std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_TRAINER_H
