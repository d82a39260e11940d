//===- DataParallel.h - what the ranks of a training job agree on ----------===//
//
// The semantics of `mpirun -np K tc-run train`, as fairseq's: the update of
// step s is computed from K x k micro-batches (k: the executable's
// accumulation steps), the global batch; rank r takes micro-batches
// [p + r k, p + (r + 1) k) of the data position p, which then advances by
// K k, so the data position is global and a run resumes with any number of
// ranks. Micro-batch j of an update draws its dropout with its own seed
// (Contract.h kMicroBatchSeedStride), so K ranks of k steps compute what one
// process of K k steps does. The training step sums gradients, loss and
// token counts over the ranks (tc.all_reduce) before normalising by the
// global token count and clipping by the global norm; Adam then runs
// identically everywhere.
//
// The host's side, here: rank 0 sets the run up (checkpoint, lock,
// initialisation) and sends its state to the others; every rank checks
// that it was started with the same executable, data and seed; after each
// step the ranks add up their token counts and stop requests, so that they
// stop at the same step; every N steps they compare parameter checksums;
// after work rank 0 does alone (checkpoints, validation) every rank waits
// for its verdict.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_DATAPARALLEL_H
#define TC_RUNTIME_TRAIN_DATAPARALLEL_H

#include "runtime/Communicator.h"
#include "runtime/Device.h"
#include "runtime/train/TrainingState.h"

#include <cstdint>
#include <functional>
#include <string>

namespace tc::rt {

/// Where one rank's micro-batches of an update lie among the job's.
struct Shard {
  int rank = 0, ranks = 1;
  int64_t accumulation = 1; ///< micro-batches per rank and step

  /// Micro-batches per update, over all ranks.
  int64_t perUpdate() const { return ranks * accumulation; }
  /// The data position of this rank's first micro-batch.
  uint64_t first(uint64_t dataPosition) const {
    return dataPosition + uint64_t(rank * accumulation);
  }
  /// The seed this rank feeds its training step.
  uint64_t seed(uint64_t runSeed) const;
};

/// The micro-batches each training step of `executable` sums ([training]
/// accumulation_steps; 1 when its run config has none).
int64_t accumulationStepsOf(const tcx::Executable &executable);

/// The shard of `ranks`' rank for `executable` (its accumulation steps).
Shard shardOf(const Communicator &ranks, const tcx::Executable &executable);

/// What must be the same on every rank at the start of a run.
struct StartFingerprint {
  uint64_t executable = 0; ///< Executable::fingerprint
  uint64_t data = 0;       ///< the data source's description
  uint64_t seed = 0;       ///< of the run
  int64_t steps = 0;       ///< to train until
  int64_t resume = 0;      ///< --resume given
  /// When the ranks talk: checkpoints, validations, checks, time limit.
  int64_t schedule = 0;
};

/// Whether every rank set itself up (`ok`); when one did not, every rank
/// stops with `error` (the failing ranks said why).
bool allStarted(Communicator &ranks, bool ok, std::string &error);

/// Rank 0's training state (step, seed, data position and fingerprint,
/// parameters and moments) copied to every rank.
void shareState(Communicator &ranks, int64_t paramBytes,
                TrainingState &state);

/// Whether every rank's `mine` equals rank 0's; false with `error` on every
/// rank (naming what differs on the ranks that differ).
bool sameStart(Communicator &ranks, const StartFingerprint &mine,
               std::string &error);

/// What the ranks tell each other after a step.
struct StepReport {
  int64_t tokens = 0; ///< source and target tokens fed (summed: the job's)
  int64_t slots = 0;  ///< positions with padding (summed)
  int64_t stopping = 0;   ///< ranks that a signal asked to stop
  int64_t outOfTime = 0;  ///< rank 0 passed the time limit
};

/// Sums the ranks' reports, in place.
void exchangeReports(Communicator &ranks, StepReport &report,
                     double timeoutSeconds);

/// Whether the parameters on `device` are the same bits on every rank;
/// false with `error` on every rank after `step` otherwise.
bool sameParameters(Communicator &ranks, Device &device, int64_t paramBytes,
                    int64_t step, double timeoutSeconds, std::string &error);

/// Rank 0's verdict after work only it does (a checkpoint, a validation):
/// every rank waits for it, as long as it takes.
enum class Verdict : int64_t { Continue, StopEarly, Failed };
Verdict shareVerdict(Communicator &ranks, Verdict verdict);

/// Runs `work` on rank 0 alone (it returns false on failure and sets `stop`
/// to end the run early) and shares its verdict, so that the ranks go on,
/// or stop, together; `error` says so on the other ranks when it failed.
Verdict leadAlone(Communicator &ranks, std::string &error,
                  const std::function<bool(bool &stop)> &work);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_DATAPARALLEL_H
