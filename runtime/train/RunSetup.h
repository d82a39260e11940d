//===- RunSetup.h - a training run set up on every rank -------------------===//
//
// Before the first step: rank 0 locks the checkpoint directory and makes a
// fresh state (or reads the checkpoint's), which every rank then holds;
// every rank opens its data, drawn with the run's seed, and checks the
// fingerprints that tie a checkpoint to its data and vocabulary; the ranks
// check that they were started alike (DataParallel.h); rank 0 opens the
// validation set and stores the vocabulary beside the checkpoints; the state
// goes onto the device.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_RUNSETUP_H
#define TC_RUNTIME_TRAIN_RUNSETUP_H

#include "runtime/Communicator.h"
#include "runtime/data/Buckets.h"
#include "runtime/train/Checkpoint.h"
#include "runtime/train/CheckpointDirectory.h"
#include "runtime/train/DirectoryLock.h"
#include "runtime/train/Trainer.h"
#include "runtime/train/TrainingState.h"

#include <memory>
#include <string>
#include <vector>

namespace tc::rt {

/// What a run has once it is set up: its checkpoint directory locked, its
/// state (fresh or resumed; parameters and moments already on the device)
/// and its data.
struct Run {
  std::string checkpoint; ///< the checkpoint file; empty: none
  ModelFingerprint fingerprint;
  DirectoryLock lock;
  TrainingState state;
  std::unique_ptr<DataSource> data;
  std::vector<BucketShape> buckets;
  Vocabulary vocab;
  std::unique_ptr<Validation> validation; ///< null: none
  ValidationMetric metric = ValidationMetric::Loss;
  BestValidation best;
  /// The resumed step is one to validate that a signal stopped first.
  bool validationPending = false;
};

/// Sets the run up on every rank of `ranks`; false with `error` on every
/// rank when one could not (the failing ones say why).
bool setUpRun(const Executable &executable, Device &device, Communicator &ranks,
              const TrainOptions &options, Run &run, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_RUNSETUP_H
