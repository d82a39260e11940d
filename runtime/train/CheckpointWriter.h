//===- CheckpointWriter.h - when a training run writes its checkpoint -----===//
//
// Rank 0 writes the run's checkpoint periodically, before a validation, at
// the end and when a signal stops the run; each time after the metrics up
// to its step are on the disk, so that the metrics file never runs behind a
// checkpoint, and never from a state that is not finite (the last one is
// kept then). With --keep-last N the last N are also kept numbered.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_CHECKPOINTWRITER_H
#define TC_RUNTIME_TRAIN_CHECKPOINTWRITER_H

#include "runtime/train/MetricsLog.h"
#include "runtime/train/RunSetup.h"

#include <cstdint>
#include <string>

namespace tc::rt {

class CheckpointWriter {
public:
  CheckpointWriter(const tcx::Executable &x, Device &device, Run &run,
                   MetricsLog &metrics, const TrainOptions &options)
      : x_(x), device_(device), run_(run), metrics_(metrics),
        options_(options) {}

  /// Writes the state at the run's step; false with `error` when the
  /// metrics or the checkpoint cannot be written, or the parameters are
  /// not finite.
  bool save(std::string &error);
  /// Saves unless the state at this step is saved already.
  bool saveOnce(std::string &error);

private:
  const tcx::Executable &x_;
  Device &device_;
  Run &run_;
  MetricsLog &metrics_;
  const TrainOptions &options_;
  int64_t savedStep_ = -1;
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_CHECKPOINTWRITER_H
